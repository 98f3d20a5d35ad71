"""A month- or year-to-date report adds up the daily reports' money in SQL: to the cent on
SQLite too, whose SUM of a decimal column is float arithmetic (0.10 + 0.20 - 0.30 is 5.55e-17)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from audit.reports.exporters import period_data
from audit.reports.models import DailyReport, ReportLine, ReportWagerLine
from tests.factories import PitFactory

pytestmark = pytest.mark.django_db


def test_period_sums_of_money_are_whole_cents():
    casino = PitFactory().casino
    for day, amount in zip((1, 2, 3), ("0.10", "0.20", "-0.30"), strict=True):
        report = DailyReport.objects.create(casino=casino, gaming_day=date(2026, 7, day), status=DailyReport.DONE,
                                            provisional=False)
        ReportLine.objects.create(report=report, level="floor", key="floor", label="Floor", win=Decimal(amount),
                                  handle=Decimal("100.00"), error_cost=Decimal(amount))
        ReportWagerLine.objects.create(report=report, level="floor", key="floor", label="Floor", game="g",
                                       wager="main", basis="b", win=Decimal(amount), handle=Decimal("100.00"),
                                       error_cost=Decimal(amount))
    data = period_data(casino, date(2026, 7, 1), date(2026, 7, 31), "month to date")
    (floor,) = data.levels["floor"]
    (wager,) = data.wagers
    for row in (floor, wager):
        assert row["win"] == row["error_cost"] == Decimal("0.00")
        assert row["win"].as_tuple().exponent == -2 and row["handle"] == Decimal("300.00")
