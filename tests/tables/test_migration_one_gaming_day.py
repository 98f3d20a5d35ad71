"""Migration tables 0005: rounds stored under the old rule (the session's opening day) get the
gaming day of the moment they were recorded; their sessions are split as the services now roll
them over; every changed round and session says why in its history."""

from __future__ import annotations

import importlib
from datetime import date, datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from django.apps import apps
from django.db import connection

from casino.audit_guard import allow_audit_write
from tables.history.partitions import is_partitioned, keys_by_month, month_keys_drop
from tables.models import DealerAssignment, Round, TableSession
from tables.services import rounds as rounds_service
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.factories import (
    CasinoFactory,
    DealerFactory,
    PitFactory,
    RulesetFactory,
    TableFactory,
    user_with_role,
)
from tests.tables.rounds_data import ROUNDS

migration = importlib.import_module("tables.migrations.0005_rounds_on_their_recorded_gaming_day")
NEW_YORK = ZoneInfo("America/New_York")
ROUND = ROUNDS["ante_up_21"]["correct"][0]

pytestmark = pytest.mark.django_db


def ny(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=NEW_YORK)


def _migrate() -> None:
    partitioned = is_partitioned(connection)
    if connection.vendor == "postgresql":  # as in its own transaction: no deferred checks pending
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            # 0005 ran on the schema of its time, before revisions, wagers and findings carried
            # their round's day (tables 0009, then partitioned by audit 0008, whose composite
            # keys would refuse moving a round alone): as the migrations did, the round moves
            # first and its rows follow (0009's fill), under the keys restored after.
            if partitioned:
                month_keys_drop(cursor)
    migration.forwards(apps, SimpleNamespace(connection=connection))
    if partitioned:
        with connection.cursor() as cursor:
            for table in ("tables_roundrevision", "tables_wager", "audit_finding", "audit_historicalfinding"):
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
                cursor.execute(f"UPDATE {table} c SET gaming_day = r.gaming_day FROM tables_round r "  # noqa: S608
                               "WHERE r.id = c.round_id AND c.gaming_day <> r.gaming_day")
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
            keys_by_month(cursor)


@pytest.fixture
def old_rule(monkeypatch):
    """Record as the code before #14 did: every round takes its open session's day."""
    monkeypatch.setattr(rounds_service, "_session_of_day", lambda now, at, author: (now.session_id, now.gaming_day))


def test_the_migration_puts_old_rounds_on_their_recorded_day_and_splits_their_session(old_rule):
    casino = CasinoFactory(name="Old Casino", time_zone="America/New_York", gaming_day_start_hour=6)
    table = TableFactory(pit=PitFactory(casino=casino), game="ante_up_21",
                         ruleset=RulesetFactory(game="ante_up_21", casino=casino))
    first_dealer, relief = DealerFactory(casino=casino), DealerFactory(casino=casino)
    pitboss = user_with_role("pit_boss", casinos=[casino])
    session = table_session_open(table=table, dealer=first_dealer, author=pitboss, at=ny("2026-11-22T05:51"))
    times = ["2026-11-22T05:55", "2026-11-22T06:10", "2026-11-23T02:00", "2026-11-23T06:30"]
    recorded = [round_record(table=table, data=ROUND, author=pitboss, at=ny(t)).round for t in times]
    # The old dealer change, with no rollover: the relief takes over at 07:00 on the 22nd's day.
    allow_audit_write()
    DealerAssignment.objects.filter(session=session).update(ended_at=ny("2026-11-22T07:00"))
    DealerAssignment.objects.create(session=session, dealer=relief, started_at=ny("2026-11-22T07:00"),
                                    assigned_by=pitboss)
    assert {r.gaming_day for r in Round.objects.filter(table=table)} == {date(2026, 11, 21)}  # the defect

    _migrate()

    rounds = list(Round.objects.filter(table=table).order_by("sequence"))
    assert [r.gaming_day for r in rounds] == [date(2026, 11, 21), date(2026, 11, 22), date(2026, 11, 22),
                                              date(2026, 11, 23)]
    sessions = list(TableSession.objects.filter(table=table).order_by("opened_at"))
    assert [(s.gaming_day, s.opened_at, s.closed_at) for s in sessions] == [
        (date(2026, 11, 21), ny("2026-11-22T05:51"), ny("2026-11-22T06:00")),
        (date(2026, 11, 22), ny("2026-11-22T06:00"), ny("2026-11-23T06:00")),
        (date(2026, 11, 23), ny("2026-11-23T06:00"), None),
    ]
    assert sessions[0] == session and sessions[1].continues == sessions[0] and sessions[2].continues == sessions[1]
    assert all(r.session.gaming_day == r.gaming_day for r in rounds)
    assert [(a.session_id, a.dealer, a.started_at, a.ended_at) for a in
            DealerAssignment.objects.filter(session__table=table).order_by("started_at", "session__opened_at")] == [
        (sessions[0].pk, first_dealer, ny("2026-11-22T05:51"), ny("2026-11-22T06:00")),
        (sessions[1].pk, first_dealer, ny("2026-11-22T06:00"), ny("2026-11-22T07:00")),
        (sessions[1].pk, relief, ny("2026-11-22T07:00"), ny("2026-11-23T06:00")),
        (sessions[2].pk, relief, ny("2026-11-23T06:00"), None),
    ]
    # Each changed round's history says why; the unchanged one has none of it.
    changed = {r.pk: list(r.history.filter(history_change_reason=migration.ROUND_REASON)) for r in rounds}
    assert [len(v) for v in changed.values()] == [0, 1, 1, 1]
    assert changed[recorded[1].pk][0].gaming_day == date(2026, 11, 22)
    assert all(s.history.filter(history_change_reason=migration.SPLIT_REASON).count() == 1 for s in sessions)

    # Running it again finds nothing to do.
    _migrate()
    assert TableSession.objects.filter(table=table).count() == 3
    assert sum(r.history.filter(history_change_reason=migration.ROUND_REASON).count() for r in rounds) == 3


def test_the_migration_leaves_a_session_of_one_day_alone(old_rule):
    casino = CasinoFactory(name="Calm Casino", time_zone="Europe/London", gaming_day_start_hour=4)
    table = TableFactory(pit=PitFactory(casino=casino), game="ante_up_21",
                         ruleset=RulesetFactory(game="ante_up_21", casino=casino))
    pitboss = user_with_role("pit_boss", casinos=[casino])
    session = table_session_open(table=table, dealer=DealerFactory(casino=casino), author=pitboss,
                                 at=datetime(2026, 7, 1, 9, tzinfo=ZoneInfo("Europe/London")))
    rnd = round_record(table=table, data=ROUND, author=pitboss,
                       at=datetime(2026, 7, 2, 3, 59, tzinfo=ZoneInfo("Europe/London"))).round
    history = rnd.history.count()
    _migrate()
    rnd.refresh_from_db()
    assert (rnd.gaming_day, rnd.session) == (date(2026, 7, 1), session)
    assert rnd.history.count() == history and TableSession.objects.filter(table=table).count() == 1
