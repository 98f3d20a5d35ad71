"""The tables that grow with play, partitioned by gaming day in PostgreSQL (issue #20).

Rounds, their history, revisions, wagers, findings and the findings' history are each
``PARTITION BY RANGE (gaming_day)`` with one partition a month (``<table>_yYYYYmMM``) and
a ``<table>_default`` partition for a day no month was made for. A child row carries its
round's gaming day; composite foreign keys ``(round_id, gaming_day)`` and
``(revision_id, gaming_day)`` tie it to its parent, which also proves the child's day is
its round's. The keys are made month by month, from each child partition to the same
month's partition of its parent (``tables_wager_y2027m11`` -> ``tables_roundrevision_y2027m11``,
defaults to defaults), not once on the partitioned tables: a row of a month can only have its
parent in that month, and PostgreSQL checks a key into a partitioned table through every
partition (a commit's checks took ten times as long with fourteen months, and grew with each
month kept), while a key into one month's table is one index probe, whatever the history. A primary key of a partitioned table must include the partition key: it is
``(id, gaming_day)`` (history tables ``(history_id, gaming_day)``), unique constraints are
extended by the day (``round_unique_sequence`` is thus unique per month partition only; the
recorder numbers a table's rounds from the table's counter, ``tables.models.RoundCounter``,
under the table's lock; docs/architecture.md, "Years of history").

Tables that are not partitioned and point at rounds or revisions (idempotency keys, jackpot
awards, ledger transactions, line configurations) carry no gaming day: a foreign key into a
partitioned table would need it. Their reference is checked by a constraint trigger
(:data:`REFERRER_TRIGGER`): the row referred to must exist when the referrer is written.
Rounds and revisions are never deleted (their guards refuse it), so that is what the
foreign key still gave.

SQLite (the quick start) has none of this: the columns are there, the tables are plain.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date

from django.db import connections, transaction
from django.utils import timezone

from casino.audit_guard import install_guards

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Partitioned:
    table: str
    key: str  # the primary key column besides gaming_day
    guard: str  # "append_only" or "guarded" (casino/audit_guard.py)


#: Parents before children: partitions are made (and attached) in this order and detached in
#: the reverse one (the composite foreign keys point up this list).
TABLES = (
    Partitioned("tables_round", "id", "guarded"),
    Partitioned("tables_historicalround", "history_id", "append_only"),
    Partitioned("tables_roundrevision", "id", "append_only"),
    Partitioned("tables_wager", "id", "append_only"),
    Partitioned("audit_finding", "id", "guarded"),
    Partitioned("audit_historicalfinding", "history_id", "append_only"),
)
TABLE_NAMES = tuple(t.table for t in TABLES)

#: (child, column, parent): composite foreign keys (column, gaming_day) -> parent (id, gaming_day),
#: made between the partitions of each month (:func:`month_keys`).
COMPOSITE_KEYS = (
    ("tables_roundrevision", "round_id", "tables_round"),
    ("tables_wager", "round_id", "tables_round"),
    ("tables_wager", "revision_id", "tables_roundrevision"),
    ("audit_finding", "round_id", "tables_round"),
    ("audit_finding", "revision_id", "tables_roundrevision"),
)

#: (referrer, column, partitioned table): checked by REFERRER_TRIGGER.
REFERRERS = (
    ("tables_idempotencykey", "round_id", "tables_round"),
    ("jackpots_jackpotaward", "round_id", "tables_round"),
    ("jackpots_jackpotaward", "revision_id", "tables_roundrevision"),
    ("jackpots_ledgertransaction", "round_id", "tables_round"),
    ("jackpots_ledgertransaction", "revision_id", "tables_roundrevision"),
    ("jackpots_jackpotlineconfig", "activated_by_round_id", "tables_round"),
)

def _referrer_function() -> str:
    """The reference trigger's function: one static statement per partitioned table referred to,
    so PL/pgSQL plans each once per connection. (Built with EXECUTE, a statement was planned at
    every row, through every month: 0.26 ms a key with 15 months, 1.8 to 4.5 ms with 99; static,
    0.05 and 0.13 ms. Without the day, a probe still visits each month's primary key.)"""
    # The table names are this module's constants.
    branches = "\n  ELS".join(
        f"IF TG_ARGV[1] = '{target}' THEN\n    found := EXISTS (SELECT 1 FROM {target} WHERE id = value::bigint);"  # noqa: S608
        for target in sorted({target for _, _, target in REFERRERS}))
    return f"""
CREATE OR REPLACE FUNCTION casino_row_exists() RETURNS trigger AS $$
DECLARE
  value text := to_jsonb(NEW)->>TG_ARGV[0];
  found boolean;
BEGIN
  IF value IS NULL OR (TG_OP = 'UPDATE' AND to_jsonb(OLD)->>TG_ARGV[0] IS NOT DISTINCT FROM value) THEN
    RETURN NULL;
  END IF;
  {branches}
  ELSE
    RAISE EXCEPTION 'casino_row_exists: no reference check for "%"', TG_ARGV[1];
  END IF;
  IF NOT found THEN
    RAISE EXCEPTION 'insert or update on table "%" violates the reference "%": % % is not present in "%"',
      TG_TABLE_NAME, TG_NAME, TG_ARGV[0], value, TG_ARGV[1] USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
"""


REFERRER_FUNCTION = _referrer_function()


def month_start(day: date) -> date:
    return day.replace(day=1)


def next_month(month: date) -> date:
    return date(month.year + month.month // 12, month.month % 12 + 1, 1)


def months(first: date, last: date) -> list[date]:
    """The first day of each month from ``first``'s to ``last``'s, both included."""
    out, month = [], month_start(first)
    while month <= last:
        out.append(month)
        month = next_month(month)
    return out


def partition_name(table: str, month: date) -> str:
    return f"{table}_y{month.year:04d}m{month.month:02d}"


def parse_month(text: str) -> date:
    """``YYYY-MM`` -> the month's first day (ValueError with a plain message otherwise)."""
    try:
        year, month = (int(p) for p in text.split("-"))
        return date(year, month, 1)
    except ValueError:
        raise ValueError(f"{text!r} is not a month: give YYYY-MM") from None


def is_partitioned(connection) -> bool:
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = 'tables_round'::regclass)")
        return cursor.fetchone()[0]


def _exists(cursor, name: str, schema: str = "public") -> bool:
    cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [f"{schema}.{name}"])
    return cursor.fetchone()[0]


