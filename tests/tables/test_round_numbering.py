"""Numbering a table's rounds (issue #20): gap-free and unique, and its cost independent of the
history (the table's counter, not a MAX over every monthly partition of the rounds)."""

from __future__ import annotations

import io
import json
import re
from datetime import date

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from tables.history.partitions import ensure_months, is_partitioned
from tables.models import Round, RoundCounter
from tables.services.rounds import round_counters_rebuild, round_record
from tests.concurrency import run_at_once
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table, pitboss  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

DATA = ROUNDS["ante_up_21"]["correct"][0]
ROUNDS_TABLE = re.compile(r'(?:INSERT INTO|FROM|JOIN|UPDATE)\s+"?tables_round"?[\s(]')


def _round_partitions_read(plan: dict) -> set[str]:
    """The partitions of tables_round that a plan scans (the target of an INSERT is not read)."""
    found, stack = set(), [plan]
    while stack:
        node = stack.pop()
        if "Scan" in node.get("Node Type", "") and re.fullmatch(r"tables_round(_\w+)?",
                                                                 node.get("Relation Name", "")):
            found.add(node["Relation Name"])
        stack += node.get("Plans", [])
    return found


def _without_counter(table) -> None:
    """As after rounds loaded around the recorder: the table's rounds exist, its counter does not
    (deleting it takes the owner switching its guard off, in this transaction only)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # the deferred foreign key checks first: ALTER waits for none
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("ALTER TABLE tables_roundcounter DISABLE TRIGGER tables_roundcounter_guard")
        RoundCounter.objects.filter(table=table).delete()
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE tables_roundcounter ENABLE TRIGGER tables_roundcounter_guard")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


@pytest.mark.postgres
def test_recording_reads_no_partition_of_the_rounds_however_long_the_history(pitboss):  # noqa: F811
    if connection.vendor != "postgresql" or not is_partitioned(connection):
        pytest.skip("the rounds are partitioned by month on PostgreSQL only")
    ensure_months(date(2023, 1, 1), date(2026, 12, 1))  # four years of monthly partitions
    table = open_table("ante_up_21", pitboss)
    round_record(table=table, data=DATA, author=pitboss)  # the table's counter exists from now on
    statements = []

    def keep(execute, sql, params, many, context):
        statements.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        rnd = round_record(table=table, data=DATA, author=pitboss).round
    assert rnd.sequence == 2
    on_rounds = [(sql, params) for sql, params in statements if ROUNDS_TABLE.search(sql)]
    assert on_rounds, statements
    for sql, params in on_rounds:
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
            plan = cursor.fetchone()[0]
        plan = json.loads(plan) if isinstance(plan, str) else plan
        # The old MAX(sequence) read all 48 months (and the default partition) here.
        assert _round_partitions_read(plan[0]["Plan"]) == set(), sql


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_rounds_recorded_at_once_at_one_table_are_numbered_without_gaps_or_twins(pitboss):  # noqa: F811
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL's row locks (SQLite serialises the whole database)")
    table = open_table("ante_up_21", pitboss)

    def record(index: int) -> None:
        for _ in range(5):
            round_record(table=table, data=DATA, author=pitboss)

    assert run_at_once(4, record) == []
    numbers = sorted(Round.objects.filter(table=table).values_list("sequence", flat=True))
    assert numbers == list(range(1, 21))
    assert RoundCounter.objects.get(table=table).last == 20


def test_a_table_without_a_counter_continues_from_its_rounds(pitboss):  # noqa: F811
    table = open_table("ante_up_21", pitboss)
    other = open_table("ante_up_21", pitboss)
    for _ in range(3):
        round_record(table=table, data=DATA, author=pitboss)
    round_record(table=other, data=DATA, author=pitboss)
    _without_counter(table)
    assert round_record(table=table, data=DATA, author=pitboss).round.sequence == 4
    assert round_record(table=other, data=DATA, author=pitboss).round.sequence == 2
    assert {c.table_id: c.last for c in RoundCounter.objects.all()} == {table.pk: 4, other.pk: 2}


def test_the_repair_raises_a_counter_behind_its_rounds_and_makes_a_missing_one(pitboss):  # noqa: F811
    table, other = open_table("ante_up_21", pitboss), open_table("ante_up_21", pitboss)
    for _ in range(3):
        round_record(table=table, data=DATA, author=pitboss)
    round_record(table=other, data=DATA, author=pitboss)
    _without_counter(other)
    RoundCounter.objects.filter(table=table).update(last=5)  # ahead (a number never reused): kept
    assert round_counters_rebuild() == 1
    assert {c.table_id: c.last for c in RoundCounter.objects.all()} == {table.pk: 5, other.pk: 1}
    out = io.StringIO()
    call_command("round_counters_rebuild", stdout=out)
    assert out.getvalue().strip() == "0 round counters made or raised."


@pytest.mark.postgres
def test_a_counter_never_goes_back(pitboss):  # noqa: F811
    if connection.vendor != "postgresql":
        pytest.skip("the guards are PostgreSQL triggers")
    from django.db import DatabaseError

    table = open_table("ante_up_21", pitboss)
    round_record(table=table, data=DATA, author=pitboss)
    round_record(table=table, data=DATA, author=pitboss)
    for statement in (f"UPDATE tables_roundcounter SET last = 1 WHERE table_id = {table.pk}",
                      f"DELETE FROM tables_roundcounter WHERE table_id = {table.pk}"):
        with pytest.raises(DatabaseError, match="only grows|never deleted"), transaction.atomic(), \
                connection.cursor() as cursor:
            cursor.execute(statement)
