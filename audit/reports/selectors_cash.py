"""Reads of the report's cash side for other pages: the unexplained differences still open.

Accounting findings are append-only and have no review yet (tables/accounting/README.md), so
"open" is decided from the report: an unexplained-difference finding stands while the day's
current final report still shows that amount at that table. A re-run after a revised count or
a corrected round that changes the amount supersedes it (the new amount, if still beyond the
threshold, is a finding of its own); one that brings it within the threshold closes it.
"""

from __future__ import annotations

from casino.scoping import narrow
from tables.accounting.models import AccountingFinding

from .models import LEVEL_TABLE, DailyReport, ReportLine

RECENT = 500


def open_unexplained_findings(casino_ids, limit: int = 100, gaming_day=None) -> list[AccountingFinding]:
    """The open unexplained differences at ``casino_ids`` (None: all), of ``gaming_day`` if given,
    newest first."""
    findings = narrow(AccountingFinding.objects.filter(code=AccountingFinding.UNEXPLAINED_DIFFERENCE), casino_ids)
    if gaming_day is not None:
        findings = findings.filter(gaming_day=gaming_day)
    recent = list(findings.select_related("table__pit").order_by("-gaming_day", "-created_at")[:RECENT])
    if not recent:
        return []
    current = {
        (casino, day, int(key)): amount
        for casino, day, key, amount in ReportLine.objects.filter(
            level=LEVEL_TABLE, report__provisional=False, report__status=DailyReport.DONE,
            report__casino_id__in={f.casino_id for f in recent},
            report__gaming_day__in={f.gaming_day for f in recent},
        ).values_list("report__casino_id", "report__gaming_day", "key", "cash_unexplained")
    }
    return [f for f in recent if current.get((f.casino_id, f.gaming_day, f.table_id)) == f.amount][:limit]
