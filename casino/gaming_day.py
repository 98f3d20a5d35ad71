"""The gaming day: the casino's business day, from its time zone and start hour.

A gaming day that starts at 06:00 in America/New_York runs from 06:00 local to 06:00
local the next day; across a daylight-saving change it is 23 or 25 hours long. Never
derived from the server clock's date.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone


def gaming_day_of(moment: datetime, time_zone: str, start_hour: int) -> date:
    """The gaming day an aware UTC ``moment`` belongs to."""
    if moment.tzinfo is None:
        raise ValueError("gaming_day_of needs an aware datetime")
    local = moment.astimezone(ZoneInfo(time_zone))
    day = local.date()
    if local.hour < start_hour:
        day -= timedelta(days=1)
    return day


def gaming_day_bounds(day: date, time_zone: str, start_hour: int) -> tuple[datetime, datetime]:
    """``[start, end)`` of a gaming day as aware datetimes (compare them with UTC columns)."""
    zone = ZoneInfo(time_zone)
    start = datetime.combine(day, time(start_hour), tzinfo=zone)
    end = datetime.combine(day + timedelta(days=1), time(start_hour), tzinfo=zone)
    return start, end


def current_gaming_day(casino, at=None) -> date:
    """The gaming day ``casino`` is in at ``at`` (now by default): the one rule above, by its settings."""
    return gaming_day_of(at or timezone.now(), casino.time_zone, casino.gaming_day_start_hour)
