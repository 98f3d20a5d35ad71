"""The bench loaders drop a table's secondary indexes for COPY and put them back. A partitioned
table's index definition reads ``ON ONLY``: recreated verbatim it was an invalid parent index
with no index on any partition, and every page was timed without the history's indexes. The
composite keys are each month's partition's own: they go and come back too (left in place, the
COPY's rows queued a check each and the index rebuild was refused: "pending trigger events")."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.benchmarks.bench_reconcile import _schema_drop

pytestmark = pytest.mark.django_db


def _partition_indexes(cur, table: str) -> set[tuple[str, str]]:
    cur.execute(
        "SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid "
        "JOIN pg_index i ON i.indrelid = c.oid WHERE h.inhparent = %s::regclass AND NOT i.indisprimary", [table])
    return {(name, definition.split(" USING ", 1)[1]) for name, definition in cur.fetchall()}


def _partition_keys(cur, table: str) -> set[tuple[str, str, str]]:
    cur.execute(
        "SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid) FROM pg_constraint c "
        "JOIN pg_inherits h ON h.inhrelid = c.conrelid WHERE h.inhparent = %s::regclass AND c.contype = 'f' "
        "AND c.conparentid = 0", [table])
    return set(cur.fetchall())


def test_dropped_indexes_come_back_on_every_partition():
    if connection.vendor != "postgresql":
        pytest.skip("partitions and their indexes are PostgreSQL's")
    with connection.cursor() as django_cursor:
        cur = django_cursor.cursor
        cur.execute("SELECT count(*) FROM pg_inherits WHERE inhparent = 'tables_wager'::regclass")
        if not cur.fetchone()[0]:
            pytest.skip("tables_wager is not partitioned in this database")
        before = _partition_indexes(cur, "tables_wager")
        assert any("(round_id, revision_id)" in d for _, d in before)
        keys = _partition_keys(cur, "tables_wager")
        assert keys, "the months' composite keys"
        recreate = _schema_drop(cur, ("tables_wager",))
        assert not _partition_indexes(cur, "tables_wager")
        assert not _partition_keys(cur, "tables_wager")
        for sql in recreate:
            cur.execute(sql)
        cur.execute("SELECT count(*) FROM pg_index WHERE NOT indisvalid")
        assert cur.fetchone()[0] == 0
        assert _partition_indexes(cur, "tables_wager") == before
        assert _partition_keys(cur, "tables_wager") == keys
