"""Attested pays are counted apart from recorded pays, in the daily report and on the dealer's
page, and never as paid correctly (docs/floor/recording-rounds.md). The figures are checked
against a count of the raw wager rows made here in Python."""

from __future__ import annotations

import copy
from datetime import date, timedelta

import pytest
from django.urls import reverse

from audit.reports.models import DailyReport
from audit.reports.services.runs import report_request
from audit.rollups.selectors import dealer_pays
from tables.models import Dealer, Round, Wager
from tables.services.rounds import round_record
from tests.conftest import api_as
from tests.factories import user_with_role
from tests.reports.helpers import simulated_day
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db(transaction=True)
DAY = date(2026, 7, 2)


def _raw_counts(casino, **rounds) -> dict:
    out = {"recorded": 0, "attested": 0, "not_recorded": 0}
    wagers = Wager.objects.filter(round__table__pit__casino=casino, round__status=Round.ACTIVE,
                                  **{f"round__{k}": v for k, v in rounds.items()})
    for w in wagers.select_related("revision", "round"):
        if w.revision.number != w.round.revision:
            continue
        if w.recorded_net is not None or (w.wager in ("pot", "rake") and not w.revision.pays_attested):
            out["recorded"] += 1
        elif w.revision.pays_attested:
            out["attested"] += 1
        else:
            out["not_recorded"] += 1
    return out


def test_the_report_and_the_dealer_page_count_attested_pays_apart(settings, tmp_path):
    settings.REPORTS_ROOT = tmp_path / "reports"
    sim = simulated_day(day=DAY, rounds_per_table=3, seed=5)
    table = next(t for t in sim["tables"] if t.game == "poker_or_bust")
    data = copy.deepcopy(ROUNDS["poker_or_bust"]["overpay"][0])  # an overpay nobody recorded
    for seat in data["seats"]:
        seat.pop("paid")
    attested = round_record(table=table, data=data, author=sim["pitboss"], pays="attested",
                            at=sim["end"] - timedelta(minutes=3))
    assert attested.revision.pays_attested and not attested.audit.findings
    report = report_request(casino=sim["casino"], gaming_day=DAY, via="command")
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error

    raw = _raw_counts(sim["casino"])
    pays = report.summary["pays"]
    floor = pays["floor"]
    assert (floor["recorded"], floor["attested"], floor["not_recorded"]) == (
        raw["recorded"], raw["attested"], raw["not_recorded"])
    assert floor["attested"] == 2 and floor["attested_stake"] == "20.00"
    dealer = Dealer.objects.get(pk=attested.round.dealer_id)
    row = next(d for d in pays["dealers"] if d["label"] == str(dealer))
    assert row["attested"] == 2
    # The dealer's page sums the same pays from the daily rollups: every dealer's equal the raw rows'.
    for each in Dealer.objects.filter(casino=sim["casino"]):
        assert dealer_pays(each, since=DAY, until=DAY) == _raw_counts(sim["casino"], dealer=each), each
    assert dealer_pays(dealer, since=DAY, until=DAY)["attested"] == 2
    # The simulated day's correction left its pays out without attesting them: neither.
    assert floor["not_recorded"] > 0

    finance = user_with_role("finance", casinos=[sim["casino"]])
    page = api_as(finance).get(reverse("reports-day", args=[report.pk])).content.decode()
    assert "2 pays attested, not recorded" in page and "never counted as paid correctly" in page

    surveillance = user_with_role("surveillance", casinos=[sim["casino"]])
    url = reverse("desk-dealer", args=[dealer.pk]) + f"?since={DAY}&until={DAY}"
    html = api_as(surveillance).get(url).content.decode()
    assert 'data-stat="pays_attested">2<' in html
    recorded_here = sum(1 for w in Wager.objects.filter(round__dealer=dealer, round__status=Round.ACTIVE)
                        .select_related("revision", "round")
                        if w.revision.number == w.round.revision and w.recorded_net is not None)
    assert f'data-stat="pays_recorded">{recorded_here}<' in html
