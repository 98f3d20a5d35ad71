"""One gaming day everywhere (issue #14, part 1).

A round's gaming day is the casino's gaming day of the moment it was recorded
(``casino/gaming_day.py``), whatever day its table was opened on. Recording, the tablet's
counts, the API's filter and the daily report all agree on it, on both sides of the start
hour and across both daylight-saving changes; a table left open across the start hour rolls
its session over to the new day without losing a round.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

import tables.services.rounds as rounds_module
from audit.reports.models import DailyReport, ReportLine
from audit.reports.services.runs import report_request
from casino.gaming_day import gaming_day_bounds, gaming_day_of
from tables.models import DealerAssignment, Round, TableSession
from tables.pages.selectors import pit_live_view, table_rounds_today
from tables.services.rounds import round_record
from tables.services.sessions import (
    table_session_close,
    table_session_current,
    table_session_dealer_change,
    table_session_open,
)
from tests.conftest import api_as
from tests.factories import (
    CasinoFactory,
    DealerFactory,
    PitFactory,
    RulesetFactory,
    TableFactory,
    user_with_role,
)
from tests.reports.conftest import _eager_celery  # noqa: F401 - report runs in-process
from tests.tables.rounds_data import ROUNDS

NEW_YORK = ZoneInfo("America/New_York")
ROUND = ROUNDS["ante_up_21"]["correct"][0]


def ny(text: str) -> datetime:
    """A New York wall-clock time (unambiguous ones only)."""
    return datetime.fromisoformat(text).replace(tzinfo=NEW_YORK)


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _floor(casino_name: str = "Day Casino", start_hour: int = 6):
    casino = CasinoFactory(name=casino_name, time_zone="America/New_York", gaming_day_start_hour=start_hour)
    pit = PitFactory(casino=casino)
    table = TableFactory(pit=pit, game="ante_up_21", ruleset=RulesetFactory(game="ante_up_21", casino=casino))
    return casino, table, DealerFactory(casino=casino)


def _rounds_today(table, now) -> int:
    for pit in pit_live_view(now):
        for t in pit["tables"]:
            if t.pk == table.pk:
                return t.rounds_today
    raise AssertionError(f"table {table} is not on the floor view")


def _report_rounds(casino, day: date) -> int:
    report = report_request(casino=casino, gaming_day=day, via="command")
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    return ReportLine.objects.get(report=report, level="floor").rounds


# --- the reproduction: a table opened at 05:51, before the 06:00 start -------------------


@pytest.mark.django_db(transaction=True)
def test_rounds_recorded_after_the_start_hour_belong_to_the_new_day_everywhere():
    casino, table, dealer = _floor()
    pitboss = user_with_role("pit_boss", casinos=[casino])
    table_session_open(table=table, dealer=dealer, author=pitboss, at=ny("2026-11-22T05:51"))
    times = ["2026-11-22T05:55", "2026-11-22T06:00", "2026-11-22T06:01", "2026-11-22T07:30"]
    for t in times:
        round_record(table=table, data=ROUND, author=pitboss, at=ny(t))

    rounds = list(Round.objects.filter(table=table).order_by("sequence"))
    assert [r.gaming_day for r in rounds] == [date(2026, 11, 21)] + [date(2026, 11, 22)] * 3
    assert [r.sequence for r in rounds] == [1, 2, 3, 4]  # no round lost across the rollover
    for r in rounds:
        assert r.gaming_day == gaming_day_of(r.recorded_at, casino.time_zone, casino.gaming_day_start_hour)
        assert r.session.gaming_day == r.gaming_day

    # The tablet at 07:40 counts today's three, and its table page lists them.
    now = ny("2026-11-22T07:40")
    assert _rounds_today(table, now) == 3
    day, listed = table_rounds_today(table, now)
    assert day == date(2026, 11, 22) and listed.count() == 3

    # The API's field and filter say the same.
    client = api_as(pitboss)
    body = client.get(reverse("round-list"), {"table": table.pk, "gaming_day": "2026-11-22"}).json()
    assert body["count"] == 3
    assert {r["gaming_day"] for r in body["results"]} == {"2026-11-22"}
    assert client.get(reverse("round-list"), {"table": table.pk, "gaming_day": "2026-11-21"}).json()["count"] == 1

    # The daily reconciliation counts the same rounds as the rounds themselves say.
    assert _report_rounds(casino, date(2026, 11, 22)) == 3
    assert _report_rounds(casino, date(2026, 11, 21)) == 1


# --- the session rolls over ---------------------------------------------------------------------


@pytest.mark.django_db
def test_a_table_left_open_rolls_its_session_over_at_the_start_hour():
    casino, table, dealer = _floor()
    pitboss, other = user_with_role("pit_boss", casinos=[casino]), user_with_role("pit_boss", username="pitboss2", casinos=[casino])
    old = table_session_open(table=table, dealer=dealer, author=pitboss, at=ny("2026-11-22T05:51"))
    first = round_record(table=table, data=ROUND, author=pitboss, at=ny("2026-11-22T05:58")).round
    second = round_record(table=table, data=ROUND, author=other, at=ny("2026-11-22T06:10")).round

    old.refresh_from_db()
    new = table_session_current(table)
    assert old.gaming_day == date(2026, 11, 21) and new.gaming_day == date(2026, 11, 22)
    # Closed and opened at the start hour, not at the round: the session covers its own day.
    assert old.closed_at == ny("2026-11-22T06:00") and old.closed_by is None
    assert new.opened_at == ny("2026-11-22T06:00") and new.opened_by == pitboss and new.continues == old
    assert (first.session, second.session) == (old, new)
    # The same dealer deals on, and the assignment is split at the start hour too.
    assert [(a.dealer, a.started_at, a.ended_at) for a in DealerAssignment.objects.filter(session=old)] == [
        (dealer, ny("2026-11-22T05:51"), ny("2026-11-22T06:00"))
    ]
    assert [(a.dealer, a.started_at, a.ended_at) for a in DealerAssignment.objects.filter(session=new)] == [
        (dealer, ny("2026-11-22T06:00"), None)
    ]
    assert second.dealer == dealer
    # Both sessions' histories say why, and who was recording when it happened.
    closed = old.history.order_by("history_date", "history_id").last()
    assert "rolled over" in closed.history_change_reason and closed.history_user == other
    assert "continues" in new.history.get().history_change_reason

    # Later rounds of the day stay in the continuation, with no further statements needed.
    third = round_record(table=table, data=ROUND, author=pitboss, at=ny("2026-11-22T09:00")).round
    assert third.session == new and TableSession.objects.filter(table=table).count() == 2


@pytest.mark.django_db
def test_the_old_sessions_id_still_reaches_the_open_table():
    """A tablet or API client holding the session id from before the rollover can still change
    the dealer and close the table."""
    casino, table, dealer = _floor()
    pitboss = user_with_role("pit_boss", casinos=[casino])
    old = table_session_open(table=table, dealer=dealer, author=pitboss, at=ny("2026-11-22T05:51"))
    round_record(table=table, data=ROUND, author=pitboss, at=ny("2026-11-22T06:10"))
    relief = DealerFactory(casino=casino)
    assignment = table_session_dealer_change(session=old, dealer=relief, author=pitboss, at=ny("2026-11-22T07:00"))
    assert assignment.session.continues == old and assignment.session.closed_at is None
    closed = table_session_close(session=old, author=pitboss, at=ny("2026-11-22T08:00"))
    assert closed == assignment.session and closed.closed_at == ny("2026-11-22T08:00")
    assert table_session_current(table) is None


@pytest.mark.django_db
def test_closing_or_changing_dealers_after_the_start_hour_rolls_over_first():
    casino, table, dealer = _floor()
    pitboss = user_with_role("pit_boss", casinos=[casino])
    old = table_session_open(table=table, dealer=dealer, author=pitboss, at=ny("2026-11-22T05:51"))
    relief = DealerFactory(casino=casino)
    assignment = table_session_dealer_change(session=old, dealer=relief, author=pitboss, at=ny("2026-11-22T06:30"))
    new = assignment.session
    assert new.gaming_day == date(2026, 11, 22) and new.continues == old
    assert [(a.dealer, a.started_at, a.ended_at) for a in new.assignments.order_by("started_at")] == [
        (dealer, ny("2026-11-22T06:00"), ny("2026-11-22T06:30")),
        (relief, ny("2026-11-22T06:30"), None),
    ]
    # The next day's close: the day in between had the table open all along.
    closed = table_session_close(session=new, author=pitboss, at=ny("2026-11-23T06:05"))
    assert closed.gaming_day == date(2026, 11, 23) and closed.continues == new
    assert (closed.opened_at, closed.closed_at, closed.closed_by) == (
        ny("2026-11-23T06:00"), ny("2026-11-23T06:05"), pitboss)
    new.refresh_from_db()
    assert new.closed_at == ny("2026-11-23T06:00")


@pytest.mark.django_db
def test_a_table_idle_for_days_continues_on_the_day_of_its_next_round():
    casino, table, dealer = _floor()
    pitboss = user_with_role("pit_boss", casinos=[casino])
    old = table_session_open(table=table, dealer=dealer, author=pitboss, at=ny("2026-11-20T10:00"))
    rnd = round_record(table=table, data=ROUND, author=pitboss, at=ny("2026-11-22T08:00")).round
    old.refresh_from_db()
    assert old.closed_at == ny("2026-11-21T06:00")  # the end of its own gaming day
    assert rnd.gaming_day == rnd.session.gaming_day == date(2026, 11, 22)
    assert rnd.session.opened_at == ny("2026-11-22T06:00") and rnd.session.continues == old


@pytest.mark.django_db
def test_a_round_dated_before_its_tables_gaming_day_is_refused():
    casino, table, dealer = _floor()
    pitboss = user_with_role("pit_boss", casinos=[casino])
    table_session_open(table=table, dealer=dealer, author=pitboss, at=ny("2026-11-22T07:00"))
    with pytest.raises(ValidationError) as refused:
        round_record(table=table, data=ROUND, author=pitboss, at=ny("2026-11-22T05:00"))
    assert "gaming day 2026-11-21" in str(refused.value.message_dict["table"])
    assert not Round.objects.filter(table=table).exists()


# --- both sides of the start hour, both daylight-saving changes ----------------------------------

# (moment in UTC, its gaming day in New York with a 06:00 start)
SPRING_FORWARD = [  # 2026-03-08 02:00 EST -> 03:00 EDT
    ("2026-03-07T10:59", date(2026, 3, 6)),  # 05:59 EST
    ("2026-03-07T11:00", date(2026, 3, 7)),  # 06:00 EST
    ("2026-03-08T06:30", date(2026, 3, 7)),  # 01:30 EST
    ("2026-03-08T07:30", date(2026, 3, 7)),  # 03:30 EDT
    ("2026-03-08T09:59", date(2026, 3, 7)),  # 05:59 EDT (the 7th's day is 23 hours long)
    ("2026-03-08T10:00", date(2026, 3, 8)),  # 06:00 EDT
]
FALL_BACK = [  # 2026-11-01 02:00 EDT -> 01:00 EST
    ("2026-10-31T09:59", date(2026, 10, 30)),  # 05:59 EDT
    ("2026-10-31T10:00", date(2026, 10, 31)),  # 06:00 EDT
    ("2026-11-01T05:30", date(2026, 10, 31)),  # 01:30 EDT
    ("2026-11-01T06:30", date(2026, 10, 31)),  # 01:30 EST, the same wall clock an hour later
    ("2026-11-01T10:59", date(2026, 10, 31)),  # 05:59 EST (the 31st's day is 25 hours long)
    ("2026-11-01T11:00", date(2026, 11, 1)),  # 06:00 EST
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("moments", [SPRING_FORWARD, FALL_BACK], ids=["spring-forward", "fall-back"])
def test_rounds_around_the_start_hour_and_the_clock_changes(moments):
    casino, table, dealer = _floor()
    pitboss = user_with_role("pit_boss", casinos=[casino])
    table_session_open(table=table, dealer=dealer, author=pitboss, at=utc(moments[0][0]) - timedelta(hours=1))
    for moment, _ in moments:
        round_record(table=table, data=ROUND, author=pitboss, at=utc(moment))

    rounds = list(Round.objects.filter(table=table).order_by("sequence"))
    assert [r.gaming_day for r in rounds] == [day for _, day in moments]
    assert all(r.session.gaming_day == r.gaming_day for r in rounds)
    days = sorted({day for _, day in moments})
    for day in days:
        expected = sum(1 for _, d in moments if d == day)
        # The report selects exactly the rounds that say they are of its day...
        assert _report_rounds(casino, day) == expected, day
        # ...and the tablet, asked just before the day ends, counts the same.
        _, end = gaming_day_bounds(day, casino.time_zone, casino.gaming_day_start_hour)
        assert _rounds_today(table, end - timedelta(seconds=1)) == expected, day
        assert table_rounds_today(table, end - timedelta(seconds=1))[1].count() == expected, day


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("start_hour", "moments"),
    [
        # A start hour the spring change skips: the day begins at 03:00 EDT.
        (2, [("2026-03-08T06:59", date(2026, 3, 7)), ("2026-03-08T07:00", date(2026, 3, 8))]),
        # A start hour the fall change repeats: the day begins at the first 01:00 (EDT).
        (1, [("2026-11-01T04:59", date(2026, 10, 31)), ("2026-11-01T05:00", date(2026, 11, 1)),
             ("2026-11-01T06:30", date(2026, 11, 1))]),
    ],
    ids=["skipped-start-hour", "repeated-start-hour"],
)
def test_a_start_hour_inside_the_clock_change(start_hour, moments):
    casino, table, dealer = _floor(start_hour=start_hour)
    pitboss = user_with_role("pit_boss", casinos=[casino])
    table_session_open(table=table, dealer=dealer, author=pitboss, at=utc(moments[0][0]) - timedelta(hours=1))
    for moment, _ in moments:
        round_record(table=table, data=ROUND, author=pitboss, at=utc(moment))
    assert [r.gaming_day for r in Round.objects.filter(table=table).order_by("sequence")] == [d for _, d in moments]


ZONES = ["America/New_York", "Europe/London", "Australia/Lord_Howe", "America/Santiago", "Asia/Kolkata"]


@settings(max_examples=400, deadline=None)
@given(
    zone=st.sampled_from(ZONES),
    start_hour=st.integers(0, 23),
    moment=st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2028, 12, 31), timezones=st.just(UTC)),
)
def test_every_moment_lies_inside_the_bounds_of_its_gaming_day(zone, start_hour, moment):
    """The recording side (``gaming_day_of``) and the day's bounds agree, whatever the zone's changes."""
    day = gaming_day_of(moment, zone, start_hour)
    start, end = gaming_day_bounds(day, zone, start_hour)
    assert start <= moment < end


@pytest.mark.django_db
def test_a_close_at_the_start_hour_itself_ends_the_old_day():
    casino, table, dealer = _floor()
    pitboss = user_with_role("pit_boss", casinos=[casino])
    old = table_session_open(table=table, dealer=dealer, author=pitboss, at=ny("2026-11-22T05:51"))
    closed = table_session_close(session=old, author=pitboss, at=ny("2026-11-22T06:00"))
    assert closed == old and closed.closed_by == pitboss and TableSession.objects.filter(table=table).count() == 1


@pytest.mark.django_db
def test_the_tablet_says_when_an_open_table_will_roll_over():
    from django.utils import timezone

    casino, table, dealer = _floor()
    pitboss = user_with_role("pit_boss", casinos=[casino])
    table_session_open(table=table, dealer=dealer, author=pitboss, at=timezone.now() - timedelta(days=2))
    client = api_as(pitboss)
    page = client.get(reverse("tablet-table", args=[table.pk])).content.decode()
    assert "rolls over to" in page
    response = client.post(reverse("round-list"), {"table": table.pk, "round": ROUND}, format="json")
    assert response.status_code == 201, response.content
    today = gaming_day_of(timezone.now(), casino.time_zone, casino.gaming_day_start_hour)
    assert response.json()["gaming_day"] == today.isoformat()
    page = client.get(reverse("tablet-table", args=[table.pk])).content.decode()
    assert "rolls over to" not in page
    assert _rounds_today(table, timezone.now()) == 1


@pytest.mark.django_db
def test_the_demo_loaded_at_13_51_in_new_york_puts_each_round_on_its_own_day(monkeypatch, settings):
    """The issue's demo: play from 05:51 (eight hours before loading), across the 06:00 start."""
    from django.utils import timezone

    from casino.demo.floor import demo_floor_load, demo_rounds_load

    settings.CASINO_TIME_ZONE = "America/New_York"
    monkeypatch.setattr(timezone, "now", lambda: ny("2026-11-22T13:51"))
    demo_floor_load()
    recorded = demo_rounds_load(rounds_per_table=24, error_rate=0)
    rounds = list(Round.objects.filter(table__pit__casino__name="Demo Casino").select_related("session"))
    assert recorded == len(rounds) > 0
    days = {r.gaming_day for r in rounds}
    # Play from 05:51 straddles the day's start; the demo's finished day is the one before.
    assert days == {date(2026, 11, 20), date(2026, 11, 21), date(2026, 11, 22)}
    assert all(r.gaming_day == r.session.gaming_day == gaming_day_of(r.recorded_at, "America/New_York", 6)
               for r in rounds)
    # Dealers rotated after the rollover (round 20, about 06:16), on the continuation session.
    assert DealerAssignment.objects.filter(session__gaming_day=date(2026, 11, 22)).count() > len(
        {r.table_id for r in rounds})
    assert _rounds_today(rounds[0].table, ny("2026-11-22T13:51")) == sum(
        1 for r in rounds if r.table_id == rounds[0].table_id and r.gaming_day == date(2026, 11, 22))


