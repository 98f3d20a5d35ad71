from datetime import UTC, date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.gaming_day import gaming_day_bounds, gaming_day_of

NY = "America/New_York"


def test_before_start_hour_belongs_to_previous_day():
    # 05:59 local (EST, UTC-5) on Jan 10 is still the gaming day of Jan 9.
    assert gaming_day_of(datetime(2026, 1, 10, 10, 59, tzinfo=UTC), NY, 6) == date(2026, 1, 9)
    assert gaming_day_of(datetime(2026, 1, 10, 11, 0, tzinfo=UTC), NY, 6) == date(2026, 1, 10)


def test_spring_forward_day_is_23_hours():
    # DST starts 02:00 local on Mar 8: the gaming day of Mar 7 runs 06:00 EST -> 06:00 EDT.
    start, end = gaming_day_bounds(date(2026, 3, 7), NY, 6)
    assert start.astimezone(UTC) == datetime(2026, 3, 7, 11, 0, tzinfo=UTC)
    assert end.astimezone(UTC) == datetime(2026, 3, 8, 10, 0, tzinfo=UTC)
    assert (end.astimezone(UTC) - start.astimezone(UTC)).total_seconds() == 23 * 3600


def test_fall_back_day_is_25_hours():
    start, end = gaming_day_bounds(date(2026, 10, 31), NY, 6)  # DST ends 02:00 local Nov 1
    assert (end.astimezone(UTC) - start.astimezone(UTC)).total_seconds() == 25 * 3600


def test_naive_datetime_refused():
    with pytest.raises(ValueError, match="aware"):
        gaming_day_of(datetime(2026, 1, 1, 12), NY, 6)


@given(st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2035, 1, 1), timezones=st.just(UTC)),
       st.integers(min_value=0, max_value=23))
def test_moment_lies_within_its_gaming_day(moment, hour):
    day = gaming_day_of(moment, NY, hour)
    start, end = gaming_day_bounds(day, NY, hour)
    assert start <= moment < end
