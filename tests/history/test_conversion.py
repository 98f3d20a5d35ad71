"""An existing database converts to the partitioned tables without losing a row: rows
written with the schema before (rounds recorded by the services, and a round written through
the migration executor's apps), migrated forward, are all there, every child carries its
round's day, the chain verifies, and the months of the stored days were made (PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tables.history.partitions import TABLE_NAMES, is_partitioned
from tests.audit.test_hash_chain import verify_output
from tests.history.helpers import months_ago, postgres_only, rounds_on

pytestmark = [pytest.mark.django_db(transaction=True), postgres_only]

BEFORE = [("tables", "0008_membership_history_reasons_text")]
COUNTED = ("tables_round", "tables_historicalround", "tables_roundrevision", "tables_wager", "audit_finding",
           "audit_historicalfinding", "tables_idempotencykey", "audit_chainlink")


def counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        out = {}
        for table in COUNTED:
            cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608
            out[table] = cursor.fetchone()[0]
        return out


def latest() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def test_migrating_forward_keeps_every_row_and_the_chain():
    audited = rounds_on([months_ago(1), months_ago(0)])
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    assert not is_partitioned(connection)
    old = executor.loader.project_state(BEFORE).apps
    Round = old.get_model("tables", "Round")  # noqa: N806 - a model
    Key = old.get_model("tables", "IdempotencyKey")  # noqa: N806
    template = Round.objects.get(pk=audited[0].round.pk)
    # A round of a month long before (2024-06), written with the schema of before: its month
    # gets a partition of its own. Rounds alone are not in the chain (a void would be).
    template.pk, template.sequence, template.gaming_day = None, 99, date(2024, 6, 3)
    template.recorded_at = datetime(2024, 6, 3, 18, tzinfo=UTC)
    template.save()
    Key.objects.create(key="k", user_id=template.recorded_by_id, request_hash="h", response_status=201,
                       response_body={}, round_id=template.pk)
    before = counts()

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(latest())
    assert is_partitioned(connection)
    assert counts() == before
    with connection.cursor() as cursor:
        for table in TABLE_NAMES[2:]:  # revisions, wagers, findings, the findings' history
            cursor.execute(f"SELECT count(*) FROM {table} c JOIN tables_round r ON r.id = c.round_id "  # noqa: S608
                           "WHERE c.gaming_day IS DISTINCT FROM r.gaming_day")
            assert cursor.fetchone()[0] == 0, table
        cursor.execute("SELECT tableoid::regclass::text FROM tables_round WHERE id = %s", [template.pk])
        assert cursor.fetchone()[0] == "tables_round_y2024m06"
        # New ids continue after the old ones.
        cursor.execute("SELECT max(id) FROM tables_round")
        highest = cursor.fetchone()[0]
    assert rounds_on([months_ago(0)])[0].round.pk > highest
    assert "every chain verifies" in verify_output()
