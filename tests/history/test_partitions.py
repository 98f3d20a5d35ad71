"""The tables that grow with play are monthly partitions by gaming day (PostgreSQL): rows land
in their month, the guards hold on every partition and through the parent, the composite
keys tie a child to its round's day, and rows waiting in a default partition move into
their month when it is made."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from tables.history.partitions import (
    COMPOSITE_KEYS,
    TABLE_NAMES,
    default_rows,
    ensure_months,
    partition_name,
)
from tables.models import Finding, IdempotencyKey, RoundRevision, Wager
from tests.audit.test_hash_chain import verify_output
from tests.history.helpers import months_ago, partition_of, postgres_only, rounds_on

pytestmark = [pytest.mark.django_db, postgres_only]


def refused(sql: str, params=()) -> str:
    with pytest.raises(DatabaseError) as caught, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    return str(caught.value)


def test_every_growing_table_is_partitioned_with_months_ahead_and_a_default():
    ahead = months_ago(-12)
    with connection.cursor() as cursor:
        for table in TABLE_NAMES:
            cursor.execute("SELECT partstrat FROM pg_partitioned_table WHERE partrelid = %s::regclass", [table])
            assert cursor.fetchone() == ("r",), table
            for name in (partition_name(table, months_ago(0)), partition_name(table, ahead), f"{table}_default"):
                cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [name])
                assert cursor.fetchone()[0], name


def test_a_round_and_its_rows_land_in_their_month_with_the_rounds_day():
    (audited,) = rounds_on([months_ago(0) + timedelta(days=1)])
    rnd, revision = audited.round, audited.revision
    month = rnd.gaming_day.replace(day=1)
    assert partition_of("tables_round", rnd.pk) == partition_name("tables_round", month)
    assert partition_of("tables_roundrevision", revision.pk) == partition_name("tables_roundrevision", month)
    wager = Wager.objects.filter(revision=revision).first()
    finding = Finding.objects.filter(round=rnd).first()
    assert partition_of("tables_wager", wager.pk) == partition_name("tables_wager", month)
    assert partition_of("audit_finding", finding.pk) == partition_name("audit_finding", month)
    assert {revision.gaming_day, wager.gaming_day, finding.gaming_day} == {rnd.gaming_day}
    assert set(Finding.history.filter(id=finding.pk).values_list("gaming_day", flat=True)) == {rnd.gaming_day}


def test_guards_refuse_update_and_delete_through_the_parent_and_on_the_partition():
    (audited,) = rounds_on([months_ago(0)])
    rnd = audited.round
    wager = Wager.objects.filter(round=rnd).first()
    wagers = partition_name("tables_wager", rnd.gaming_day.replace(day=1))
    rounds = partition_name("tables_round", rnd.gaming_day.replace(day=1))
    assert "append-only" in refused("UPDATE tables_wager SET stake = 0 WHERE id = %s", [wager.pk])
    assert "append-only" in refused(f"UPDATE {wagers} SET stake = 0 WHERE id = %s", [wager.pk])  # noqa: S608
    assert "append-only" in refused(f"DELETE FROM {wagers} WHERE id = %s", [wager.pk])  # noqa: S608
    assert "never deleted" in refused("DELETE FROM tables_round WHERE id = %s", [rnd.pk])
    assert "never deleted" in refused(f"DELETE FROM {rounds} WHERE id = %s", [rnd.pk])  # noqa: S608
    assert "may only change through the audit services" in refused(
        f"UPDATE {rounds} SET game = 'x' WHERE id = %s", [rnd.pk])  # noqa: S608


def test_a_month_made_after_migrate_takes_its_rows_and_its_guards():
    month = date(2015, 3, 1)
    made = ensure_months(month, month)
    assert made == [partition_name(t, month) for t in TABLE_NAMES]
    assert ensure_months(month, month) == []  # already there
    (audited,) = rounds_on([date(2015, 3, 10)])
    wager = Wager.objects.filter(round=audited.round).first()
    assert partition_of("tables_wager", wager.pk) == "tables_wager_y2015m03"
    assert "append-only" in refused("UPDATE tables_wager_y2015m03 SET stake = 0 WHERE id = %s", [wager.pk])
    assert "never deleted" in refused("DELETE FROM tables_round_y2015m03 WHERE id = %s", [audited.round.pk])


def test_rows_waiting_in_the_default_partition_move_into_their_new_month():
    audited = rounds_on([date(2014, 5, 30), date(2014, 6, 2)])
    assert partition_of("tables_round", audited[0].round.pk) == "tables_round_default"
    assert dict(default_rows()["tables_wager"]) == {"2014-05": Wager.objects.filter(
        round=audited[0].round).count(), "2014-06": Wager.objects.filter(round=audited[1].round).count()}
    ensure_months(date(2014, 5, 1), date(2014, 5, 1))
    assert partition_of("tables_round", audited[0].round.pk) == "tables_round_y2014m05"
    assert partition_of("tables_round", audited[1].round.pk) == "tables_round_default"
    assert partition_of("tables_roundrevision", audited[0].revision.pk) == "tables_roundrevision_y2014m05"
    assert [m for m, _ in default_rows()["tables_round"]] == ["2014-06"]
    # Moved, the rows keep their guards and their chain.
    assert "never deleted" in refused("DELETE FROM tables_round WHERE id = %s", [audited[0].round.pk])
    assert "every chain verifies" in verify_output()


def test_the_composite_key_refuses_a_child_on_another_day_than_its_round():
    (audited,) = rounds_on([months_ago(0)])
    rnd, revision = audited.round, audited.revision
    other_day = rnd.gaming_day + timedelta(days=1)
    message = refused(
        "INSERT INTO tables_wager (revision_id, round_id, gaming_day, seat, player, wager, line, stake, "
        "expected_net, outcome, explanation) VALUES (%s, %s, %s, 1, '', 'ante', '', 5, -5, 'lose', '')",
        [revision.pk, rnd.pk, other_day])
    # The key of the month the wager would land in, into that month's partition of its parent.
    part = partition_name("tables_wager", other_day)
    assert f'"{part}_round_id_day_fk"' in message or f'"{part}_revision_id_day_fk"' in message, message
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundRevision.objects.create(round=rnd, gaming_day=other_day, number=9, data={}, audit={},
                                     author=rnd.recorded_by, created_at=rnd.recorded_at, engine_version="x")
        connection.cursor().execute("SET CONSTRAINTS ALL IMMEDIATE")


def keys_between_partitioned_tables() -> list[tuple[str, str, str]]:
    """(table holding the key, table it points at, key name) of every foreign key between two
    of the partitioned tables or their partitions, attached or archived."""
    def family(name: str) -> str | None:
        name = name.removeprefix("archive.")
        for table in TABLE_NAMES:
            if name == table or re.fullmatch(f"{table}_(y\\d{{4}}m\\d{{2}}|default)", name):
                return table
        return None

    with connection.cursor() as cursor:
        cursor.execute("SELECT conrelid::regclass::text, confrelid::regclass::text, conname FROM pg_constraint "
                       "WHERE contype = 'f' AND conparentid = 0")
        return sorted(k for k in cursor.fetchall() if family(k[0]) and family(k[1]))


def test_each_months_rows_are_keyed_to_the_same_months_parents_never_to_every_month():
    ensure_months(date(2015, 3, 1), date(2015, 3, 1))
    keys = keys_between_partitioned_tables()
    # Nothing on the partitioned tables themselves: PostgreSQL would check such a key through
    # every month's partition, at a cost that grows with each month kept.
    assert not [k for k in keys if k[0] in TABLE_NAMES], keys
    parts = {name.removeprefix("tables_round_") for name in
             [partition_name("tables_round", months_ago(0)), partition_name("tables_round", date(2015, 3, 1)),
              "tables_round_default"]}
    for part in parts:
        ours = {(child, parent) for child, parent, _ in keys if child.endswith(f"_{part}")}
        assert ours == {(f"{c}_{part}", f"{p}_{part}") for c, _, p in COMPOSITE_KEYS}, (part, ours)
    assert all(child.rsplit("_", 1)[-1] == parent.rsplit("_", 1)[-1] for child, parent, _ in keys), keys


def test_a_reference_from_an_unpartitioned_table_must_exist():
    (audited,) = rounds_on([months_ago(0)])
    key = {"user": audited.round.recorded_by, "request_hash": "h", "response_status": 201, "response_body": {}}
    with transaction.atomic():
        IdempotencyKey.objects.create(key="ok", round=audited.round, **key)
    message = refused(
        "INSERT INTO tables_idempotencykey (key, user_id, request_hash, response_status, response_body, round_id, "
        "created_at) VALUES ('gone', %s, 'h', 201, '{}', %s, now())", [audited.round.recorded_by_id, 10 ** 12])
    assert "not present in \"tables_round\"" in message
