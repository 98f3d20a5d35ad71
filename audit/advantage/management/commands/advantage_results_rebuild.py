"""Recount the stored advantage-play results (audit/advantage/results.py) of a period's gaming days."""

from __future__ import annotations

from audit.advantage.results import results_rebuild
from casino.rebuild_command import RebuildCommand


class Command(RebuildCommand):
    help = ("Recount the advantage-play day (all tables and each table) of every gaming day in the period that "
            "has count lines, per casino, and store it as the desk page and the API read it.")

    def rebuild(self, *, since, until) -> str:
        days, stored = results_rebuild(since=since, until=until)
        return f"Stored {stored} advantage-play results over {days} gaming days."