def bounds(month: date) -> str:
    return f"FROM ('{month.isoformat()}') TO ('{next_month(month).isoformat()}')"


def _rows_in_default(cursor, month: date) -> dict[str, int]:
    counts = {}
    for t in TABLES:
        cursor.execute(f"SELECT count(*) FROM {t.table}_default WHERE gaming_day >= %s AND gaming_day < %s",  # noqa: S608
                       [month, next_month(month)])
        counts[t.table] = cursor.fetchone()[0]
    return {table: n for table, n in counts.items() if n}


def _create_month(cursor, month: date) -> list[str]:
    made = []
    for t in TABLES:
        name = partition_name(t.table, month)
        if not _exists(cursor, name):
            cursor.execute(f"CREATE TABLE {name} PARTITION OF {t.table} FOR VALUES {bounds(month)}")
            made.append(name)
    month_keys(cursor, suffix(month))
    return made


def suffix(month: date) -> str:
    """What a month's partition's name adds to its table's: ``y2027m11`` (the default's: ``default``)."""
    return partition_name("", month)[1:]


def month_key_name(child: str, column: str, part: str) -> str:
    return f"{child}_{part}_{column}_day_fk"


def month_keys(cursor, part: str) -> list[str]:
    """Give the attached partitions named ``part`` (a :func:`suffix`, or ``default``) the
    composite keys each lacks, from a child's partition to its parent's partition of the same
    month; the names made. Every row is checked as the key is added."""
    made = []
    for child, column, parent in COMPOSITE_KEYS:
        name = month_key_name(child, column, part)
        cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = %s AND conrelid = %s::regclass)",
                       [name, f"{child}_{part}"])
        if cursor.fetchone()[0]:
            continue
        cursor.execute(f"ALTER TABLE {child}_{part} ADD CONSTRAINT {name} FOREIGN KEY ({column}, gaming_day) "
                       f"REFERENCES {parent}_{part} (id, gaming_day) DEFERRABLE INITIALLY DEFERRED")
        made.append(name)
    return made


