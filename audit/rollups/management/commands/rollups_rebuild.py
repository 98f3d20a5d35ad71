"""Rebuild the desk's daily rollups from the raw rounds and findings (the repair path)."""

from __future__ import annotations

from audit.rollups.writer import rollups_rebuild
from casino.rebuild_command import RebuildCommand


class Command(RebuildCommand):
    help = "Recompute the daily rollups of every (gaming day, table) with rounds in the period."

    def rebuild(self, *, since, until) -> str:
        return f"Rebuilt the rollups of {rollups_rebuild(since=since, until=until)} (gaming day, table) pairs."
