"""The close and the re-run's history with a real Celery worker (Redis broker) on the test
database: the report's ``report_finished`` is sent in the worker's process, where the close
must be listening too."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.reports.models import DailyReport
from audit.reports.services.runs import report_request
from tables.closing.models import ReopenRerun
from tables.closing.services.check import day_close_current
from tables.closing.services.reopen import day_reopen
from tables.services.rounds import round_correct
from tests.closing.helpers import DAY, played_day
from tests.real_worker import MARKS, celery_worker, database_url, until
from tests.tables.rounds_data import ROUNDS

ROOT = Path(__file__).resolve().parents[2]

pytestmark = MARKS


@pytest.fixture
def worker(settings, tmp_path):
    settings.REPORTS_ROOT = tmp_path
    with celery_worker("closing", env={"DATABASE_URL": database_url(), "REPORTS_ROOT": str(tmp_path)}) as proc:
        yield proc


def _done(casino) -> DailyReport:
    report = until(lambda: DailyReport.objects.filter(
        casino=casino, gaming_day=DAY, provisional=False, status__in=(DailyReport.DONE, DailyReport.FAILED)).first())
    assert report.status == DailyReport.DONE, report.error
    return report


@pytest.mark.django_db(transaction=True)
def test_a_worker_run_closes_the_day_and_a_rerun_records_its_changes(worker):
    d = played_day()
    casino = d.f.casino
    d.sign()
    report_request(casino=casino, gaming_day=DAY, via="command")
    _done(casino)
    close = until(lambda: day_close_current(casino.pk, DAY))
    day_reopen(casino=casino, gaming_day=DAY, reason="the 21 bet was paid 10, keyed 5", author=d.f.manager)
    round_correct(round=d.round, revision=1, data=ROUNDS["ante_up_21"]["correct"][0], reason="paid 10",
                  author=d.f.pit_boss)
    report_request(casino=casino, gaming_day=DAY, via="command")  # the corrections are made: re-run
    _done(casino)
    rerun = until(lambda: ReopenRerun.objects.filter(reopen__close=close).first())
    table = next(c for c in rerun.changes if c["line"] == f"table:{d.f.table.pk}")
    assert table["columns"]["win"] == ["-25.00", "-30.00"]
    again = until(lambda: day_close_current(casino.pk, DAY))
    assert again.pk != close.pk
