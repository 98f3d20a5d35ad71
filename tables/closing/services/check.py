"""Closed means closed: the one check every service that writes a gaming day's records calls.

The check and the close meet on a PostgreSQL advisory lock per casino and gaming day: a writer
holds it shared until its transaction ends, a close or a reopen exclusive. So a close never
commits between a writer's check and the writer's commit: the write lands before the close (and
the close sees it) or is refused after it.
"""

from __future__ import annotations

from datetime import date

from django.core.exceptions import ValidationError
from django.db import connection

from casino.prepared import PREPARED
from tables.closing.models import DayClose, DayReopen

#: The advisory-lock key space of gaming days (casino/reports use their own spaces).
_DAY_LOCK_SPACE = 0x7C1


def _day_key(casino_id: int, gaming_day: date) -> int:
    # One bigint: the space, the casino (28 bits) and the day's ordinal (20 bits: to year 2870).
    return (_DAY_LOCK_SPACE << 48) | (int(casino_id) << 20) | gaming_day.toordinal()


def day_lock(casino_id: int, gaming_day: date, *, exclusive: bool = False) -> None:
    """Hold the day's lock until the transaction ends (inside atomic())."""
    if connection.vendor != "postgresql":
        return
    function = "pg_advisory_xact_lock" if exclusive else "pg_advisory_xact_lock_shared"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {function}(%s)", [_day_key(casino_id, gaming_day)])


def day_close_current(casino_id: int, gaming_day: date) -> DayClose | None:
    """The close that stands (no reopen after it), if the day is closed."""
    return (DayClose.objects.filter(casino_id=casino_id, gaming_day=gaming_day, reopen__isnull=True)
            .order_by("-closed_at").first())


def closed_day_message(gaming_day: date) -> str:
    return f"gaming day {gaming_day} is closed; a gaming manager reopens it with a reason"


def _closed_sql() -> str:
    close, reopen = DayClose._meta.db_table, DayReopen._meta.db_table  # identifiers from the models
    return (f"SELECT EXISTS (SELECT 1 FROM {close} c WHERE c.casino_id = %s AND c.gaming_day = %s "  # noqa: S608
            f"AND NOT EXISTS (SELECT 1 FROM {reopen} r WHERE r.close_id = c.id))")


def refuse_closed_day(casino_id: int, gaming_day: date | None, *, field: str = "gaming_day") -> None:
    """Refuse, naming ``field``, a write to a record of a closed gaming day. Call it inside the
    writer's transaction, before it writes. One round trip (the recorder's hot path): the lock
    and the question in one statement."""
    if gaming_day is None:
        return
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # Prepared: a key lookup, asked at every recorded round (casino/prepared.py).
            cursor.execute(f"{PREPARED}SELECT pg_advisory_xact_lock_shared(%s), ({_closed_sql()})",
                           [_day_key(casino_id, gaming_day), casino_id, gaming_day])
            closed = cursor.fetchone()[1]
    else:
        closed = day_close_current(casino_id, gaming_day) is not None
    if closed:
        raise ValidationError({field: [closed_day_message(gaming_day)]})
