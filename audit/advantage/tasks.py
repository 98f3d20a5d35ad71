"""The advantage-play day's recount on Celery (results.py): queued by a read that found the
stored result stale on a day too large to count in the request, and by each report of the day
(the provisional "today so far" every REPORTS_PROVISIONAL_MINUTES, and the final one at the
close). Thin: load, call the service, log a failure rather than raise (the next read or report
queues it again)."""

from __future__ import annotations

import logging
from datetime import date

from celery import shared_task

from casino.outbox import task_enqueue

from .models import DayChange
from .results import RECOUNT_TASK, day_results_compute

log = logging.getLogger(__name__)


@shared_task(name=RECOUNT_TASK, ignore_result=True)
def day_count(casino_id: int, gaming_day: str) -> int:
    try:
        return day_results_compute(casino_id=casino_id, gaming_day=date.fromisoformat(gaming_day))
    except Exception:  # noqa: BLE001 - logged; a later read or report queues the recount again
        log.exception("advantage recount of casino %s, %s", casino_id, gaming_day)
        return 0


def count_after_report(sender=None, report=None, **kwargs) -> None:
    """audit/reports/signals.report_finished (sent on commit): queue the recount of the report's
    day, so the desk finds it counted (through the outbox: a broker that is down delays it)."""
    # A day without a count line (no blackjack or Poker or Bust played) has nothing to count.
    if report is not None and DayChange.objects.filter(gaming_day=report.gaming_day,
                                                       table__pit__casino_id=report.casino_id).exists():
        task_enqueue(day_count, report.casino_id, report.gaming_day.isoformat())
