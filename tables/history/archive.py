"""Retention of the partitioned history (issue #20): a closed month is detached to the
``archive`` schema (optionally a cheaper tablespace), attached back for an investigation, and
dropped only once it is older than ``HISTORY_RETENTION_YEARS``. Each step is one transaction
run by the tables' owner and leaves a :class:`~tables.models.HistoryArchiveEvent` row.

A detached month is out of every page, report and API (they read the parents), and out of
the app role's reach (it has no grant on the archive schema). Its rows keep their guards
there (installed on each archived table) and their chain links: ``audit_verify`` run by the
owner counts the links whose rows are archived instead of calling them missing.
"""

from __future__ import annotations

import getpass
import json
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connections, transaction
from django.utils import timezone

from casino.audit_guard import RULES, trigger_sql
from tables.closing.services.check import day_close_current
from tables.history.partitions import (
    TABLES,
    bounds,
    is_partitioned,
    month_keys,
    month_start,
    next_month,
    partition_name,
    suffix,
)
from tables.models import HistoryArchiveEvent

SCHEMA = "archive"


@dataclass(frozen=True)
class MonthState:
    month: date
    rows: int  # the month's rounds
    archived: bool
    closed: bool
    open_days: list[str]  # "casino day" of the days with rounds not closed (first few)
    past_retention: bool


def retention_end(today: date | None = None) -> date:
    """Months that end on or before this day are past the retention period."""
    today = today or timezone.now().date()
    years = settings.HISTORY_RETENTION_YEARS
    try:
        return today.replace(year=today.year - years)
    except ValueError:  # 29 February
        return today.replace(year=today.year - years, day=28)


def _where(cursor, name: str) -> str | None:
    cursor.execute("SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                   "WHERE c.relname = %s AND n.nspname IN ('public', %s)", [name, SCHEMA])
    row = cursor.fetchone()
    return row[0] if row else None


def _count(cursor, qualified: str) -> int:
    cursor.execute(f"SELECT count(*) FROM {qualified}")  # noqa: S608 - a catalogue name
    return cursor.fetchone()[0]


def _open_days(cursor, month: date) -> list[str]:
    """The (casino, gaming day)s of the month's rounds whose day has no current close."""
    cursor.execute("SELECT DISTINCT p.casino_id, r.gaming_day FROM tables_round r JOIN tables_table t "
                   "ON t.id = r.table_id JOIN tables_pit p ON p.id = t.pit_id "
                   "WHERE r.gaming_day >= %s AND r.gaming_day < %s ORDER BY 2, 1", [month, next_month(month)])
    return [f"casino {casino} {day}" for casino, day in cursor.fetchall() if day_close_current(casino, day) is None]


def month_states(*, using: str = "default") -> list[MonthState]:
    """Every month with partitions, attached or archived, oldest first."""
    connection = connections[using]
    if not is_partitioned(connection):
        return []
    today = timezone.now().date()
    end = retention_end(today)
    out = []
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                       "WHERE c.relname ~ '^tables_round_y[0-9]{4}m[0-9]{2}$' AND n.nspname IN ('public', %s) "
                       "ORDER BY 1", [SCHEMA])
        for name, schema in cursor.fetchall():
            month = date(int(name[-7:-3]), int(name[-2:]), 1)
            archived = schema == SCHEMA
            opened = [] if archived else _open_days(cursor, month)
            out.append(MonthState(month, _count(cursor, f"{schema}.{name}"), archived,
                                  month < month_start(today) and not opened, opened[:5],
                                  next_month(month) <= end))
    return out


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": ["Archiving, attaching or dropping a month needs a reason; it is kept"]})
    return reason


def _log(cursor, action: str, month: date, reason: str, moved: dict, tablespace: str = "") -> HistoryArchiveEvent:
    cursor.execute("SELECT current_user")
    who = f"{getpass.getuser()} as {cursor.fetchone()[0]}"
    return HistoryArchiveEvent.objects.create(action=action, month=month, reason=reason, performed_by=who,
                                              performed_at=timezone.now(), tablespace=tablespace, partitions=moved)


def _guard_archived(cursor, name: str, table: str, *, on: bool) -> None:
    """Archived tables keep the append-only rules of their parent (PostgreSQL drops a partition's
    cloned guard when it is detached); attached again, the parent's guard covers them."""
    qualified, trigger = f"{SCHEMA}.{name}", f"{name}_guard"
    if not on:
        cursor.execute(f"DROP TRIGGER IF EXISTS {trigger} ON {qualified}")
        return
    rule = RULES.get(table)
    sql = trigger_sql(qualified, "casino_guard_change" if rule is not None else "casino_refuse_change",
                      None if rule is None else json.dumps(rule, sort_keys=True))
    cursor.execute(sql.replace(f"{qualified}_guard", trigger))


def _move_tablespace(cursor, qualified: str, tablespace: str) -> None:
    cursor.execute(f'ALTER TABLE {qualified} SET TABLESPACE "{tablespace}"')
    cursor.execute("SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = %s::regclass", [qualified])
    for (index,) in cursor.fetchall():
        cursor.execute(f'ALTER INDEX {index} SET TABLESPACE "{tablespace}"')


