"""Issue #14 part 3 in the daily report: a reviewed finding stays in the dealer-error money
after a correction or a void of its round, until surveillance releases it."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest

from audit.reports.models import DailyReport, DealerLine, ReportLine
from audit.reports.services.runs import report_request
from audit.services import finding_review
from casino.gaming_day import gaming_day_bounds
from tables.services.rounds import round_correct, round_record, round_void
from tables.services.sessions import table_session_open
from tests.factories import (
    CasinoFactory,
    DealerFactory,
    PitFactory,
    RulesetFactory,
    TableFactory,
    user_with_role,
)
from tests.reports.helpers import independent_totals
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db(transaction=True)

DAY = date(2026, 6, 11)
CORRECT = ROUNDS["ante_up_21"]["correct"][0]
OVERPAY = ROUNDS["ante_up_21"]["overpay"][0]  # overpaid 10.00


@pytest.fixture
def day():
    casino = CasinoFactory(name="Review Casino", time_zone="America/New_York", gaming_day_start_hour=6)
    pitboss, surveillance = user_with_role("pit_boss", casinos=[casino]), user_with_role("surveillance", casinos=[casino])
    start, _ = gaming_day_bounds(DAY, casino.time_zone, casino.gaming_day_start_hour)
    pit = PitFactory(casino=casino)
    table = TableFactory(pit=pit, game="ante_up_21", ruleset=RulesetFactory(casino=casino))
    dealer = DealerFactory(casino=casino, name="Dana")
    table_session_open(table=table, dealer=dealer, author=pitboss, at=start + timedelta(hours=1))
    rounds = []
    for i in range(3):  # corrected, voided, clean
        data = CORRECT if i == 2 else OVERPAY
        rnd = round_record(table=table, data=data, author=pitboss, at=start + timedelta(hours=2, minutes=i)).round
        if i < 2:
            finding_review(finding=rnd.findings.get(), decision="confirm", note="camera", author=surveillance)
        rounds.append(rnd)
    round_correct(round=rounds[0], revision=1, data=CORRECT, reason="slip was wrong", author=pitboss,
                  at=start + timedelta(hours=3))
    round_void(round=rounds[1], reason="misdeal", author=pitboss, at=start + timedelta(hours=3))
    return {"casino": casino, "dealer": dealer, "rounds": rounds, "surveillance": surveillance}


def _run(casino) -> DailyReport:
    report = report_request(casino=casino, gaming_day=DAY, via="command")
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    return report


def test_reviewed_findings_stay_in_the_reports_dealer_error_money(day):
    report = _run(day["casino"])
    dealer = DealerLine.objects.get(report=report, dealer=day["dealer"])
    # Two active-or-held rounds with an error (the corrected one, the voided one), 20.00 at stake.
    assert (dealer.rounds, dealer.error_rounds, dealer.findings, dealer.amount) == (3, 2, 2, Decimal("20.00"))
    floor = ReportLine.objects.get(report=report, level="floor", key="floor")
    assert floor.findings["overpay"] == {"count": 2, "amount": "20.00"}
    assert (floor.rounds, floor.voided_rounds) == (2, 1)
    expected = independent_totals(day["casino"], DAY)["floor"]
    assert (expected["findings_overpay"], expected["amount_overpay"]) == (2, Decimal("20.00"))

    # Surveillance releases the voided round's finding: it leaves the report at the next run.
    voided = day["rounds"][1].findings.get()
    finding_review(finding=voided, decision="dismiss", note="misdeal on camera", author=day["surveillance"])
    report = _run(day["casino"])
    dealer = DealerLine.objects.get(report=report, dealer=day["dealer"])
    assert (dealer.rounds, dealer.error_rounds, dealer.findings, dealer.amount) == (2, 1, 1, Decimal("10.00"))
