"""Celery tasks of the daily reconciliation. Thin: load by id, call a service, never raise.

A run is a chord: one ``reports.reconcile_chunk`` per slice of the day's rounds (any
number of workers take them in parallel), then ``reports.reconcile_combine``. Every task is
safe to run twice (acks_late redelivery): a slice already done is skipped, a step of a
replaced run does nothing. A task that fails records the reason on the report (status
"failed") instead of raising, so a person sees why and retries.
"""

from __future__ import annotations

import logging
import traceback

from celery import chord, shared_task

from .services import runs

log = logging.getLogger(__name__)


def _reason(exc: BaseException) -> str:
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" (at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})" if where else ""
    return f"{type(exc).__name__}: {exc}{at}"


@shared_task(name="reports.reconcile_start")
def reconcile_start(report_id: int, run_id: str, full: bool = False) -> str:
    try:
        chunk_ids = runs.report_plan(report_id=report_id, run_id=run_id)
    except Exception as exc:  # noqa: BLE001 - recorded on the report, with the reason
        log.exception("reconcile_start %s", report_id)
        runs.report_fail(
            report_id=report_id, run_id=run_id, error=f"planning failed: {_reason(exc)}"
        )
        return "failed"
    if not chunk_ids:
        reconcile_combine.delay(report_id, run_id)
        return "no rounds"
    chord([reconcile_chunk.si(chunk_id, full) for chunk_id in chunk_ids])(
        reconcile_combine.si(report_id, run_id)
    )
    return f"{len(chunk_ids)} slices"


@shared_task(name="reports.reconcile_chunk")
def reconcile_chunk(chunk_id: int, full: bool = False) -> bool:
    try:
        return runs.report_chunk_run(chunk_id=chunk_id, full=full)
    except Exception as exc:  # noqa: BLE001
        log.exception("reconcile_chunk %s", chunk_id)
        from .models import ReportChunk

        chunk = ReportChunk.objects.filter(pk=chunk_id).first()
        if chunk is not None:
            runs.report_fail(
                report_id=chunk.report_id,
                run_id=str(chunk.run_id),
                error=f"slice {chunk.index} (rounds {chunk.first_round}-{chunk.last_round}) "
                f"failed: {_reason(exc)}",
            )
        return False


@shared_task(name="reports.reconcile_combine")
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