def attached_parts(cursor) -> list[str]:
    """The :func:`suffix` of every attached partition of rounds (every month, and the default)."""
    cursor.execute("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                   "WHERE i.inhparent = 'tables_round'::regclass ORDER BY 1")
    return [name.removeprefix("tables_round_") for (name,) in cursor.fetchall()]


def keys_by_month(cursor) -> None:
    """The composite keys moved from the partitioned tables to each month's partitions (the
    migration that introduced the keys by month; nothing to do on a database made after it)."""
    for child, column, _parent in COMPOSITE_KEYS:
        cursor.execute(f"ALTER TABLE {child} DROP CONSTRAINT IF EXISTS {child}_{column}_day_fk")
    for part in attached_parts(cursor):
        month_keys(cursor, part)


def keys_on_parents(cursor) -> None:
    """Backwards: the composite keys on the partitioned tables again, the months' dropped."""
    month_keys_drop(cursor)
    _parent_keys(cursor)


def month_keys_drop(cursor) -> None:
    """Drop the composite keys of every attached month (a step that must move a round's day
    before its rows follow: :func:`keys_by_month` puts them back, checking every row)."""
    for part in attached_parts(cursor):
        for child, column, _parent in COMPOSITE_KEYS:
            cursor.execute(f"ALTER TABLE {child}_{part} DROP CONSTRAINT IF EXISTS "
                           f"{month_key_name(child, column, part)}")


def _parent_keys(cursor) -> None:
    for child, column, parent in COMPOSITE_KEYS:
        cursor.execute(f"ALTER TABLE {child} ADD CONSTRAINT {child}_{column}_day_fk FOREIGN KEY "
                       f"({column}, gaming_day) REFERENCES {parent} (id, gaming_day) "
                       "DEFERRABLE INITIALLY DEFERRED")


def _move_out_of_default(cursor, month: date) -> list[str]:
    """Make ``month``'s partitions when the default partitions hold rows of it: PostgreSQL
    refuses a new partition whose rows sit in the default one, so the defaults are detached
    (children first), the month made, its rows moved through the parents (which route them
    to the new partitions, parents first so the composite keys hold) and the defaults
    attached again. One transaction: all of it or nothing."""
    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending checks may block ALTER TABLE
    for t in reversed(TABLES):
        # Detached, each default keeps its keys into its parent's default.
        cursor.execute(f"ALTER TABLE {t.table} DETACH PARTITION {t.table}_default")
    made = _create_month(cursor, month)
    lo, hi = month, next_month(month)
    for t in TABLES:
        cursor.execute(f"INSERT INTO {t.table} SELECT * FROM {t.table}_default "  # noqa: S608
                       "WHERE gaming_day >= %s AND gaming_day < %s", [lo, hi])
    for t in reversed(TABLES):
        # Detached, the default partition has no guard (PostgreSQL drops a partition's
        # cloned triggers on detach); it gets it back when attached again.
        cursor.execute(f"DELETE FROM {t.table}_default WHERE gaming_day >= %s AND gaming_day < %s", [lo, hi])  # noqa: S608
    for t in TABLES:
        cursor.execute(f"ALTER TABLE {t.table} ATTACH PARTITION {t.table}_default DEFAULT")
    return made


def ensure_months(first: date, last: date, *, using: str = "default") -> list[str]:
    """Create the missing monthly partitions of every partitioned table for the months from
    ``first``'s to ``last``'s (parents first); the names made. Rows of such a month waiting in
    a default partition are moved into it. Runs as the tables' owner (DDL); nothing on SQLite
    or on a database not yet partitioned."""
    connection = connections[using]
    if not is_partitioned(connection):
        return []
    made = []
    with transaction.atomic(using=using), connection.cursor() as cursor:
        for month in months(first, last):
            if _exists(cursor, partition_name(TABLES[0].table, month), "archive"):
                continue  # archived: `history_archive --attach` brings it back, never an empty one
            if _rows_in_default(cursor, month):
                made += _move_out_of_default(cursor, month)
            else:
                made += _create_month(cursor, month)
    for name in made:
        log.info("partition %s created", name)
    return made


def default_rows(*, using: str = "default") -> dict[str, list[tuple[str, int]]]:
    """Rows waiting in each default partition, by month: {table: [(YYYY-MM, rows)]}."""
    connection = connections[using]
    if not is_partitioned(connection):
        return {}
    out = {}
    with connection.cursor() as cursor:
        for t in TABLES:
            cursor.execute(f"SELECT to_char(gaming_day, 'YYYY-MM'), count(*) FROM {t.table}_default "  # noqa: S608
                           "GROUP BY 1 ORDER BY 1")
            rows = cursor.fetchall()
            if rows:
                out[t.table] = rows
    return out


def partitions(*, using: str = "default") -> list[tuple[str, str, str, int]]:
    """(table, partition, bounds, rows) of every attached partition, in order. Row counts are
    exact (count(*)): an owner's maintenance command, not a page."""
    connection = connections[using]
    if not is_partitioned(connection):
        return []
    out = []
    with connection.cursor() as cursor:
        for t in TABLES:
            cursor.execute("SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i "
                           "JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = %s::regclass ORDER BY 1",
                           [t.table])
            for name, bounds in cursor.fetchall():
                cursor.execute(f"SELECT count(*) FROM {name}")  # noqa: S608 - a catalogue name
                out.append((t.table, name, bounds, cursor.fetchone()[0]))
    return out


# --- Converting the plain tables (migration audit 0008) -----------------------------------


def _columns(cursor, table: str) -> list[str]:
    cursor.execute("SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 "
                   "AND NOT attisdropped ORDER BY attnum", [table])
    return [r[0] for r in cursor.fetchall()]


def _definitions(cursor, table: str) -> dict:
    """What a table has besides its columns: plain indexes, unique constraints, outgoing foreign
    keys and its identity's next value, read before it is rebuilt."""
    cursor.execute("SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i WHERE i.indrelid = %s::regclass "
                   "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid "
                   "AND c.conrelid = i.indrelid AND c.contype IN ('p', 'u')) ORDER BY 1", [table])
    indexes = [r[0] for r in cursor.fetchall()]
    cursor.execute("SELECT conname, (SELECT array_agg(a.attname ORDER BY k.n) FROM unnest(c.conkey) "
                   "WITH ORDINALITY k(attnum, n) JOIN pg_attribute a ON a.attrelid = c.conrelid "
                   "AND a.attnum = k.attnum) FROM pg_constraint c WHERE c.conrelid = %s::regclass "
                   "AND c.contype = 'u' ORDER BY 1", [table])
    uniques = cursor.fetchall()
    cursor.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = %s::regclass "
                   "AND contype = 'f' AND NOT conname LIKE '%%_day_fk' ORDER BY 1", [table])
    foreign = cursor.fetchall()
    cursor.execute("SELECT a.attname, pg_get_serial_sequence(%s, a.attname) FROM pg_attribute a "
                   "WHERE a.attrelid = %s::regclass AND a.attidentity <> ''", [table, table])
    identity = cursor.fetchall()
    restart = []
    for column, sequence in identity:
        cursor.execute(f"SELECT last_value + CASE WHEN is_called THEN 1 ELSE 0 END FROM {sequence}")  # noqa: S608
        restart.append((column, cursor.fetchone()[0]))
    return {"indexes": indexes, "uniques": uniques, "foreign": foreign, "restart": restart}


