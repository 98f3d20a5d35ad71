"""Recompute the months' table lines (audit/reports/models.py MonthTableLine) from the final daily
reports: after an upgrade that adds them, a bulk load, or to check them (deploy/README.md §10)."""

from __future__ import annotations

from audit.reports.services.month_lines import month_lines_rebuild
from casino.rebuild_command import RebuildCommand


class Command(RebuildCommand):
    help = "Recompute the months' table lines of the final daily reports (--from/--to: the months holding them)."

    def rebuild(self, *, since, until) -> str:
        return f"{month_lines_rebuild(since=since, until=until)} (casino, month) pairs recomputed"
