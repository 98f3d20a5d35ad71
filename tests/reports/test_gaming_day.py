"""Gaming days across daylight-saving changes, and beat starting the day that just ended."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from audit.reports.models import DailyReport, ReportLine
from audit.reports.selectors import day_bounds
from audit.reports.services.runs import gaming_days_close, report_request
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.factories import (
    DealerFactory,
    PitFactory,
    RulesetFactory,
    TableFactory,
    user_with_role,
)
from tests.reports.helpers import casino_since
from tests.tables.rounds_data import ROUNDS

UTC = UTC


@pytest.fixture
def casino(db):
    return casino_since(
        date(2026, 1, 1), name="DST Casino", time_zone="America/New_York", gaming_day_start_hour=6
    )


def test_bounds_around_the_changes(casino):
    # Spring forward (2026-03-08 02:00 EST -> 03:00 EDT): the gaming day of the 7th is 23 hours.
    start, end = day_bounds(casino, date(2026, 3, 7))
    assert start == datetime(2026, 3, 7, 11, tzinfo=UTC) and end == datetime(
        2026, 3, 8, 10, tzinfo=UTC
    )
    # Fall back (2026-11-01 02:00 EDT -> 01:00 EST): the gaming day of Oct 31st is 25 hours.
    start, end = day_bounds(casino, date(2026, 10, 31))
    assert start == datetime(2026, 10, 31, 10, tzinfo=UTC) and end == datetime(
        2026, 11, 1, 11, tzinfo=UTC
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("day", "times", "inside"),
    [
        # Spring forward: 05:59 EST on the 7th belongs to the 6th; 05:59 EDT on the 8th to the 7th.
        (
            date(2026, 3, 7),
            [
                "2026-03-07T10:59",
                "2026-03-07T11:00",
                "2026-03-08T06:30",
                "2026-03-08T09:59",
                "2026-03-08T10:00",
            ],
            [False, True, True, True, False],
        ),
        # Fall back: 01:30 happens twice on Nov 1st (EDT then EST), both inside the 31st's day.
        (
            date(2026, 10, 31),
            [
                "2026-10-31T09:59",
                "2026-10-31T10:00",
                "2026-11-01T05:30",
                "2026-11-01T06:30",
                "2026-11-01T10:59",
                "2026-11-01T11:00",
            ],
            [False, True, True, True, True, False],
        ),
    ],
)
def test_the_day_around_a_change_holds_exactly_its_rounds(casino, day, times, inside):
    pitboss = user_with_role("pit_boss", casinos=[casino])
    table = TableFactory(
        pit=PitFactory(casino=casino),
        game="ante_up_21",
        ruleset=RulesetFactory(game="ante_up_21", casino=casino),
    )
    table_session_open(
        table=table,
        dealer=DealerFactory(casino=casino),
        author=pitboss,
        at=datetime.fromisoformat(times[0]).replace(tzinfo=UTC) - timedelta(hours=1),
    )
    for t in times:
        round_record(
            table=table,
            data=ROUNDS["ante_up_21"]["correct"][0],
            author=pitboss,
            at=datetime.fromisoformat(t).replace(tzinfo=UTC),
        )
    report = report_request(casino=casino, gaming_day=day, via="command")
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    floor = ReportLine.objects.get(report=report, level="floor")
    assert floor.rounds == sum(inside)


@pytest.mark.django_db(transaction=True)
def test_beat_starts_each_casino_day_once_it_has_ended(casino, settings):
    settings.REPORTS_CLOSE_DELAY_MINUTES = 10
    las_vegas = casino_since(
        date(2026, 1, 1), name="West", time_zone="America/Los_Angeles", gaming_day_start_hour=4
    )
    DailyReport.objects.create(
        casino=las_vegas, gaming_day=date(2026, 3, 6), status=DailyReport.DONE, runs=1
    )
    # 2026-03-08 10:05 UTC = 06:05 EDT (New York's day of the 7th ended 5 minutes ago: too soon)
    # and 03:05 PDT (the 7th is still going on in Los Angeles; its 6th is already reported).
    started = gaming_days_close(now=datetime(2026, 3, 8, 10, 5, tzinfo=UTC), catch_up_days=1)
    assert started == []
    started = gaming_days_close(now=datetime(2026, 3, 8, 10, 11, tzinfo=UTC), catch_up_days=1)
    assert [(r.casino, r.gaming_day) for r in started] == [(casino, date(2026, 3, 7))]
    # 11:01 UTC = 04:01 PDT: Los Angeles' 7th ended at 04:00 PDT; after the delay it is started.
    assert gaming_days_close(now=datetime(2026, 3, 8, 11, 1, tzinfo=UTC), catch_up_days=1) == []
    started = gaming_days_close(now=datetime(2026, 3, 8, 11, 11, tzinfo=UTC), catch_up_days=1)
    assert [(r.casino, r.gaming_day) for r in started] == [(las_vegas, date(2026, 3, 7))]
    assert (
        DailyReport.objects.filter(gaming_day=date(2026, 3, 7), status=DailyReport.DONE).count()
        == 2
    )


def test_beat_schedule_is_set_in_utc(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["reports-close-gaming-days"]
    assert entry["task"] == "reports.close_gaming_days"
    assert settings.CELERY_TIMEZONE == "UTC" and entry["schedule"] <= 3600


@pytest.mark.django_db(transaction=True)
def test_liability_comes_from_the_jackpot_ledger(casino):
    from audit.jackpots.selectors import liability_report
    from audit.jackpots.services import jackpot_bank_create

    report = report_request(casino=casino, gaming_day=date(2026, 3, 7), via="command")
    report.refresh_from_db()
    floor = ReportLine.objects.get(report=report, level="floor")
    assert (floor.liability_opening, floor.liability_closing) == (0, 0)
    assert "No jackpot bank" in report.summary["liability"]["reason"]
    table = TableFactory(
        pit=PitFactory(casino=casino),
        game="upcard_luck_21",
        ruleset=RulesetFactory(game="upcard_luck_21", casino=casino),
    )
    bank = jackpot_bank_create(
        casino=casino,
        name="Main",
        author=user_with_role("gaming_manager"),
        reason="bench",
        tables=[table],
    )
    report = report_request(casino=casino, gaming_day=date(2026, 3, 7), via="command")
    report.refresh_from_db()
    floor = ReportLine.objects.get(report=report, level="floor")
    ledger = liability_report(day_from=date(2026, 3, 7), day_to=date(2026, 3, 7), banks=[bank])
    total = next(r for r in ledger.rows if r.line == "total")
    assert (floor.liability_opening, floor.liability_closing) == (total.opening, total.closing)
    assert report.summary["liability"]["available"] and any(
        "Main" in k for k in report.summary["liability"]["by_line"]
    )
