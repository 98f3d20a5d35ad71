"""Queueing Celery tasks through an outbox: a broker outage never half-saves a change.

A change that needs a task (a report run requested, a run's last slice done, a final report
that wants its fluctuation check) writes the task as a row (:class:`casino.models.OutboxTask`)
in its own transaction, with :func:`task_enqueue`. Once that transaction commits the row is
sent to the broker and deleted. When the broker cannot take it (Redis down) the change stays
committed, the caller gets its ordinary answer, the row waits, and the beat's
``casino.outbox_drain`` (every ``OUTBOX_DRAIN_SECONDS``) sends it as soon as the broker is
back. Sending right after ``.delay()``'s commit instead (what ``transaction.on_commit(.delay)``
did) raised after the commit: the request answered 500 while its change was saved, and the
task was lost.

A row may be sent twice (its sender died between the broker's answer and the row's delete, or
took longer than ``DRAIN_GRACE`` while a drain ran): every task queued this way is safe to run
twice, as every task here must be (acks_late redelivers too).

Without a broker (the quick start: tasks run eagerly, in-process) the row is deleted and the
task run right after the commit, its errors the caller's, as ``.delay()`` did.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import DatabaseError, transaction
from django.utils import timezone

from casino.celery import app
from casino.models import OutboxTask

log = logging.getLogger(__name__)

#: A row younger than this is left to the commit that wrote it (it may be sending right now).
DRAIN_GRACE = timedelta(seconds=5)
#: Publishing right after a commit: one quick retry (a pooled connection that Redis closed),
#: then the row waits for the drain rather than keep the caller waiting.
_PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}


def task_enqueue(task, *args, **kwargs) -> OutboxTask:
    """Queue ``task(*args, **kwargs)`` (a task, or its registered name: a service queues its own
    task by name without importing the tasks module that imports it): written in the caller's
    transaction, sent once it commits.

    Arguments must be JSON (ids, strings, booleans), as the broker's serializer requires anyway.
    Outside a transaction the row is written and sent at once.
    """
    name = task if isinstance(task, str) else task.name
    row = OutboxTask.objects.create(task=name, args=list(args), kwargs=kwargs, created_at=timezone.now())
    transaction.on_commit(lambda: _send_committed(row))
    return row


def _send_committed(row: OutboxTask) -> None:
    if app.conf.task_always_eager:  # no broker to be down: the task runs here, its errors the caller's
        OutboxTask.objects.filter(pk=row.pk).delete()
        app.tasks[row.task].apply_async(args=row.args, kwargs=row.kwargs)
        return
    if not _publish(row):
        return
    try:
        OutboxTask.objects.filter(pk=row.pk).delete()
    except DatabaseError:  # sent, but still in the outbox: the drain sends it again, which is safe
        log.warning("outbox: task %s %s sent, but its row %s was not deleted", row.task, row.args, row.pk,
                    exc_info=True)


def _publish(row: OutboxTask) -> bool:
    """Hand ``row``'s task to the broker; False (logged, the row's attempt counted) when it cannot."""
    try:
        app.tasks[row.task].apply_async(args=row.args, kwargs=row.kwargs, retry=True,
                                        retry_policy=_PUBLISH_RETRY)
    except Exception as exc:  # noqa: BLE001 - the change is committed; the row waits for the drain
        error = f"{type(exc).__name__}: {exc}"[:500]
        log.warning("outbox: the broker did not take task %s %s (%s); it waits in the outbox (row %s) "
                    "and beat's casino.outbox_drain sends it when the broker is back", row.task, row.args,
                    error, row.pk)
        try:
            OutboxTask.objects.filter(pk=row.pk).update(attempts=row.attempts + 1, last_error=error)
        except DatabaseError:
            log.warning("outbox: could not count the attempt on row %s", row.pk, exc_info=True)
        return False
    return True


def outbox_drain(*, limit: int = 500, now=None) -> int:
    """Send the waiting tasks, oldest first; the number sent. Stops at the first the broker refuses.

    Rows are locked (``SKIP LOCKED``) so two drains never send one row at once.
    """
    cutoff = (now or timezone.now()) - DRAIN_GRACE
    sent = 0
    with transaction.atomic():
        rows = list(OutboxTask.objects.select_for_update(skip_locked=True)
                    .filter(created_at__lte=cutoff).order_by("pk")[:limit])
        for row in rows:
            if not _publish(row):
                break
            row.delete()
            sent += 1
    if sent:
        log.info("outbox: sent %s waiting task(s)", sent)
    return sent


def outbox_waiting() -> tuple[int, float | None]:
    """How many tasks wait in the outbox, and the oldest one's age in seconds (None: none wait)."""
    oldest = OutboxTask.objects.order_by("created_at").values_list("created_at", flat=True).first()
    if oldest is None:
        return 0, None
    return OutboxTask.objects.count(), (timezone.now() - oldest).total_seconds()