@pytest.mark.django_db
def test_the_floor_view_counts_todays_active_rounds_and_their_open_findings_only():
    """Yesterday's rounds and a voided round of today count neither as rounds nor as findings."""
    from tables.services.rounds import round_void

    casino, table, dealer = _floor()
    pitboss = user_with_role("pit_boss", casinos=[casino])
    table_session_open(table=table, dealer=dealer, author=pitboss, at=ny("2026-11-21T20:00"))
    wrong = ROUNDS["ante_up_21"]["underpay"][0]
    round_record(table=table, data=wrong, author=pitboss, at=ny("2026-11-21T21:00"))  # yesterday
    today = [round_record(table=table, data=data, author=pitboss, at=ny(at)).round
             for data, at in ((wrong, "2026-11-22T07:00"), (wrong, "2026-11-22T07:05"), (ROUND, "2026-11-22T07:10"))]
    round_void(round=today[1], reason="dealt at the wrong table", author=pitboss, at=ny("2026-11-22T07:06"))
    expected_findings = Round.objects.get(pk=today[0].pk).open_findings
    assert expected_findings > 0
    now = ny("2026-11-22T07:40")
    [row] = [t for pit in pit_live_view(now) for t in pit["tables"] if t.pk == table.pk]
    assert (row.rounds_today, row.open_findings_today) == (2, expected_findings)


