"""The close that stands for a day. The writers' refusal of a closed day and the day's lock are
beneath the close, in tables/closed_days.py."""

from __future__ import annotations

from datetime import date

from tables.closing.models import DayClose


def day_close_current(casino_id: int, gaming_day: date) -> DayClose | None:
    """The close that stands (no reopen after it), if the day is closed."""
    return (DayClose.objects.filter(casino_id=casino_id, gaming_day=gaming_day, reopen__isnull=True)
            .order_by("-closed_at").first())
