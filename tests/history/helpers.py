"""Rounds recorded on chosen days, for the partitioning and retention tests (PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.utils import timezone

from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.factories import DealerFactory, PitFactory, RulesetFactory, TableFactory, user_with_role
from tests.tables.rounds_data import ROUNDS

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="declarative partitioning is PostgreSQL's; SQLite (the quick start) keeps plain tables")

UNDERPAY = ROUNDS["ante_up_21"]["underpay"][0]


def noon(day: date) -> datetime:
    """Mid-afternoon in New York (the factories' casino): well inside ``day``'s gaming day."""
    return datetime(day.year, day.month, day.day, 18, tzinfo=UTC)


def rounds_on(days: list[date], *, pitboss=None, game: str = "ante_up_21"):
    """A new table opened on ``days[0]`` with one round recorded on each day (it rolls over
    to each later day); the audited rounds."""
    pitboss = pitboss or user_with_role("pit_boss")
    pit = PitFactory()
    table = TableFactory(pit=pit, game=game, ruleset=RulesetFactory(game=game, casino=pit.casino))
    table_session_open(table=table, dealer=DealerFactory(casino=pit.casino), author=pitboss,
                       at=noon(days[0]) - timedelta(minutes=5))
    return [round_record(table=table, data=UNDERPAY, author=pitboss, at=noon(day)) for day in days]


def partition_of(table: str, pk: int, key: str = "id") -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT tableoid::regclass::text FROM {table} WHERE {key} = %s", [pk])  # noqa: S608
        row = cursor.fetchone()
    return row[0] if row else ""


def months_ago(n: int) -> date:
    today = timezone.now().date().replace(day=1)
    year, month = divmod(today.year * 12 + today.month - 1 - n, 12)
    return date(year, month + 1, 1)
