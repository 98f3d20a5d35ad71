"""The slice's SQL reads one month's partition of each partitioned table it joins: every join
names the gaming day (the partition key), so PostgreSQL prunes the other months instead of
probing each of them once per round of the slice (a third of the aggregates' time at 20,000
rounds a slice). The statements are the ones the slice runs, with its own parameters."""

from __future__ import annotations

import re

import pytest
from django.db import connection

from audit.reports import selectors
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


def test_the_slices_joins_read_the_days_partition_only(floor, monkeypatch):  # noqa: F811
    rnd = _record(floor, "blackjack_tie", ["TH", "7C"], [_seat(1, "P-1", "100.00", ["TS", "2D"], ["stand"])])
    casino = rnd.table.pit.casino
    for table in PARTITIONED:
        assert len(_partitions(table)) > 2, f"{table}: the test needs more than one month's partition"
    ran: list[tuple[str, list]] = []
    real_rows = selectors._rows
    monkeypatch.setattr(selectors, "_rows", lambda sql, params: ran.append((sql, list(params))) or real_rows(sql, params))
    slice_of = {"casino": casino, "gaming_day": rnd.gaming_day, "first": rnd.pk, "last": rnd.pk}
    assert selectors.slice_reaudit_ids(**slice_of, full=True) == [rnd.pk]
    assert selectors.slice_aggregates(**slice_of)["wagers"]
    assert len(ran) == 7  # the re-audit's ids; wager sums, seats, pays, rounds, findings by table and by dealer
    for sql, params in ran:
        scanned = _scanned(sql, params)
        for table in PARTITIONED:
            read = scanned & _partitions(table)
            assert len(read) <= 1, f"reads {len(read)} partitions of {table}: {sorted(read)}\n{sql}"
