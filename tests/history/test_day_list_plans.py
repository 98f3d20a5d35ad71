"""The lists of one gaming day read that day from an index of its month's partition.

On the busiest property's day (a million rounds, 25,000 findings) the desk's queue and the findings
API took four seconds: each sorted the whole day's findings for a page of 50, and counted them
by joining every finding to its round's heap row, or, when the planner misjudged the scope, read
every round of the day. The plans here are of the pages' own queries (captured from real
requests, through a session and an API token) on a few rounds: with sequential scans disabled, as
on a day too large to read whole, each must

- read the day's month partitions only;
- find the day's findings in an index that starts with the gaming day (the primary key
  (id, gaming_day) only filters the day out of the month);
- reach the rounds by their key, one probe per finding, from the index that carries the round's
  table and status (no heap row per finding);
- give a page in the order of that index: no Sort of the day under the LIMIT.
"""

from __future__ import annotations

import contextlib
import json
import re
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from tables.history.partitions import ensure_months, partition_name
from tables.models import Round
from tests.conftest import token_as
from tests.factories import user_with_role
from tests.history.helpers import months_ago, postgres_only, rounds_on

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, postgres_only]

PARTITIONED = ("tables_round", "tables_roundrevision", "tables_wager", "audit_finding")
#: Rounds without findings on a later day of the month (a tenth of that on the day itself: a
#: day has some forty rounds a finding, and is one of the month's thirty).
FILLER = 20_000
SCANS = ("Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan", "Bitmap Index Scan")