def detach(month: date, *, reason: str, tablespace: str = "", using: str = "default") -> HistoryArchiveEvent:
    """Move ``month``'s partitions (children first) to the archive schema. Refused: no reason,
    the current or a later month, a month with a gaming day not closed, one not attached."""
    reason = _require_reason(reason)
    month = month_start(month)
    connection = connections[using]
    if not is_partitioned(connection):
        raise ValidationError({"month": ["This database is not partitioned (PostgreSQL only)"]})
    if month >= month_start(timezone.now().date()):
        raise ValidationError({"month": [f"{month:%Y-%m} is the current month or later: only a closed month "
                                         "is archived"]})
    moved = {}
    with transaction.atomic(using=using), connection.cursor() as cursor:
        for t in TABLES:
            if _where(cursor, partition_name(t.table, month)) != "public":
                raise ValidationError({"month": [f"{month:%Y-%m} has no attached partition of {t.table}"]})
        opened = _open_days(cursor, month)
        if opened:
            raise ValidationError({"month": [f"{month:%Y-%m} is not closed: {len(opened)} gaming day(s) with "
                                             f"rounds have no close ({', '.join(opened[:5])})"]})
        cursor.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}")
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending checks may block ALTER TABLE
        for t in reversed(TABLES):
            name = partition_name(t.table, month)
            # The month's keys go with it: they tie its partitions to each other only.
            cursor.execute(f"ALTER TABLE {t.table} DETACH PARTITION {name}")
            cursor.execute(f"ALTER TABLE {name} SET SCHEMA {SCHEMA}")
            if tablespace:
                _move_tablespace(cursor, f"{SCHEMA}.{name}", tablespace)
            _guard_archived(cursor, name, t.table, on=True)
            moved[name] = _count(cursor, f"{SCHEMA}.{name}")
        return _log(cursor, HistoryArchiveEvent.DETACH, month, reason, moved, tablespace)


def attach(month: date, *, reason: str, using: str = "default") -> HistoryArchiveEvent:
    """Bring an archived month back (parents first): queryable again, every key checked."""
    reason = _require_reason(reason)
    month = month_start(month)
    connection = connections[using]
    moved = {}
    with transaction.atomic(using=using), connection.cursor() as cursor:
        for t in TABLES:
            if _where(cursor, partition_name(t.table, month)) != SCHEMA:
                raise ValidationError({"month": [f"{month:%Y-%m} has no archived partition of {t.table}"]})
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for t in TABLES:
            name = partition_name(t.table, month)
            _guard_archived(cursor, name, t.table, on=False)
            cursor.execute("SELECT t.spcname FROM pg_class c LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace "
                           "WHERE c.oid = %s::regclass", [f"{SCHEMA}.{name}"])
            if cursor.fetchone()[0]:
                _move_tablespace(cursor, f"{SCHEMA}.{name}", "pg_default")
            cursor.execute(f"ALTER TABLE {SCHEMA}.{name} SET SCHEMA public")
            cursor.execute(f"ALTER TABLE {t.table} ATTACH PARTITION {name} FOR VALUES {bounds(month)}")
            moved[name] = _count(cursor, name)
        # A month archived before the keys were made by month lost them on the way out.
        month_keys(cursor, suffix(month))
        return _log(cursor, HistoryArchiveEvent.ATTACH, month, reason, moved)


def drop(month: date, *, reason: str, using: str = "default") -> HistoryArchiveEvent:
    """Drop an archived month for good: only one past the retention period (its dump is the
    copy kept, deploy/README.md)."""
    reason = _require_reason(reason)
    month = month_start(month)
    end = retention_end()
    if next_month(month) > end:
        raise ValidationError({"month": [
            f"{month:%Y-%m} is younger than the retention period of {settings.HISTORY_RETENTION_YEARS} years "
            f"(months ending on or before {end} may be dropped)"]})
    connection = connections[using]
    moved = {}
    with transaction.atomic(using=using), connection.cursor() as cursor:
        for t in TABLES:
            if _where(cursor, partition_name(t.table, month)) != SCHEMA:
                raise ValidationError({"month": [f"{month:%Y-%m} is not archived ({t.table}): detach it first"]})
        for t in reversed(TABLES):
            name = partition_name(t.table, month)
            moved[name] = _count(cursor, f"{SCHEMA}.{name}")
            cursor.execute(f"DROP TABLE {SCHEMA}.{name}")
        return _log(cursor, HistoryArchiveEvent.DROP, month, reason, moved)


#: What a chain link's ref is the id of, by kind (tables/chain.py).
_LINKED = {"revision": ("tables_roundrevision", "id"), "finding": ("audit_finding", "id"),
           "status": ("audit_historicalfinding", "history_id"), "void": ("tables_round", "id")}


def archived_refs(kind: str, refs, *, using: str = "default") -> set | None:
    """Which of ``refs`` (ids a chain link covers) sit in an archived month: the verifier
    cannot check them, nor are they missing. None when the archive cannot be read (the app
    role has no grant on it: run audit_verify as the owner)."""
    if kind not in _LINKED or not refs:
        return set()
    connection = connections[using]
    if connection.vendor != "postgresql":
        return set()
    table, key = _LINKED[kind]
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                       "WHERE n.nspname = %s AND c.relname ~ %s", [SCHEMA, f"^{table}_y[0-9]{{4}}m[0-9]{{2}}$"])
        names = [r[0] for r in cursor.fetchall()]
        if not names:
            return set()
        cursor.execute("SELECT has_schema_privilege(%s, 'USAGE')", [SCHEMA])
        if not cursor.fetchone()[0]:
            return None
        found = set()
        for name in names:
            cursor.execute(f"SELECT {key} FROM {SCHEMA}.{name} WHERE {key} = ANY(%s)", [list(refs)])  # noqa: S608
            found |= {r[0] for r in cursor.fetchall()}
        return found
