"""Beat's provisional refresh, queued to Redis and run by real Celery workers (issue #15)."""

from __future__ import annotations

import time

import pytest

from audit.reports.models import DailyReport, ReportLine
from audit.reports.services.runs import current_gaming_day
from audit.reports.tasks import provisional_refresh
from tests.reports.helpers import independent_totals, simulated_day
from tests.reports.test_celery_worker import pytestmark as worker_marks
from tests.reports.test_celery_worker import workers  # noqa: F401 - the fixture

pytestmark = worker_marks


@pytest.mark.django_db(transaction=True)
def test_beat_task_on_real_workers_builds_today_so_far(workers):  # noqa: F811
    from tests.factories import CasinoFactory

    casino = CasinoFactory(time_zone="America/New_York", gaming_day_start_hour=6)
    day = current_gaming_day(casino)
    simulated_day(day=day, rounds_per_table=3, seed=47, casino=casino)
    provisional_refresh.delay()
    deadline = time.monotonic() + 120
    report = None
    while time.monotonic() < deadline:
        report = DailyReport.objects.filter(casino=casino, provisional=True, status="done").first()
        if report is not None:
            break
        time.sleep(0.5)
    assert report is not None, list(DailyReport.objects.values("status", "error"))
    assert (report.gaming_day, report.requested_via) == (day, "beat")
    floor = ReportLine.objects.get(report=report, level="floor")
    expected = independent_totals(casino, day)["floor"]
    assert (floor.rounds, floor.handle, floor.win) == (expected["rounds"], expected["handle"], expected["win"])
