"""Rebuild the desk's daily rollups from the raw rounds and findings (the repair path), and the
decisions' prices the desk's play-quality figures read (audit/decisions) with them."""

from __future__ import annotations

from audit.decisions.rebuild import decisions_rebuild
from audit.rollups.writer import rollups_rebuild
from casino.rebuild_command import RebuildCommand


class Command(RebuildCommand):
    help = ("Recompute the daily rollups of every (gaming day, table) with rounds in the period, and the "
            "prices of its recorded decisions.")

    def rebuild(self, *, since, until) -> str:
        pairs = rollups_rebuild(since=since, until=until)
        days, rounds = decisions_rebuild(since=since, until=until)
        return (f"Rebuilt the rollups of {pairs} (gaming day, table) pairs and the decisions' prices of "
                f"{rounds} rounds over {days} gaming days.")
