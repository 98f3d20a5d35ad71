"""The months' table lines (models.MonthTableLine): each month's final, done daily reports' table
lines summed per table, kept as the reports change.

The one definition of what a month holds is :func:`month_sums`, used by the keeper and by the
rebuild alike. A month is recomputed whole (one aggregate over at most 31 reports' lines) in the
transaction that makes one of its final reports done or takes one out of done (a re-run), under
a transaction-scoped advisory lock of the (casino, month) on PostgreSQL: two reports of the month
finishing at once are summed one after the other, the second seeing the first's lines.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from django.db import connection, transaction
from django.db.models import Count, F, Sum

from audit.reports.models import LEVEL_TABLE, DailyReport, MonthTableLine, ReportLine
from casino.money import decimal_sum, money_sum

#: A variance's places: the square of a standard deviation in cents.
VARIANCE = Decimal("0.0001")
#: The advisory-lock key space of the months' sums (tables/closing and the report slices use theirs).
_MONTH_LOCK_SPACE = 0x3A7


def month_of(day: date) -> tuple[date, date]:
    """The first and last day of ``day``'s month."""
    first = day.replace(day=1)
    return first, (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)


def final_table_lines(casino_ids=None):
    """The table lines of final, done daily reports (of ``casino_ids``; all when None)."""
    lines = ReportLine.objects.filter(level=LEVEL_TABLE, report__provisional=False, report__status=DailyReport.DONE)
    return lines if casino_ids is None else lines.filter(report__casino__in=casino_ids)


def play_sums() -> dict:
    """The aggregates of recorded play over table lines: ``win``, ``expected``, ``theo``, ``var``
    (the summed variance), ``days`` (lines summed)."""
    return {"win": money_sum("win"), "expected": money_sum("expected_win"), "theo": money_sum("theo_win"),
            "var": decimal_sum(F("theo_sd") * F("theo_sd"), VARIANCE),
            "days": Count("id")}


def month_play_sums() -> dict:
    """The same aggregates (:func:`play_sums`' names) over months' lines, which hold those sums."""
    return {"win": money_sum("win"), "expected": money_sum("expected_win"), "theo": money_sum("theo_win"),
            "var": decimal_sum("theo_var", VARIANCE), "days": Sum("days")}


def month_sums(casino_id: int, month: date) -> list[MonthTableLine]:
    first, last = month_of(month)
    rows = (final_table_lines([casino_id]).filter(report__gaming_day__range=(first, last))
            .values("key").annotate(**play_sums()).order_by("key"))
    return [MonthTableLine(casino_id=casino_id, month=first, key=row["key"], win=row["win"],
                           expected_win=row["expected"], theo_win=row["theo"], theo_var=row["var"], days=row["days"])
            for row in rows]


@transaction.atomic
def month_lines_refresh(casino_id: int, day: date) -> None:
    """Recompute the month of ``day`` at the casino (a final report of it changed status)."""
    first, _ = month_of(day)
    if connection.vendor == "postgresql":
        # One bigint: the space, the casino (28 bits) and the month's first day's ordinal (20 bits).
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)",
                           [(_MONTH_LOCK_SPACE << 48) | (int(casino_id) << 20) | first.toordinal()])
    MonthTableLine.objects.filter(casino_id=casino_id, month=first).delete()
    MonthTableLine.objects.bulk_create(month_sums(casino_id, first))


def month_lines_rebuild(*, since: date | None = None, until: date | None = None) -> int:
    """Recompute every month with a final report between ``since`` and ``until`` (whole months);
    how many (casino, month) pairs."""
    reports = DailyReport.objects.filter(provisional=False)
    if since:
        reports = reports.filter(gaming_day__gte=month_of(since)[0])
    if until:
        reports = reports.filter(gaming_day__lte=month_of(until)[1])
    months = {(casino_id, month_of(day)[0]) for casino_id, day in reports.values_list("casino_id", "gaming_day")}
    with transaction.atomic():
        stale = MonthTableLine.objects.all()
        if since:
            stale = stale.filter(month__gte=month_of(since)[0])
        if until:
            stale = stale.filter(month__lte=month_of(until)[0])
        stale.delete()
        for casino_id, month in sorted(months):
            MonthTableLine.objects.bulk_create(month_sums(casino_id, month))
    return len(months)
