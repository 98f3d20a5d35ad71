"""Hold by period: per table, pit, game and floor, the statistical win, drop and hold % of any
set of date ranges (the day, month- and year-to-date, each beside the same period of the
prior year; a month and the month before it for the fluctuation check).

The money is read only through tables/accounting/selectors_win.py (``table_days`` over the
whole span, ``summed`` per unit): the one definition of statistical win and hold %. The
recorded play beside it (win, win if settled right, theoretical win and its variance) is summed
from the final daily reports' table lines (audit/reports/models.py ReportLine, level "table"),
a whole month's from its months' line (MonthTableLine, kept as the reports are done);
the period's standard deviation is the square root of the summed variances (days and tables
are independent). A unit's pit and game are the table's current ones.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Case, IntegerField, Q, Value, When

from audit.reports.models import MonthTableLine
from audit.reports.services.month_lines import (
    final_table_lines,
    month_of,
    month_play_sums,
    play_sums,
)
from casino.double_entry import ZERO
from casino.scoping import narrow
from tables.accounting.selectors_win import CashFigures, summed, table_days
from tables.games import GAMES
from tables.models import Table

CENT = Decimal("0.01")
ONE_DAY = timedelta(days=1)
LEVEL_ORDER = {"floor": 0, "pit": 1, "game": 2, "table": 3}


def prior_year(day: date) -> date:
    """The same date a year earlier (29 February falls back to the 28th)."""
    try:
        return day.replace(year=day.year - 1)
    except ValueError:
        return day.replace(year=day.year - 1, day=28)


def standard_ranges(day: date) -> dict[str, tuple[date, date]]:
    """The day, month-to-date and year-to-date, and the same periods of the prior year."""
    last = prior_year(day)
    return {"day": (day, day), "mtd": (day.replace(day=1), day), "ytd": (day.replace(month=1, day=1), day),
            "day_py": (last, last), "mtd_py": (last.replace(day=1), last),
            "ytd_py": (last.replace(month=1, day=1), last)}


@dataclass
class Play:
    """What the recorded rounds say, summed over final reports' table days."""

    win: Decimal = ZERO
    expected_win: Decimal = ZERO
    theo_win: Decimal = ZERO
    theo_var: Decimal = ZERO
    days: int = 0

    @property
    def theo_sd(self) -> Decimal:
        return self.theo_var.sqrt().quantize(CENT, rounding=ROUND_HALF_UP)

    def add(self, other: Play) -> None:
        self.win += other.win
        self.expected_win += other.expected_win
        self.theo_win += other.theo_win
        self.theo_var += other.theo_var
        self.days += other.days


@dataclass
class PeriodHold:
    start: date
    end: date
    cash: CashFigures = field(default_factory=CashFigures)
    play: Play = field(default_factory=Play)

    @property
    def stat_win(self) -> Decimal | None:
        return self.cash.stat_win if self.cash.tables else None

    @property
    def drop(self) -> Decimal | None:
        return self.cash.drop if self.cash.tables else None

    @property
    def drop_hold_pct(self) -> Decimal | None:
        return self.cash.drop_hold_pct if self.cash.tables else None


@dataclass
class UnitHolds:
    casino_id: int
    level: str
    key: str
    label: str
    game: str
    periods: dict[str, PeriodHold]

    @property
    def sort_key(self):
        return (self.casino_id, LEVEL_ORDER[self.level], self.label)


def _units_of(table: Table) -> list[tuple[str, str, str, str]]:
    """(level, key, label, game) of every unit a table's day adds to."""
    casino = table.pit.casino
    game = GAMES[table.game].name if table.game in GAMES else table.game
    return [("table", str(table.pk), f"{table.pit.name} / {table.label}", table.game),
            ("pit", str(table.pit_id), table.pit.name, ""),
            ("game", table.game, game, table.game),
            ("floor", "floor", casino.name, "")]


def _pieces(bounds: list[date]) -> tuple[dict[date, int], list[tuple[date, date, int]]]:
    """The segments between ``bounds`` (segment i: bounds[i] to the day before bounds[i+1]) cut
    into the whole months they hold (month's first day -> segment) and the spans of days left
    over at their ends (first, last, segment)."""
    months: dict[date, int] = {}
    spans: list[tuple[date, date, int]] = []
    for i, (start, stop) in enumerate(zip(bounds, bounds[1:], strict=False)):
        last = stop - ONE_DAY
        month = start if start.day == 1 else month_of(start)[1] + ONE_DAY
        if month > last or month_of(month)[1] > last:  # no whole month inside
            spans.append((start, last, i))
            continue
        if start < month:
            spans.append((start, month - ONE_DAY, i))
        while month_of(month)[1] <= last:
            months[month] = i
            month = month_of(month)[1] + ONE_DAY
        if month <= last:
            spans.append((month, last, i))
    return months, spans


