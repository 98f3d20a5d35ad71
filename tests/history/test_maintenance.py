"""Keeping months ahead: the owner's command lists partitions, makes months and warns about
rows in a default partition; beat's daily task makes them as the owner and only warns when
its role cannot create tables (PostgreSQL)."""

from __future__ import annotations

import logging
import uuid
from datetime import date
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from tables.history.partitions import partition_name
from tables.tasks import history_partitions_ahead
from tests.history.helpers import months_ago, postgres_only, rounds_on

pytestmark = pytest.mark.django_db


@postgres_only
def test_the_command_makes_months_ahead_lists_them_and_warns_about_the_default_partition():
    rounds_on([date(2013, 2, 5)])
    out, err = StringIO(), StringIO()
    call_command("history_partitions", ahead=15, stdout=out, stderr=err)
    listing = out.getvalue()
    assert "made 18 partition(s)" in listing  # months 13, 14 and 15 ahead, six tables each
    assert partition_name("tables_wager", months_ago(-15)) in listing
    assert "tables_round_default" in listing
    assert "tables_round_default holds 1 row(s) of 2013-02" in err.getvalue()


@postgres_only
def test_beat_makes_the_months_as_the_owner_and_only_warns_without_the_right(caplog):
    role = f"casino_no_ddl_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:  # rolled back with the test's transaction
        cursor.execute(f"CREATE ROLE {role} NOLOGIN")
        cursor.execute(f"GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO {role}")
        cursor.execute(f"SET ROLE {role}")
    try:
        with caplog.at_level(logging.WARNING, logger="tables.tasks"):
            assert history_partitions_ahead(ahead=20) == []
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET ROLE")
    assert "owner's cron must run `manage.py history_partitions --ahead N`" in caplog.text
    assert history_partitions_ahead(ahead=13) == [partition_name(t, months_ago(-13)) for t in (
        "tables_round", "tables_historicalround", "tables_roundrevision", "tables_wager", "audit_finding",
        "audit_historicalfinding")]


def test_beat_runs_it_daily():
    from django.conf import settings

    from casino.celery import app

    app.loader.import_default_modules()
    entry = settings.CELERY_BEAT_SCHEDULE["history-partitions-ahead"]
    assert entry["schedule"] == 24 * 3600.0 and entry["task"] in app.tasks
