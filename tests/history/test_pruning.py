"""The lists that join findings to their rounds read only the period's months of both (issue #20):
without the round's day said too, PostgreSQL joined the period's findings to every round of every
month the database holds, and the desk queue cost grew with the years kept."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from audit.selectors import QueueFilters, finding_queue
from tables.history.partitions import partition_name
from tests.factories import user_with_role
from tests.history.helpers import UNDERPAY, months_ago, postgres_only, rounds_on

pytestmark = [pytest.mark.django_db, postgres_only]


def round_partitions(plan: str) -> set[str]:
    return set(re.findall(r"\b(tables_round_(?:y\d{4}m\d{2}|default))\b", plan))


@pytest.fixture
def history():
    """Rounds with findings in three old months and yesterday."""
    days = [months_ago(n) + timedelta(days=3) for n in (6, 4, 2)]
    rounds = rounds_on(days)
    rounds += rounds_on([timezone.now().date() - timedelta(days=1)])
    return [audited.round for audited in rounds]


def test_the_desk_queue_reads_one_month_of_rounds_for_a_period_in_one_month(history):
    day = history[-1].gaming_day
    queue = finding_queue(QueueFilters(since=day - timedelta(days=2), until=day, status="all"))
    assert [f.round_id for f in queue] == [history[-1].pk] * queue.count()
    plan = queue.explain()
    assert round_partitions(plan) == {partition_name("tables_round", day)}, plan


def test_the_findings_api_list_reads_only_the_periods_months_of_rounds(client, history):
    day = history[-1].gaming_day
    client.force_login(user_with_role("surveillance", casinos=[history[-1].table.pit.casino]))
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(reverse("finding-list"), {"from": str(day - timedelta(days=2)), "to": str(day)})
    assert answer.status_code == 200 and answer.json()["results"]
    listing = [q["sql"] for q in captured.captured_queries
               if 'FROM "audit_finding"' in q["sql"] and "tables_round" in q["sql"]]
    assert listing
    for sql in listing:
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert round_partitions(plan) <= {partition_name("tables_round", day)}, plan


# --- one round, one finding, one dealer: the reads that join partitioned tables plan one month ----

PARTITIONED = ("tables_round", "tables_historicalround", "tables_roundrevision", "tables_wager", "audit_finding",
               "audit_historicalfinding")


def partitions(plan: str) -> set[str]:
    names = "|".join(PARTITIONED)
    return set(re.findall(rf"\b((?:{names})_(?:y\d{{4}}m\d{{2}}|default))\b", plan))


def joined_partitioned_reads(captured) -> list[str]:
    """The captured queries that read two or more partitioned tables (a join or a subquery): the
    ones whose plan multiplies by the months kept when a table's day is not said."""
    return [q["sql"] for q in captured.captured_queries
            if sum(bool(re.search(rf'"{name}"', q["sql"])) for name in PARTITIONED) >= 2]


def assert_months(sqls: list[str], days: list) -> None:
    # A period's default partitions stay in a range's plan (PostgreSQL keeps them unless the range
    # is one month's); they hold nothing once the months are made ahead (history_maintenance).
    allowed = {partition_name(table, day) for table in PARTITIONED for day in days}
    allowed |= {f"{table}_default" for table in PARTITIONED}
    assert sqls
    for sql in sqls:
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert partitions(plan) <= allowed, (sorted(partitions(plan) - allowed), sql)


def surveillance_reads(client, rnd, url: str):
    """``url`` read by surveillance of ``rnd``'s casino: the answer and the reads that joined
    partitioned tables."""
    client.force_login(user_with_role("surveillance", casinos=[rnd.table.pit.casino]))
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(url)
    assert answer.status_code == 200
    return answer, joined_partitioned_reads(captured)


def test_a_rounds_desk_page_reads_its_own_month_only(client, history):
    rnd = history[-1]
    _, reads = surveillance_reads(client, rnd, reverse("desk-round", args=[rnd.pk]))
    assert_months(reads, [rnd.gaming_day])


def test_a_rounds_tablet_page_reads_its_own_month_only(client, history):
    """Every read of its revisions, wagers and findings, not only the joins: the round itself is
    the one read by id alone (its day is what it tells)."""
    rnd = history[-1]
    client.force_login(rnd.recorded_by)
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(reverse("tablet-round", args=[rnd.pk]))
    assert answer.status_code == 200
    reads = [q["sql"] for q in captured.captured_queries
             if any(f'"{name}"' in q["sql"] for name in PARTITIONED)
             and not re.search(rf'FROM "tables_round" .*"tables_round"\."id" = {rnd.pk}\b', q["sql"])]
    assert_months(reads, [rnd.gaming_day])


def test_a_findings_api_page_reads_its_own_month_only(client, history):
    rnd = history[0]
    finding = rnd.findings.first()
    answer, reads = surveillance_reads(client, rnd, reverse("finding-detail", args=[finding.pk]))
    assert answer.json()["id"] == finding.pk
    assert_months(reads, [rnd.gaming_day])


def test_a_dealers_page_reads_the_periods_months_only(client, history):
    rnd = history[-1]
    answer, reads = surveillance_reads(client, rnd, reverse("desk-dealer", args=[rnd.dealer_id]))
    assert rnd.pk in [r.pk for r in answer.context["recent"]]
    assert_months(reads, [answer.context["recent_since"], rnd.gaming_day])


def test_recording_a_round_reads_its_own_month_only(history):
    """The rollups' figures of a new round (and of a correction) read the round's month: recording
    must not slow down as the months pile up."""
    from tables.services.rounds import round_record

    table = history[-1].table
    pitboss = history[-1].recorded_by
    with CaptureQueriesContext(connection) as captured:
        audited = round_record(table=table, data=UNDERPAY, author=pitboss)
    assert audited.round.findings.exists()
    assert_months(joined_partitioned_reads(captured), [audited.round.gaming_day])
