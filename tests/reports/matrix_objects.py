"""The daily report the permission matrix's URLs name (a finished day, no rounds)."""

from __future__ import annotations

from datetime import date

from audit.reports.models import DailyReport


def report_matrix_objects(casino) -> dict:
    report = DailyReport.objects.create(
        casino=casino, gaming_day=date(2026, 1, 5), status=DailyReport.DONE, runs=1
    )
    return {"dailyreport": report}