@pytest.mark.django_db
@pytest.mark.parametrize("hour", ["06:30", "13:51", "14:30", "23:00", "05:30"])
def test_the_whole_demo_loads_at_any_hour_of_the_gaming_day(monkeypatch, settings, hour):
    """In a gaming day's first eight hours today's play starts in yesterday, so the story's
    finished day is the day before yesterday, which was also the table accounting's cash-only
    day: its opener took a closer that day's own opener had already taken (UNIQUE previous_id)
    and `make run` failed from 06:00 to 14:00 in the casino's zone. The cash-only day is the
    day before the finished day now, at every hour."""
    from django.core.management import call_command
    from django.utils import timezone

    from tables.accounting.models import InventorySlip

    settings.CASINO_TIME_ZONE = "America/New_York"
    now = ny(f"2026-11-22T{hour}")
    monkeypatch.setattr(timezone, "now", lambda: now)
    call_command("load_demo", "--rounds", "6", stdout=StringIO())
    finished = min(Round.objects.values_list("gaming_day", flat=True))
    assert finished == gaming_day_of(now - timedelta(hours=8), "America/New_York", 6) - timedelta(days=1)
    openers = InventorySlip.objects.filter(kind=InventorySlip.OPENER)
    assert openers.filter(gaming_day=finished - timedelta(days=1)).exists()  # the cash-only day
    assert openers.filter(gaming_day=finished).exists()  # the finished day, kept in money too
    assert not Round.objects.filter(gaming_day__lt=finished).exists()


