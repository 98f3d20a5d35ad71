"""A report run before its ruleset versions were priced says which theo used an assumed edge,
on the page and in its files, until it is run again after the pricing."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from django.urls import reverse

from audit.reports.exporters import csv_bytes, edges_pending_notice, report_data
from audit.reports.models import DailyReport
from audit.reports.services import odds
from audit.reports.services.runs import report_request
from tables.games.edges import NotExact
from tables.models import RulesetVersion
from tests.conftest import api_as
from tests.factories import user_with_role
from tests.reports.helpers import simulated_day

pytestmark = pytest.mark.django_db(transaction=True)
DAY = date(2026, 7, 1)


def _fake_edges(game, rules, **_):
    """Figures of the right shape for every wager the report meets (the real ones: test_exact_odds)."""
    if game == "poker_or_bust":
        raise NotExact("the shoe is too large for exact enumeration")
    wagers = {"ante_up_21": ("21", "insurance", "ante", "bet", "poker_bonus"),
              "upcard_luck_21": ("21", "insurance", "upcard_luck", "taxpayers_fortune"),
              "blackjack_tie": ("21", "insurance", *(f"tie_{b}" for b in ("LS", "RS", "17", "18", "19", "20", "21",
                                                                           "blackjack")))}[game]
    return {w: {"house_edge": 0.01, "variance": 1.5, "method": "exact", "strategy": "test"} for w in wagers}


def _run(casino) -> DailyReport:
    report = report_request(casino=casino, gaming_day=DAY, via="command")
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    return report


def test_the_assumed_edges_are_named_until_the_report_runs_again_after_the_pricing(settings, tmp_path, monkeypatch):
    settings.REPORTS_ROOT = tmp_path / "reports"
    sim = simulated_day(day=DAY, rounds_per_table=3, seed=5)
    report = _run(sim["casino"])
    notice = edges_pending_notice(report)
    assert notice.startswith("Theoretical win of ") and "Upcard Luck 21 21 bet" in notice, notice
    page = api_as(user_with_role("finance")).get(reverse("reports-day", args=[report.pk])).content.decode()
    assert 'id="edges-pending"' in page and "Run the report again to use it" in page
    rows = list(csv.reader(io.StringIO(csv_bytes(report_data(report)).decode("utf-8-sig"))))
    assert ["note", notice] in rows and rows[0][0] == "section"  # a note: the columns stay where they are

    monkeypatch.setattr(odds, "wager_edges", _fake_edges)
    for version in RulesetVersion.objects.all():
        odds.wager_odds_compute(version=version)
    # Poker or Bust's versions now say why they have no exact figure: their assumed one is final.
    report = _run(sim["casino"])
    assert edges_pending_notice(report) == ""
    page = api_as(user_with_role("finance", username="finance2")).get(
        reverse("reports-day", args=[report.pk])).content.decode()
    assert 'id="edges-pending"' not in page
    assert report_data(report).edges_pending == ""