def _rebuild(cursor, t: Partitioned, *, partitioned: bool, month_list: list[date]) -> None:
    """Rebuild ``t`` as a partitioned table (or back as a plain one): a new table like the old,
    every row copied, the old dropped, then keys, indexes, foreign keys and identity restored
    under the old names."""
    table, old = t.table, f"{t.table}__old"
    found = _definitions(cursor, table)
    columns = ", ".join(_columns(cursor, table))
    cursor.execute(f"ALTER TABLE {table} RENAME TO {old}")
    tail = " PARTITION BY RANGE (gaming_day)" if partitioned else ""
    cursor.execute(f"CREATE TABLE {table} (LIKE {old} INCLUDING DEFAULTS INCLUDING CONSTRAINTS "
                   f"INCLUDING IDENTITY INCLUDING GENERATED INCLUDING STORAGE INCLUDING COMMENTS){tail}")
    if partitioned:
        for month in month_list:
            cursor.execute(f"CREATE TABLE {partition_name(table, month)} PARTITION OF {table} "
                           f"FOR VALUES {bounds(month)}")
        cursor.execute(f"CREATE TABLE {table}_default PARTITION OF {table} DEFAULT")
    cursor.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {old}")  # noqa: S608
    cursor.execute(f"DROP TABLE {old}")  # CASCADE never: a foreign key still pointing here must stop us
    key = f"{t.key}, gaming_day" if partitioned else t.key
    cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {table}_pkey PRIMARY KEY ({key})")
    for name, cols in found["uniques"]:
        # Partitioned, every unique key ends with the day; back, only the revisions' keeps it
        # (the day is the round's, so (round, number, day) is as unique as (round, number)).
        keep_day = not partitioned and name == "roundrevision_unique_number"
        cols = [c for c in cols if c != "gaming_day" or keep_day]
        if partitioned:
            cols.append("gaming_day")
        cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} UNIQUE ({', '.join(cols)})")
    for definition in found["indexes"]:
        cursor.execute(definition)
    for name, definition in found["foreign"]:
        cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
    for column, value in found["restart"]:
        cursor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} RESTART WITH {max(int(value), 1)}")
        cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [table, column])
        sequence = cursor.fetchone()[0]
        wanted = f"{table}_{column}_seq"
        if sequence.split(".")[-1] != wanted:
            cursor.execute(f"ALTER SEQUENCE {sequence} RENAME TO {wanted}")


