"""Hand-worked table days for the fluctuation tests: ``fake_cash`` stands in for
tables/accounting/selectors_win.table_days (it answers the days of the asked range, as the real
one does), ``report_line`` writes a final report's table line (the recorded play)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

from audit.reports.models import DailyReport, ReportLine
from audit.reports.services.month_lines import month_lines_refresh
from tables.accounting.selectors_win import CashFigures


def day(opener, closer, drop, fills=0, credits=0, estimated=0) -> CashFigures:
    return CashFigures(opener=D(opener), closer=D(closer), drop=None if drop is None else D(drop), fills=D(fills),
                       credits=D(credits), estimated_drop=D(estimated))


def fake_cash(monkeypatch, data: dict[tuple[int, date], CashFigures]) -> list:
    calls = []

    def table_days(casino_ids, first_day, last_day=None, table_ids=None):
        calls.append((first_day, last_day))
        last_day = last_day or first_day
        return {k: v for k, v in data.items()
                if first_day <= k[1] <= last_day and (table_ids is None or k[0] in table_ids)}

    monkeypatch.setattr("audit.fluctuations.periods.table_days", table_days)
    return calls


def report_line(casino, table, gaming_day: date, *, win, expected, theo, sd, provisional=False, level="table"):
    report, _ = DailyReport.objects.get_or_create(
        casino=casino, gaming_day=gaming_day, provisional=provisional,
        defaults={"status": DailyReport.DONE, "runs": 1})
    line = ReportLine.objects.create(report=report, level=level, key=str(table.pk), label=table.label,
                                     win=D(win), expected_win=D(expected), theo_win=D(theo), theo_sd=D(sd))
    if not provisional:  # as the report's run does when it is done (audit/reports/services/runs.py)
        month_lines_refresh(casino.pk, gaming_day)
    return line
