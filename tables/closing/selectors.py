"""Reading the close and reopen history of gaming days."""

from __future__ import annotations

from datetime import date

from casino.roles import COMPLIANCE, FINANCE, GAMING_MANAGER, SURVEILLANCE
from tables.closing.models import DayClose

#: Who reads the close and reopen history (a gaming manager also reopens).
HISTORY_READERS = (FINANCE, SURVEILLANCE, COMPLIANCE, GAMING_MANAGER)


def closes(queryset=None):
    """Closes with everything the history shows, oldest first."""
    return (queryset if queryset is not None else DayClose.objects.all()).select_related(
        "casino", "final_run", "reopen__reopened_by", "reopen__before", "reopen__rerun__after",
    ).order_by("gaming_day", "closed_at", "id")


def day_history(casino_id: int, gaming_day: date) -> list[DayClose]:
    return list(closes(DayClose.objects.filter(casino_id=casino_id, gaming_day=gaming_day)))