def _install(schema_editor, tables) -> None:
    install_guards(schema_editor, append_only=tuple(t.table for t in tables if t.guard == "append_only"),
                   guarded=tuple(t.table for t in tables if t.guard == "guarded"))


def _referrer_triggers(cursor, action: str) -> None:
    for referrer, column, target in REFERRERS:
        name = f"{referrer}_{column}_exists"
        cursor.execute(f"DROP TRIGGER IF EXISTS {name} ON {referrer}")
        if action == "create":
            cursor.execute(f"CREATE CONSTRAINT TRIGGER {name} AFTER INSERT OR UPDATE ON {referrer} "
                           f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
                           f"EXECUTE FUNCTION casino_row_exists('{column}', '{target}')")


def partition_all(schema_editor, *, ahead: int = 12) -> None:
    """Migration step: convert the plain tables (every row kept, in the migration's
    transaction) to monthly partitions covering the stored days and ``ahead`` months past
    today, with composite keys, reference triggers and the guards on the parents."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT min(gaming_day), max(gaming_day) FROM tables_round")
        low, high = cursor.fetchone()
        today = timezone.now().date()
        last = max(high or today, today)
        for _ in range(ahead):
            last = next_month(month_start(last))
        month_list = months(min(low or today, today), last)
        for t in TABLES:
            _rebuild(cursor, t, partitioned=True, month_list=month_list)
        # As the schema of migration 0008 was: audit 0009 moves these keys to the months.
        _parent_keys(cursor)
        cursor.execute(REFERRER_FUNCTION)
        _referrer_triggers(cursor, "create")
    _install(schema_editor, TABLES)


def unpartition_all(schema_editor) -> None:
    """Migration step backwards: plain tables again, every row kept (refused while a month is
    archived: attach it first)."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                       "WHERE n.nspname = 'archive' AND c.relname LIKE 'tables_round_y%%'")
        if cursor.fetchone()[0]:
            raise RuntimeError("archived months exist: attach them (history_archive --attach) before going back")
        _referrer_triggers(cursor, "drop")
        for child, column, _parent in COMPOSITE_KEYS:
            cursor.execute(f"ALTER TABLE {child} DROP CONSTRAINT IF EXISTS {child}_{column}_day_fk")
        for t in reversed(TABLES):
            _rebuild(cursor, t, partitioned=False, month_list=[])
    _install(schema_editor, TABLES)