@pytest.mark.django_db
def test_a_round_waiting_for_the_tables_lock_across_the_start_hour_is_recorded_in_the_new_day(monkeypatch):
    """Two pit bosses at one table a moment apart around the start hour: the second waits for
    the table's lock while the first's round rolls the session over. The waiting round is timed
    when it gets the lock (rounds at a table are recorded one at a time, in the lock's order),
    so it lands in the new day instead of being refused as a moment before the open session's
    day (bench_ingest saw two such 400s at 03:00 Pacific)."""
    casino, table, dealer = _floor()
    pitboss, other = user_with_role("pit_boss", casinos=[casino]), user_with_role("pit_boss", username="pitboss2", casinos=[casino])
    table_session_open(table=table, dealer=dealer, author=pitboss, at=ny("2026-11-22T05:51"))
    clock = {"now": ny("2026-11-22T05:59:59.990")}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    lock_table = rounds_module._lock_table
    waited = []

    def lock_after_the_other(table_id):
        if not waited:  # the first request waits while the other is recorded after the start hour
            waited.append(True)
            clock["now"] = ny("2026-11-22T06:00:00.010")
            round_record(table=table, data=ROUND, author=other)
        return lock_table(table_id)

    monkeypatch.setattr(rounds_module, "_lock_table", lock_after_the_other)
    waiting = round_record(table=table, data=ROUND, author=pitboss).round
    assert waiting.gaming_day == date(2026, 11, 22) and waiting.recorded_at == ny("2026-11-22T06:00:00.010")
    assert list(Round.objects.filter(table=table).order_by("sequence").values_list("recorded_by", flat=True)) == [
        other.pk, pitboss.pk]
