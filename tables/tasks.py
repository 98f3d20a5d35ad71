"""Celery tasks of the floor app (discovered by casino/celery.py)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from tables.history.partitions import ensure_months, next_month

log = logging.getLogger(__name__)


@shared_task(name="history.partitions_ahead", ignore_result=True)
def history_partitions_ahead(ahead: int | None = None) -> list[str]:
    """Make the next months' partitions (tables/history/partitions.py). Creating a table is
    DDL, which only the tables' owner may do: the app role's worker gets a clear warning,
    and the owner's daily cron (``manage.py history_partitions --ahead 12``) does the work
    in production (deploy/README.md, "Partitions and retention")."""
    today = timezone.now().date()
    last = today
    for _ in range(settings.HISTORY_PARTITIONS_AHEAD if ahead is None else ahead):
        last = next_month(last.replace(day=1))
    try:
        return ensure_months(today, last)
    except DatabaseError as exc:
        log.warning("history partitions not created (%s): this connection's role cannot create tables; the "
                    "owner's cron must run `manage.py history_partitions --ahead N` (deploy/README.md)", exc)
        return []
