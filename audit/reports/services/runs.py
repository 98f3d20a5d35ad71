"""Running a gaming day's reconciliation: request, plan in slices, run slices, combine, fail.

Exactly one report per (casino, gaming day): a unique constraint, plus the report row
locked (``select_for_update``) whenever a run is requested, finished or failed. Each run
gets a fresh ``run_id``; a slice or combine step of an older run finds that it no longer
owns the report and does nothing, so a re-run replaces the report's lines in one
transaction and two runs never produce two reports.

Every step may be delivered twice (a worker that dies before acknowledging its task: see
"When a worker dies" in ../README.md): a plan delivered again gives the same slices, a slice
already done is skipped and a slice never runs twice at once, and the slice that completes
the run starts the combine step. Each step beats the run's heartbeat (``heartbeat_at``): a
run silent for ``REPORTS_STALE_SECONDS`` is stale and may be retried at once.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from contextlib import contextmanager, suppress
from datetime import date, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import F, Min
from django.utils import timezone

from audit import chain_verify
from audit.decisions.selectors import pending_rounds, table_games
from audit.jackpots.models import LedgerTransaction
from casino.collector import collector_paused
from casino.gaming_day import (
    current_gaming_day,  # noqa: F401 (callers import it from here)
    gaming_day_of,
)
from casino.local_time import local_time_text
from casino.models import Casino
from casino.outbox import task_enqueue
from tables import chain
from tables.games import ENGINE_VERSION
from tables.models import Round

from .. import selectors
from ..exporters import report_files_write, reports_root
from ..models import DailyReport, DealerLine, ReportChunk, ReportLine, ReportWagerLine
from ..signals import report_finished
from .build import build_lines, combine_partials
from .cash import unexplained_findings_raise
from .liability import liability_for_day
from .month_lines import month_lines_refresh
from .reaudit import rounds_reaudit

log = logging.getLogger(__name__)

#: The run's Celery tasks (audit/reports/tasks.py registers them under these names; the tasks
#: import this module, so it queues them by name).
START_TASK = "reports.reconcile_start"
COMBINE_TASK = "reports.reconcile_combine"


def chunk_rounds() -> int:
    """Rounds per slice (``REPORTS_CHUNK_ROUNDS``): each slice is one task on any worker."""
    configured = getattr(settings, "REPORTS_CHUNK_ROUNDS", None) or os.environ.get(
        "REPORTS_CHUNK_ROUNDS"
    )
    return max(1, int(configured or 20_000))


def stale_after() -> timedelta:
    """A run without progress this long is presumed dead (its workers lost): it may be retried."""
    return timedelta(seconds=int(getattr(settings, "REPORTS_STALE_SECONDS", 360)))


def run_last_progress(report: DailyReport):
    return report.heartbeat_at or report.started_at or report.queued_at


def run_is_stale(report: DailyReport, now=None) -> bool:
    """Queued or running, and silent (no heartbeat) for ``REPORTS_STALE_SECONDS``."""
    if report.status not in (DailyReport.QUEUED, DailyReport.RUNNING):
        return False
    last = run_last_progress(report)
    return last is None or (now or timezone.now()) - last >= stale_after()


def run_heartbeat(report_id: int, run_id: str, step: str = "") -> bool:
    """The run made progress (``step``: plan, slice, combine); staleness is measured from here.

    A plain UPDATE in its own transaction, so that it is seen while the step goes on.
    """
    log.debug("report %s run %s: %s", report_id, run_id, step)
    return bool(
        DailyReport.objects.filter(
            pk=report_id, run_id=run_id, status__in=(DailyReport.QUEUED, DailyReport.RUNNING)
        ).update(heartbeat_at=timezone.now())
    )


def first_gaming_day(casino: Casino) -> date | None:
    """The casino's first gaming day: that of its creation or of its first round, the earlier.

    None when neither is known (a casino created outside the ORM with no rounds yet).
    """
    days = []
    created = casino.history.order_by("history_date").values_list("history_date", flat=True).first()
    if created is not None:
        days.append(gaming_day_of(created, casino.time_zone, casino.gaming_day_start_hour))
    first_round = Round.objects.filter(table__pit__casino=casino).aggregate(day=Min("gaming_day"))
    if first_round["day"] is not None:
        days.append(first_round["day"])
    return min(days, default=None)


def _day_refusal(casino: Casino, gaming_day: date, now) -> str | None:
    """Why ``gaming_day`` cannot have a final report at ``casino`` (outside its life), or None."""
    today = current_gaming_day(casino, now)
    if gaming_day >= today:
        _, ends = selectors.day_bounds(casino, today)  # today's: a far-off day may have no end
        return (
            f"Gaming day {gaming_day} at {casino} has not ended yet: the current gaming day there "
            f"is {today}, which ends at {local_time_text(ends, casino)}, and a report covers only "
            "a day that has ended"
        )
    first = first_gaming_day(casino) or today
    if gaming_day < first:
        return (
            f"Gaming day {gaming_day} is before {casino}'s first gaming day ({first}, "
            "when it was created or its first round was recorded): there is nothing to reconcile"
        )
    return None


def _day_chain_head(report: DailyReport) -> tuple[str, int, str]:
    """The day's chain head, the chains it covers, and why none is printed ("" when it is).

    Every table that played the day and every bank that posted must have a link before the
    day's end: a head that leaves one out (or covers no chain at all) would vouch for play
    it does not cover, so the report prints none and says why in its notes."""
    heads = chain_verify.day_heads(report.casino, report.gaming_day)
    # DISTINCT in PostgreSQL: a million-round day sent every round's table id (1 s of the combine).
    played = {chain.table_chain(pk) for pk in Round.objects.filter(
        table__pit__casino=report.casino, gaming_day=report.gaming_day)
        .order_by().values_list("table_id", flat=True).distinct()}
    played |= {chain.bank_chain(pk) for pk in LedgerTransaction.objects.filter(
        bank__casino=report.casino, gaming_day=report.gaming_day)
        .order_by().values_list("bank_id", flat=True).distinct()}
    missing = sorted(played - set(heads))
    if missing:
        return "", 0, (f"No chain head: {len(missing)} of the {len(played)} chains that recorded this day "
                       f"({', '.join(missing[:10])}) have no link before its end; ask an operator to verify the audit chain")
    head, chains = chain_verify.day_head(report.casino, report.gaming_day, heads=heads)
    return head, chains, ""


def _enqueue(report: DailyReport, full: bool) -> None:
    task_enqueue(START_TASK, report.pk, str(report.run_id), full)


def _enqueue_combine(report_id: int, run_id: str) -> None:
    task_enqueue(COMBINE_TASK, report_id, str(run_id))


@transaction.atomic
def report_request(
    *, casino: Casino, gaming_day: date, requested_by=None, via: str, full: bool = False, now=None
) -> DailyReport:
    """Start (or restart) the final reconciliation of ``gaming_day``; queued after this commits.

    Refused with a field error: a gaming day outside the casino's life (before its first
    gaming day, or not ended yet: see ``provisional_request`` for today so far), and a day
    whose report is being built right now (unless that run has made no progress for
    ``REPORTS_STALE_SECONDS``: then it is replaced at once).
    """
    now = now or timezone.now()
    refusal = _day_refusal(casino, gaming_day, now)
    if refusal:
        raise ValidationError({"gaming_day": [refusal]})
    return _run_request(
        casino=casino, gaming_day=gaming_day, provisional=False, requested_by=requested_by,
        via=via, full=full, now=now,
    )


@transaction.atomic
def provisional_request(*, casino: Casino, requested_by=None, via: str, now=None) -> DailyReport:
    """Start (or refresh) the provisional "today so far" report of the casino's current gaming day.

    The same run as the final report's (plan, slices, combine: the same figures by the same
    code), over the rounds recorded until the plan reads them; the report is marked
    provisional, never gets a chain head or a PDF, and is deleted when the day's final
    report is done. Refused, like a final run, while a refresh of it is already going.
    """
    now = now or timezone.now()
    return _run_request(
        casino=casino, gaming_day=current_gaming_day(casino, now), provisional=True,
        requested_by=requested_by, via=via, full=False, now=now,
    )


def provisional_fresh(report: DailyReport | None, now=None) -> bool:
    """Whether ``report`` (today's provisional report) needs no new run: it is being built (and
    not stale), or its figures were read less than ``REPORTS_PROVISIONAL_MINUTES`` ago (what beat
    refreshes anyway)."""
    if report is None:
        return False
    now = now or timezone.now()
    if report.status in (DailyReport.QUEUED, DailyReport.RUNNING):
        return not run_is_stale(report, now)
    read = report.as_of if report.status == DailyReport.DONE else report.finished_at
    return read is not None and now - read < timedelta(minutes=settings.REPORTS_PROVISIONAL_MINUTES)


def provisional_on_open(*, casino: Casino, requested_by=None, now=None) -> DailyReport:
    """Today so far as the page opens: the current provisional report, its run started first
    when it has none fresh (:func:`provisional_fresh`). The run is queued through the outbox, so
    a broker outage leaves it waiting and the page answers as usual. A refresh another request
    started a moment ago is the one shown (its refusal is not this page's error)."""
    now = now or timezone.now()
    day = current_gaming_day(casino, now)
    report = DailyReport.objects.filter(casino=casino, gaming_day=day, provisional=True).first()
    if provisional_fresh(report, now):
        return report
    with suppress(ValidationError):
        provisional_request(casino=casino, requested_by=requested_by, via="page open", now=now)
    # Read again: without a broker the run has already happened, at the request's commit.
    return DailyReport.objects.select_related("casino").get(casino=casino, gaming_day=day, provisional=True)


def _run_request(
    *, casino: Casino, gaming_day: date, provisional: bool, requested_by, via: str, full: bool, now
) -> DailyReport:
    start, end = selectors.day_bounds(casino, gaming_day)
    report, _ = DailyReport.objects.get_or_create(
        casino=casino, gaming_day=gaming_day, provisional=provisional
    )
    report = DailyReport.objects.select_for_update().get(pk=report.pk)
    busy = report.status in (DailyReport.QUEUED, DailyReport.RUNNING) and report.runs
    if busy and not run_is_stale(report, now):
        silent = int((now - run_last_progress(report)).total_seconds())
        raise ValidationError(
            {
                "gaming_day": [
                    f"The {'provisional ' if provisional else ''}reconciliation of {gaming_day} is "
                    f"already {report.status} ({report.progress}% done, last progress {silent} s "
                    "ago); wait for it to finish, or retry once it has made no progress for "
                    f"{int(stale_after().total_seconds())} s"
                ]
            }
        )
    report.run_id = uuid.uuid4()
    report.status = DailyReport.QUEUED
    report.runs += 1
    report.chunks_total = report.chunks_done = 0
    report.error = ""
    report.requested_by = requested_by
    report.requested_via = via
    report.queued_at, report.started_at, report.finished_at = now, None, None
    report.heartbeat_at = now
    report.period_start, report.period_end = start, end
    report.save()
    if not report.provisional:  # a done day re-run leaves its month's sums until it is done again
        month_lines_refresh(report.casino_id, report.gaming_day)
    _enqueue(report, full)
    return report


def _owned(report_id: int, run_id: str, *, lock: bool = False) -> DailyReport | None:
    qs = DailyReport.objects.select_for_update() if lock else DailyReport.objects
    report = qs.filter(pk=report_id).select_related("casino").first()
    if report is None or str(report.run_id) != str(run_id) or report.status == DailyReport.FAILED:
        return None
    return report


@transaction.atomic
def report_plan(*, report_id: int, run_id: str) -> list[int]:
    """Split the day's rounds into slices of consecutive ids; return the ids of the slices to run.

    Delivered again (its worker died after planning): the run's slices not yet done.
    """
    report = _owned(report_id, run_id, lock=True)
    if report is None or report.status == DailyReport.DONE:  # replaced, failed, or finished
        return []
    planned = ReportChunk.objects.filter(report=report, run_id=report.run_id)
    if planned.exists():  # delivered again
        run_heartbeat(report_id, run_id, "plan")
        return list(planned.filter(done=False).values_list("pk", flat=True))
    start, end = selectors.day_bounds(report.casino, report.gaming_day)
    read_at = timezone.now()  # a provisional report's "as of": the rounds read from here on
    ids = list(
        selectors.day_rounds(report.casino, report.gaming_day)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    size = chunk_rounds()
    chunks = [
        ReportChunk(
            report=report,
            run_id=report.run_id,
            index=i // size,
            first_round=ids[i],
            last_round=ids[min(i + size, len(ids)) - 1],
            rounds=min(size, len(ids) - i),
        )
        for i in range(0, len(ids), size)
    ]
    ReportChunk.objects.filter(report=report).exclude(run_id=report.run_id).delete()
    ReportChunk.objects.bulk_create(chunks)
    report.status = DailyReport.RUNNING
    report.started_at = read_at
    report.period_start, report.period_end = start, end
    report.chunks_total, report.chunks_done = len(chunks), 0
    report.save(
        update_fields=[
            "status",
            "started_at",
            "period_start",
            "period_end",
            "chunks_total",
            "chunks_done",
        ]
    )
    run_heartbeat(report_id, run_id, "plan")
    return list(planned.values_list("pk", flat=True))


def slice_attempts_allowed() -> int:
    return int(getattr(settings, "REPORTS_SLICE_ATTEMPTS", 3))


@contextmanager
def _slice_lock(chunk_id: int):
    """One execution of a slice at a time (a redelivered task may meet the one still running).

    A PostgreSQL session advisory lock: released when the slice ends, or when its worker dies
    and its connection closes. The second execution waits, then finds the slice done. SQLite
    (the quick start) runs tasks one at a time in-process and needs none.
    """
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", [_SLICE_LOCK_SPACE, chunk_id])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [_SLICE_LOCK_SPACE, chunk_id])


_SLICE_LOCK_SPACE = 0x5E1C  # the advisory-lock key space of report slices


def _combine_when_complete(report: DailyReport) -> None:
    """The run's last slice is done: start the combine step once this transaction commits."""
    if report.status == DailyReport.RUNNING and report.chunks_done >= report.chunks_total:
        _enqueue_combine(report.pk, str(report.run_id))


def report_chunk_run(*, chunk_id: int, full: bool = False) -> bool:
    """Re-audit one slice, then aggregate it in SQL; False when its run was replaced or failed.

    Safe to deliver twice: a slice already done is skipped (and completes the run if its
    first delivery died before starting the combine step), and a slice is never run twice
    at once. The slice that completes the run starts the combine step.
    """
    chunk = ReportChunk.objects.filter(pk=chunk_id).first()
    if chunk is None or _owned(chunk.report_id, chunk.run_id) is None:
        return False
    run_id = str(chunk.run_id)
    if chunk.done:  # delivered again (acks_late): the work is already saved
        with transaction.atomic():
            report = _owned(chunk.report_id, run_id, lock=True)
            if report is not None:
                _combine_when_complete(report)
        return True
    ReportChunk.objects.filter(pk=chunk.pk).update(attempts=F("attempts") + 1)
    chunk.refresh_from_db(fields=["attempts"])
    if chunk.attempts > slice_attempts_allowed():
        report_fail(
            report_id=chunk.report_id,
            run_id=run_id,
            error=f"slice {chunk.index} (rounds {chunk.first_round}-{chunk.last_round}) was "
            f"started {chunk.attempts} times without finishing: the worker running it died each "
            "time (killed, out of memory?); see the workers' log, then retry the run",
        )
        return False
    run_heartbeat(chunk.report_id, run_id, "slice")
    with _slice_lock(chunk.pk):
        chunk.refresh_from_db(fields=["done"])
        if chunk.done:  # the other delivery finished it while this one waited
            return True
        return _chunk_run(chunk, full)


def _chunk_run(chunk: ReportChunk, full: bool) -> bool:
    report = chunk.report
    started = time.perf_counter()
    ids = selectors.slice_reaudit_ids(
        casino=report.casino,
        gaming_day=report.gaming_day,
        first=chunk.first_round,
        last=chunk.last_round,
        full=full,
    )
    # The slice's rounds, decoded and parsed, and their prices are alive until it ends: the cycle
    # collector would walk them again and again (casino/collector.py).
    with collector_paused():
        reaudit = rounds_reaudit(round_ids=ids, full=full, gaming_day=report.gaming_day)
    partial = selectors.slice_aggregates(
        casino=report.casino,
        gaming_day=report.gaming_day,
        first=chunk.first_round,
        last=chunk.last_round,
    )
    partial["reaudit"] = {
        "replayed": reaudit.replayed,
        "new_findings": reaudit.new_findings,
        "settlement_changed": reaudit.settlement_changed,
        "errors": reaudit.errors,
    }
    with transaction.atomic():
        report = _owned(chunk.report_id, chunk.run_id, lock=True)
        if report is None:
            return False
        updated = ReportChunk.objects.filter(pk=chunk.pk, done=False).update(
            done=True, partial=partial, seconds=time.perf_counter() - started
        )
        if updated:
            report.chunks_done += 1
            DailyReport.objects.filter(pk=report.pk).update(chunks_done=report.chunks_done)
            run_heartbeat(report.pk, str(report.run_id), "slice")
            _combine_when_complete(report)
    return True


def report_combine(*, report_id: int, run_id: str) -> DailyReport | None:
    """Add the slices up, replace the report's lines atomically, write the files."""
    report = _owned(report_id, run_id)
    if report is None or report.status == DailyReport.DONE:  # replaced, failed, or delivered again
        return report
    chunks = list(ReportChunk.objects.filter(report=report, run_id=run_id))
    missing = [c.index for c in chunks if not c.done]
    if missing:  # not the last slice's call: that slice starts this step when it is done
        log.warning("report %s run %s: combine before slices %s were done", report_id, run_id, missing)
        return None
    run_heartbeat(report_id, run_id, "combine")
    combined = combine_partials([c.partial for c in chunks])
    # The decisions' prices of the rounds the run planned (a provisional run's later rounds wait
    # for its next refresh, as their theo does), and how many of them the pricing had not reached.
    through_round = max((c.last_round for c in chunks), default=0)
    decisions = combined["decisions"]
    if decisions is None:  # a slice met a round still queued (combine_partials)
        decisions = table_games(report.casino_id, report.gaming_day, through_round)
    decisions_pending = pending_rounds(report.casino_id, report.gaming_day, through_round)
    lines, wager_lines, dealer_rows, facts = build_lines(report, combined, decisions)
    reaudit = {"replayed": 0, "new_findings": 0, "settlement_changed": [], "errors": []}
    for c in chunks:
        part = c.partial.get("reaudit", {})
        for key in ("replayed", "new_findings"):
            reaudit[key] += part.get(key, 0)
        for key in ("settlement_changed", "errors"):
            reaudit[key] += part.get(key, [])
    liability = liability_for_day(report.casino, report.gaming_day)
    with transaction.atomic():
        report = _owned(report_id, run_id, lock=True)
        if report is None:
            return None
        for line in lines:
            line.report = report
            if line.level == "floor" and liability.available:
                line.liability_opening, line.liability_closing = (
                    liability.opening,
                    liability.closing,
                )
        for line in (*wager_lines, *dealer_rows):
            line.report = report
        ReportLine.objects.filter(report=report).delete()
        ReportWagerLine.objects.filter(report=report).delete()
        DealerLine.objects.filter(report=report).delete()
        ReportLine.objects.bulk_create(lines)
        ReportWagerLine.objects.bulk_create(wager_lines)
        DealerLine.objects.bulk_create(dealer_rows)
        # Only a final report raises them: a provisional day has no signed count, hence no difference.
        raised = [] if report.provisional else unexplained_findings_raise(report, facts["complete_tables"])
        report.summary = {
            "bases": facts["bases"],
            "cash": {**facts["cash"], "findings_raised": len(raised)},
            "pays": facts["pays"],
            "reaudit": {
                **reaudit,
                "settlement_changed_count": len(reaudit["settlement_changed"]),
                "settlement_changed": reaudit["settlement_changed"][:200],
                "errors": reaudit["errors"][:50],
                "engine_version": ENGINE_VERSION,
            },
            "liability": liability.as_dict(),
            "decisions": {"pending": decisions_pending, "seats": sum(f.seats for f in decisions.values())},
            "chunks": [
                {"index": c.index, "rounds": c.rounds, "seconds": round(c.seconds or 0, 3)}
                for c in chunks
            ],
            "definitions": "audit/reports/README.md",
        }
        report.engine_version = ENGINE_VERSION
        if report.provisional:  # a head vouches for a whole day: only the final report has one
            report.chain_head, report.summary["chains"] = "", 0
            problem = PROVISIONAL_NO_HEAD
        else:
            report.chain_head, report.summary["chains"], problem = _day_chain_head(report)
        if problem:
            report.summary["chain_problem"] = problem
        report.save(update_fields=["summary", "engine_version", "chain_head"])
    try:
        files = report_files_write(report)
    except Exception as exc:  # noqa: BLE001 - a file that cannot be written fails the run, with the reason
        log.exception("report files for %s", report)
        report_fail(report_id=report_id, run_id=run_id, error=f"writing the files failed: {exc}")
        return None
    with transaction.atomic():
        report = _owned(report_id, run_id, lock=True)
        if report is None:
            return None
        report.files = files
        report.status = DailyReport.DONE
        report.chunks_done = report.chunks_total
        report.finished_at = timezone.now()
        report.save(update_fields=["files", "status", "chunks_done", "finished_at"])
        ReportChunk.objects.filter(report=report).exclude(run_id=report.run_id).delete()
        if not report.provisional:
            month_lines_refresh(report.casino_id, report.gaming_day)
            replaced = _provisional_replace(report)
            transaction.on_commit(lambda: _files_remove(replaced))
        done = report
        transaction.on_commit(lambda: report_finished.send(sender=DailyReport, report=done))
    return report


PROVISIONAL_NO_HEAD = (
    "Provisional report: no chain head; the final report prints the day's head once the day "
    "has ended"
)


def _provisional_replace(final: DailyReport) -> list[str]:
    """The day's final report is done: its provisional report goes (lines, slices and all).

    Returns the provisional files to remove once this transaction has committed."""
    stale = list(
        DailyReport.objects.select_for_update().filter(
            casino_id=final.casino_id, gaming_day=final.gaming_day, provisional=True
        )
    )
    files = [rel for report in stale for rel in (report.files or {}).values()]
    DailyReport.objects.filter(pk__in=[r.pk for r in stale]).delete()
    return files


def _files_remove(relative_paths: list[str]) -> None:
    root = reports_root().resolve()
    for rel in relative_paths:
        path = (root / rel).resolve()
        if root in path.parents:
            path.unlink(missing_ok=True)


@transaction.atomic
def report_fail(*, report_id: int, run_id: str, error: str) -> None:
    """Mark the run failed with its reason (it can be retried from the page, the API or the command)."""
    report = DailyReport.objects.select_for_update().filter(pk=report_id).first()
    if report is None or str(report.run_id) != str(run_id):
        return
    report.status = DailyReport.FAILED
    report.error = error[:4000]
    report.finished_at = timezone.now()
    report.save(update_fields=["status", "error", "finished_at"])
    if not report.provisional:  # the run is checked, not its status: a done day that fails leaves its month
        month_lines_refresh(report.casino_id, report.gaming_day)


def gaming_days_close(*, now=None, catch_up_days: int | None = None) -> list[DailyReport]:
    """Beat: for every casino, start the reconciliation of the gaming days that ended and have none.

    The gaming day comes from each casino's zone and start hour, so the schedule itself is a
    plain UTC interval. Days already reported (in any state) are left alone: a failed run is
    retried by a person, who sees why it failed.
    """
    now = now or timezone.now()
    delay = timedelta(minutes=int(getattr(settings, "REPORTS_CLOSE_DELAY_MINUTES", 10)))
    days_back = (
        catch_up_days
        if catch_up_days is not None
        else int(getattr(settings, "REPORTS_CATCH_UP_DAYS", 3))
    )
    started = []
    for casino in Casino.objects.all():
        today = gaming_day_of(now, casino.time_zone, casino.gaming_day_start_hour)
        for back in range(1, days_back + 1):
            day = today - timedelta(days=back)
            _, end = selectors.day_bounds(casino, day)
            if (
                end + delay > now
                or DailyReport.objects.filter(
                    casino=casino, gaming_day=day, provisional=False
                ).exists()
            ):
                continue
            try:
                started.append(report_request(casino=casino, gaming_day=day, via="beat", now=now))
            except ValidationError as exc:  # a run started by someone else in the meantime
                log.info("gaming day close %s %s: %s", casino, day, exc)
    return started


def count_signed_rerun(*, casino, gaming_day, signature=None, **_) -> DailyReport | None:
    """A count was signed for a day whose final report is done: re-run it, queued as the page's
    and the API's re-run is, so that its cash figures follow the count. A day without a finished
    final report is left alone (beat builds it, or its running run reads the count when it
    combines); a run already going is not disturbed."""
    report = DailyReport.objects.filter(casino=casino, gaming_day=gaming_day, provisional=False).first()
    if report is None or report.status != DailyReport.DONE:
        return None
    author = getattr(signature, "signed_by", None)
    try:
        return report_request(casino=casino, gaming_day=gaming_day, requested_by=author, via="count signed")
    except ValidationError as exc:
        log.info("re-run after the count of %s %s: %s", casino, gaming_day, exc)
        return None
    except Exception:  # noqa: BLE001 - the count is committed: its signer must not get an error for the report
        log.exception("re-run after the count of %s %s failed to start; re-run it from the page", casino, gaming_day)
        return None


def provisional_reports_refresh(*, now=None) -> list[DailyReport]:
    """Beat: refresh every casino's "today so far" report (``REPORTS_PROVISIONAL_MINUTES``).

    A casino whose refresh is still running is left to it (the next beat tries again)."""
    started = []
    for casino in Casino.objects.all():
        try:
            started.append(provisional_request(casino=casino, via="beat", now=now))
        except ValidationError as exc:
            log.info("provisional report %s: %s", casino, exc)
    return started
