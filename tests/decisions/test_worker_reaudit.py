"""The re-audit's pricing on the path production takes: a real Celery worker runs a full re-audit's
report slices, and the slices price the rounds they replay (no beat runs here, so no pass of the
queue can have priced them), before the report is combined with every decision figure."""

from __future__ import annotations

from decimal import Decimal

import pytest

from audit.decisions.models import DecisionPending, SeatDecisions
from audit.reports.models import DailyReport, ReportChunk
from audit.reports.services.runs import report_request
from tables.games import GAMES
from tables.games.blackjack.decisions import round_prices
from tests.closing.helpers import DAY, played_day
from tests.real_worker import MARKS, celery_worker, database_url, until

pytestmark = MARKS


@pytest.mark.django_db(transaction=True)
def test_a_full_re_audit_on_a_worker_prices_the_rounds_its_slices_replay(settings, tmp_path):
    d = played_day()  # one Ante Up 21 round, queued for its prices when recorded
    casino = d.f.casino
    d.sign()
    assert DecisionPending.objects.filter(round_id=d.round.pk).exists()
    assert not SeatDecisions.objects.exists()
    settings.REPORTS_ROOT = tmp_path
    with celery_worker("reaudit", env={"DATABASE_URL": database_url(), "REPORTS_ROOT": str(tmp_path)}):
        report_request(casino=casino, gaming_day=DAY, via="command", full=True)
        report = until(lambda: DailyReport.objects.filter(
            casino=casino, gaming_day=DAY, provisional=False,
            status__in=(DailyReport.DONE, DailyReport.FAILED)).first(), 120, "the report")
    assert report.status == DailyReport.DONE, report.error
    assert report.summary["reaudit"]["replayed"] == 1
    assert not DecisionPending.objects.exists()
    rules = d.round.ruleset_version.rules()
    want = round_prices(GAMES[d.round.game].module.parse_round(d.round.revisions.get().data, rules), rules)
    rows = list(SeatDecisions.objects.filter(round_id=d.round.pk))
    assert rows and sum((r.cost for r in rows), Decimal(0)) == sum((x.cost_money for x in want.decisions), Decimal(0))
    # The combine read them: nothing left to price, every seat row counted, from the sums the
    # worker's slice kept once it had priced its rounds (audit/reports/README.md).
    assert report.summary["decisions"] == {"pending": 0, "seats": len(rows)}
    (chunk,) = ReportChunk.objects.filter(report=report, run_id=report.run_id)
    assert chunk.partial["decisions"]["pending"] == 0
    assert [(t, g, Decimal(cost), seats) for t, g, cost, _h, seats in chunk.partial["decisions"]["tables"]] == [
        (d.round.table_id, d.round.game, sum((r.cost for r in rows), Decimal(0)), len(rows))]
