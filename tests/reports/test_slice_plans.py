"""The slice's SQL reads one month's partition of each partitioned table it joins: every join
names the gaming day (the partition key), so PostgreSQL prunes the other months instead of
probing each of them once per round of the slice (a third of the aggregates' time at 20,000
rounds a slice)."""

from __future__ import annotations

import re

import pytest
from django.db import connection

from audit.reports import selectors as s
from tables.models import Round
from tests.decisions.test_pricing import _record, _seat, floor  # noqa: F401 - the fixture

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PARTITIONED = ("tables_roundrevision", "tables_wager", "audit_finding")


def _partitions(table: str) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                       "WHERE i.inhparent = %s::regclass", [table])
        return {row[0] for row in cursor.fetchall()}


def _scanned(sql: str, params: list) -> set[str]:
    """The relations the statement read when run (a subplan pruned as it runs is marked never
    executed)."""
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " + sql, params)
        lines = [row[0] for row in cursor.fetchall()]
    return {name for line in lines if "never executed" not in line for name in re.findall(r" on (\w+)", line)}


def test_the_slices_joins_read_the_days_partition_only(floor):  # noqa: F811
    rnd = _record(floor, "blackjack_tie", ["TH", "7C"], [_seat(1, "P-1", "100.00", ["TS", "2D"], ["stand"])])
    casino = rnd.table.pit.casino
    for table in PARTITIONED:
        assert len(_partitions(table)) > 2, f"{table}: the test needs more than one month's partition"
    part = s._Slice(casino, rnd.gaming_day, rnd.pk, rnd.pk)
    where, params = part.where()
    cte, current = s._CURRENT.format(where=where), s._CURRENT_WAGERS
    current_params = [*params, Round.ACTIVE, rnd.pk, rnd.pk, rnd.pk, rnd.pk, part.day]
    statements = {
        "wager sums": (s._WAGER_SUMS.format(cte=cte, current=current), [*current_params, s.POT_KEY]),
        "seats": (s._SEATS.format(cte=cte, current=current), current_params),
        "re-audit ids": (s._REAUDIT.format(where=where), [*params, Round.ACTIVE, rnd.pk, rnd.pk]),
        "findings": (f"SELECT r.table_id, COUNT(*) {s._FINDINGS.format(where=where)} GROUP BY r.table_id",
                     [*params, rnd.pk, rnd.pk, "open", Round.ACTIVE, "confirmed", "escalated", "confirmed",
                      "escalated"]),
    }
    for name, (sql, sql_params) in statements.items():
        scanned = _scanned(sql, sql_params)
        for table in PARTITIONED:
            read = scanned & _partitions(table)
            assert len(read) <= 1, f"{name} reads {len(read)} partitions of {table}: {sorted(read)}"
