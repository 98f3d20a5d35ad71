"""Celery tasks of the daily reconciliation. Thin: load by id, call a service, never raise.

A run: ``reports.reconcile_start`` plans the slices and queues one ``reports.reconcile_chunk``
per slice (any number of workers take them in parallel); the slice that completes the run
queues ``reports.reconcile_combine`` (the database counts the slices done, not a chord in the
result backend, so a slice delivered twice cannot start the combine step early). Every task is
safe to deliver twice (acks_late, reject on worker lost: see "When a worker dies" in
README.md). A task that fails, or overruns ``CELERY_TASK_SOFT_TIME_LIMIT``, records the reason
on the report (status "failed") instead of raising, so a person sees why and retries.
"""

from __future__ import annotations

import logging
import time
import traceback

from celery import group, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from .models import ReportChunk
from .services import odds, runs

log = logging.getLogger(__name__)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, SoftTimeLimitExceeded):
        return (
            f"it ran longer than CELERY_TASK_SOFT_TIME_LIMIT ({settings.CELERY_TASK_SOFT_TIME_LIMIT} s); "
            "raise it (and CELERY_TASK_TIME_LIMIT, CELERY_VISIBILITY_TIMEOUT) or lower REPORTS_CHUNK_ROUNDS"
        )
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" (at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})" if where else ""
    return f"{type(exc).__name__}: {exc}{at}"


@shared_task(name=runs.START_TASK, ignore_result=True)
def reconcile_start(report_id: int, run_id: str, full: bool = False) -> str:
    try:
        chunk_ids = runs.report_plan(report_id=report_id, run_id=run_id)
    except Exception as exc:  # noqa: BLE001 - recorded on the report, with the reason
        log.exception("reconcile_start %s", report_id)
        runs.report_fail(
            report_id=report_id, run_id=run_id, error=f"planning failed: {_reason(exc)}"
        )
        return "failed"
    if not chunk_ids:  # no rounds that day (or, delivered again, every slice already done)
        reconcile_combine.delay(report_id, run_id)
        return "no slices to run"
    group(reconcile_chunk.si(chunk_id, full) for chunk_id in chunk_ids).apply_async()
    return f"{len(chunk_ids)} slices"


@shared_task(name="reports.reconcile_chunk", ignore_result=True)
def reconcile_chunk(chunk_id: int, full: bool = False) -> bool:
    try:
        return runs.report_chunk_run(chunk_id=chunk_id, full=full)
    except Exception as exc:  # noqa: BLE001
        log.exception("reconcile_chunk %s", chunk_id)
        chunk = ReportChunk.objects.filter(pk=chunk_id).first()
        if chunk is not None:
            runs.report_fail(
                report_id=chunk.report_id,
                run_id=str(chunk.run_id),
                error=f"slice {chunk.index} (rounds {chunk.first_round}-{chunk.last_round}) "
                f"failed: {_reason(exc)}",
            )
        return False


@shared_task(name=runs.COMBINE_TASK, ignore_result=True)
def reconcile_combine(report_id: int, run_id: str) -> str:
    try:
        report = runs.report_combine(report_id=report_id, run_id=run_id)
    except Exception as exc:  # noqa: BLE001
        log.exception("reconcile_combine %s", report_id)
        runs.report_fail(
            report_id=report_id, run_id=run_id, error=f"combining failed: {_reason(exc)}"
        )
        return "failed"
    return "done" if report is not None else "skipped"


@shared_task(name="reports.close_gaming_days")
def close_gaming_days() -> int:
    """Beat (UTC interval): reconcile every gaming day that has just ended, per casino."""
    return len(runs.gaming_days_close())


@shared_task(name="reports.provisional_refresh")
def provisional_refresh() -> int:
    """Beat (``REPORTS_PROVISIONAL_MINUTES``): refresh each casino's "today so far" report."""
    return len(runs.provisional_reports_refresh())


@shared_task(name="reports.wager_odds_compute", ignore_result=True)
def wager_odds_compute() -> int:
    """Beat (every minute): the engine's exact figures of each ruleset version without them.

    Versions are priced one after another for up to a minute, then the next delivery goes on:
    a blackjack shoe takes up to a minute of CPU, and the task's time limit stays far off.
    A version two deliveries meet at once is computed by both and stored once.
    """
    started, priced = time.monotonic(), 0
    for version in odds.versions_unpriced().iterator():
        if priced and time.monotonic() - started > 60:
            break
        odds.wager_odds_compute(version=version)
        priced += 1
    return priced