@pytest.fixture
def day():
    """A closed day of last month with rounds with findings at two tables (and a day three months
    before, another partition), before and after many rounds of that day without findings; as
    many on a later day of the month (a day's list must not read past them)."""
    day = months_ago(1) + timedelta(days=3)
    later = day + timedelta(days=20)  # every month has 28 days or more
    ensure_months(months_ago(3), later)  # the months' partitions, as history_maintenance keeps them
    pitboss = user_with_role("pit_boss")
    rounds = [a.round for a in rounds_on([months_ago(3) + timedelta(days=3), day, day, later], pitboss=pitboss)]
    with connection.cursor() as cursor:
        # The month's other rounds, as a busy day has them (some forty rounds a finding): the
        # planner must see far more rounds than findings (with a handful of each it would rightly
        # read them all), and the findings' rounds on both sides of them in the key's order.
        columns = [f.column for f in Round._meta.concrete_fields if f.column not in ("id", "sequence")]
        names = ", ".join(f'"{c}"' for c in columns)
        for source, offset, count in ((rounds[1], 1_000, FILLER // 10), (rounds[3], 100_000, FILLER)):
            cursor.execute(
                f'INSERT INTO tables_round ({names}, "sequence") SELECT {names}, "sequence" + g '  # noqa: S608
                f"FROM tables_round, generate_series(%s::integer, %s::integer) AS g WHERE id = %s",
                [offset, offset + count, source.pk])
    rounds += [a.round for a in rounds_on([day, day], pitboss=pitboss)]
    with connection.cursor() as cursor:
        # As autovacuum leaves a closed day: statistics, and the visibility map index-only reads use.
        for table in PARTITIONED:
            cursor.execute(f"VACUUM (ANALYZE) {table}")
        cursor.execute("ANALYZE")  # the floor's tables too: a casino's tables counted, not guessed
    return day, rounds


def nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", []):
        yield from nodes(child)


def index_definition(name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_indexdef(%s::regclass)", [name])
        return cursor.fetchone()[0]


def plan_of(sql: str) -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")  # a day too large to read whole
        try:
            cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}")
            plan = cursor.fetchone()[0]
        finally:
            cursor.execute("RESET enable_seqscan")
    return (json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]


def day_list_reads(captured, day) -> list[str]:
    """The captured queries that list or count the day's findings or rounds."""
    said = re.compile(rf"""("audit_finding"|"tables_round")\."gaming_day" (=|BETWEEN) '{day.isoformat()}'""")
    return [q["sql"] for q in captured.captured_queries
            if re.search(r'FROM "(audit_finding|tables_round)"', q["sql"]) and said.search(q["sql"])]


def assert_day_plan(sql: str, day) -> None:
    plan = plan_of(sql)
    month = {partition_name(table, day) for table in PARTITIONED}
    scans = [n for n in nodes(plan) if n["Node Type"] in SCANS and n.get("Relation Name", n.get("Index Name", ""))
             .startswith(PARTITIONED)]
    assert scans, sql
    for node in scans:
        relation = node.get("Relation Name")
        if relation is None:  # a Bitmap Index Scan names its index only
            continue
        assert relation in month, (relation, sql)
        assert node["Node Type"] != "Seq Scan", (relation, sql)
        index = index_definition(node["Index Name"]) if "Index Name" in node else ""
        if relation.startswith("audit_finding") and " LIMIT " in sql:
            # The page's rows in order from the day's index: the primary key (id, gaming_day)
            # also gives them by id, but filters the day out of the whole month's findings.
            assert re.search(r"\(gaming_day[,)]", index), (index, sql)
        elif relation.startswith("tables_round") and not relation.startswith("tables_roundrevision"):
            # One probe a finding by the round's key, answered by the index that carries the
            # round's table and status; a list of the day's rounds themselves reads the day's
            # index (gaming_day first).
            if 'FROM "audit_finding"' in sql:
                assert re.search(r"\(id = ", node.get("Index Cond", "")), (node, sql)
                if " LIMIT " not in sql:  # a page's 50 rounds are read whole (their columns shown)
                    assert node["Node Type"] == "Index Only Scan", (node["Node Type"], index, sql)
                    assert re.search(r"INCLUDE \(table_id, status\)", index), (index, sql)
            else:
                assert re.search(r"\(gaming_day[,)]", index), (index, sql)
    if " LIMIT " in sql:
        # The page in the index's order: nothing sorts the day under the LIMIT.
        sorts = [n for n in nodes(plan) if n["Node Type"] in ("Sort", "Incremental Sort")]
        assert not sorts, (sorts, sql)


def reads_of(client, url: str, day) -> list[str]:
    """The day's list reads of the request, on whichever database served them (with a read
    replica configured, the lists read there); their plans are asked of the primary, which
    holds the same rows."""
    with contextlib.ExitStack() as stack:
        captures = [stack.enter_context(CaptureQueriesContext(connections[alias])) for alias in connections]
        answer = client.get(url)
    assert answer.status_code == 200, answer.content[:500]
    reads = [sql for captured in captures for sql in day_list_reads(captured, day)]
    assert reads, [q["sql"] for captured in captures for q in captured.captured_queries]
    return reads


@pytest.mark.parametrize("query", ["status=all", "status=open", "status=all&order=largest",
                                   "status=all&order=largest&table={table}"])
def test_the_desk_queue_of_a_day_reads_it_from_its_index(client, day, query):
    day, rounds = day
    client.force_login(user_with_role("surveillance", casinos=[rounds[0].table.pit.casino]))
    url = f"/desk/?gaming_day={day.isoformat()}&" + query.format(table=rounds[1].table_id)
    reads = reads_of(client, url, day)
    # The totals (a count per kind) and the page.
    assert any(" LIMIT " in sql for sql in reads) and any("GROUP BY" in sql for sql in reads), reads
    for sql in reads:
        assert_day_plan(sql, day)


@pytest.mark.parametrize("query", ["", "&table={table}", "&ordering=created_at"])
def test_the_findings_api_list_of_a_day_reads_it_from_its_index(day, query):
    day, rounds = day
    client = token_as(user_with_role("surveillance", casinos=[rounds[0].table.pit.casino]))
    url = f"/api/v1/findings/?gaming_day={day.isoformat()}&limit=50" + query.format(table=rounds[1].table_id)
    reads = reads_of(client, url, day)
    assert any("COUNT(" in sql for sql in reads) and any(" LIMIT " in sql for sql in reads), reads
    for sql in reads:
        assert_day_plan(sql, day)
    answer = client.get(url).json()
    assert answer["count"] == len(answer["results"]) > 0
    assert {f["revision"] for f in answer["results"]} == {1}


def test_the_rounds_api_list_of_a_day_reads_it_from_its_index(day):
    day, rounds = day
    client = token_as(user_with_role("surveillance", casinos=[rounds[0].table.pit.casino]))
    reads = reads_of(client, f"/api/v1/rounds/?gaming_day={day.isoformat()}&limit=50", day)
    for sql in reads:
        assert_day_plan(sql, day)



def test_a_dealers_page_reads_his_rollups_not_his_days_wagers(client, day):
    """A dealer's busy day is some 17,000 rounds and 120,000 wagers: the page's pays are summed
    from his rollups (no wager read), and his rounds with an error are read only on the days his
    rollups show one, newest first from (dealer, recorded_at), stopping at the page."""
    day, rounds = day
    dealer = rounds[1].dealer
    client.force_login(user_with_role("surveillance", casinos=[rounds[0].table.pit.casino]))

    def reads(since, until):
        with contextlib.ExitStack() as stack:
            captures = [stack.enter_context(CaptureQueriesContext(connections[alias])) for alias in connections]
            answer = client.get(f"/desk/dealers/{dealer.pk}/?since={since.isoformat()}&until={until.isoformat()}")
        assert answer.status_code == 200
        return [q["sql"] for captured in captures for q in captured.captured_queries]

    queries = reads(day, day)
    assert not [sql for sql in queries if 'FROM "tables_wager"' in sql]
    listed = [sql for sql in queries if 'FROM "tables_round"' in sql and '"tables_round"."dealer_id" =' in sql]
    assert len(listed) == 1 and " LIMIT " in listed[0] and "ORDER BY \"tables_round\".\"recorded_at\" DESC" in listed[0]
    assert f"'{day.isoformat()}'" in listed[0].split("IN (")[1]  # the error days only
    # The day's month partition holds the index the list walks backwards.
    assert "(dealer_id, recorded_at)" in index_definition(f"{partition_name('tables_round', day)}_dealer_id_recorded_at_idx")
    # A day without an error of his: none of his rounds is read.
    quiet = day + timedelta(days=1)
    queries = reads(quiet, quiet)
    assert not [sql for sql in queries if 'FROM "tables_round"' in sql and '"tables_round"."dealer_id" =' in sql]
    assert not [sql for sql in queries if 'FROM "tables_wager"' in sql]
