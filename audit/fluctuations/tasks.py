"""The fluctuation check on Celery: queued when a day's final report is done (never for the
provisional "today so far"), as audit/reports/tasks.py runs the report. Thin: load, call the
service, log a failure rather than raise (the check can be run again by finance)."""

from __future__ import annotations

import logging

from celery import shared_task

from audit.reports.models import DailyReport
from casino.outbox import task_enqueue

from .services import check_day

log = logging.getLogger(__name__)


@shared_task(name="fluctuations.check_report_day", ignore_result=True)
def check_report_day(report_id: int) -> int:
    report = DailyReport.objects.select_related("casino").filter(pk=report_id).first()
    if report is None or report.provisional or report.status != DailyReport.DONE:
        return 0
    try:
        return len(check_day(casino=report.casino, day=report.gaming_day))
    except Exception:  # noqa: BLE001 - logged; finance reruns the check for the day
        log.exception("fluctuation check of report %s", report_id)
        return 0


def check_after_final_report(sender=None, report=None, **kwargs) -> None:
    """audit/reports/signals.report_finished (sent on commit): queue the day's check (through the
    outbox, casino/outbox.py: a broker that is down delays it, never loses it)."""
    if report is not None and not report.provisional:
        task_enqueue(check_report_day, report.pk)