def _play_by_table(casino_ids, ranges: dict[str, tuple[date, date]], tables) -> dict[tuple[int, str], Play]:
    """``(table id, range name) -> Play``: the recorded play of final, done daily reports summed
    per table and segment, the segments being the spans between the ranges' bounds (each range is
    a union of them: year to date = before the month + the month before the day + the day), then
    the segments added per range. A segment's whole months are read from the months' lines (one
    row a table and month, audit/reports/services/month_lines.py), only its leftover days from
    the daily lines: what is read does not grow with the days a range holds."""
    bounds = sorted({start for start, _ in ranges.values()} | {end + ONE_DAY for _, end in ranges.values()})
    months, spans = _pieces(bounds)
    rows = []
    if months:
        in_segment: dict[int, list[date]] = defaultdict(list)
        for month, i in months.items():
            in_segment[i].append(month)
        segment = Case(*(When(month__in=held, then=Value(i)) for i, held in in_segment.items()),
                       output_field=IntegerField())
        month_rows = narrow(MonthTableLine.objects.filter(month__in=list(months)), casino_ids, "casino")
        rows += list(month_rows.annotate(segment=segment).values("key", "segment")
                     .annotate(**{f"{k}_": v for k, v in month_play_sums().items()}).order_by())
    if spans:
        within = Q()
        for first, last, _ in spans:
            within |= Q(report__gaming_day__range=(first, last))
        segment = Case(*(When(report__gaming_day__range=(first, last), then=Value(i)) for first, last, i in spans),
                       output_field=IntegerField())
        day_rows = (final_table_lines(casino_ids).filter(within).annotate(segment=segment)
                    .values("key", "segment").annotate(**{f"{k}_": v for k, v in play_sums().items()}).order_by())
        rows += list(day_rows)
    out: dict[tuple[int, str], Play] = defaultdict(Play)
    for row in rows:
        if not row["key"].isdigit() or int(row["key"]) not in tables:
            continue
        first, last = bounds[row["segment"]], bounds[row["segment"] + 1] - ONE_DAY
        play = Play(win=row["win_"], expected_win=row["expected_"], theo_win=row["theo_"], theo_var=row["var_"],
                    days=row["days_"])
        for name, (start, end) in ranges.items():
            if start <= first and last <= end:
                out[(int(row["key"]), name)].add(play)
    return dict(out)


def holds_over(casino_ids, ranges: dict[str, tuple[date, date]], table_ids=None) -> list[UnitHolds]:
    """Every unit of the casinos' tables with its ``PeriodHold`` for each named range.

    Each table's figures are summed per range first (a table day enters each range holding it once),
    then each unit sums its tables' sums: the work per unit does not grow with the period's days."""
    first = min(start for start, _ in ranges.values())
    last = max(end for _, end in ranges.values())
    tables = narrow(Table.objects.select_related("pit__casino"), casino_ids, "pit__casino")
    if table_ids is not None:
        tables = tables.filter(pk__in=table_ids)
    tables = {t.pk: t for t in tables}
    play = _play_by_table(casino_ids, ranges, tables)
    cash: dict[tuple[int, str], CashFigures] = defaultdict(CashFigures)
    for (table_id, day), figures in table_days(casino_ids, first, last, table_ids=list(tables)).items():
        for name, (start, end) in ranges.items():
            if start <= day <= end:
                cash[(table_id, name)].add(figures)

    units: dict[tuple[int, str, str], UnitHolds] = {}
    members: dict[tuple[int, str, str], list[int]] = defaultdict(list)
    for table in tables.values():
        for level, key, label, game in _units_of(table):
            ident = (table.pit.casino_id, level, key)
            if ident not in units:
                units[ident] = UnitHolds(table.pit.casino_id, level, key, label, game,
                                         {name: PeriodHold(start, end) for name, (start, end) in ranges.items()})
            members[ident].append(table.pk)

    for ident, unit in units.items():
        for name, period in unit.periods.items():
            keys = [(t, name) for t in members[ident]]
            period.cash = summed(cash[k] for k in keys if k in cash)
            for k in keys:
                if k in play:
                    period.play.add(play[k])
    return sorted(units.values(), key=lambda u: u.sort_key)
