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
from tests.history.helpers import months_ago, postgres_only, rounds_on

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
