"""Cut the rating sessions again from the raw rounds (the repair path; after a bulk load or a
change of RATING_GAP_MINUTES to a shorter threshold)."""

from __future__ import annotations

from audit.ratings.writer import ratings_rebuild
from casino.rebuild_command import RebuildCommand


class Command(RebuildCommand):
    help = "Recompute the rating sessions of every (gaming day, table) with rounds in the period."

    def rebuild(self, *, since, until) -> str:
        return f"Rebuilt the rating sessions of {ratings_rebuild(since=since, until=until)} (gaming day, table) pairs."
