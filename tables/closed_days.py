"""Closed means closed: the one check every service that writes a gaming day's records calls.

The check and the close meet on a PostgreSQL advisory lock per casino and gaming day: a writer
holds it shared until its transaction ends, a close or a reopen exclusive. So a close never
commits between a writer's check and the writer's commit: the write lands before the close (and
the close sees it) or is refused after it.

The writers (the rounds and sessions, the accounting services, compliance) sit below the close
(tables.closing reads their drops and counts to close a day), so the check lives beneath both.
It reads closing's tables through the app registry: importing tables.closing.models would tie
this module, and every writer, to the close above them.
"""

from __future__ import annotations

from datetime import date

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import connection

from casino.prepared import PREPARED

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


def closed_day_message(gaming_day: date) -> str:
    return f"gaming day {gaming_day} is closed; a gaming manager reopens it with a reason"


def _closed_sql() -> str:
    close = apps.get_model("closing", "DayClose")._meta.db_table  # identifiers from the models
    reopen = apps.get_model("closing", "DayReopen")._meta.db_table
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
        closed = apps.get_model("closing", "DayClose").objects.filter(
            casino_id=casino_id, gaming_day=gaming_day, reopen__isnull=True).exists()
    if closed:
        raise ValidationError({field: [closed_day_message(gaming_day)]})
