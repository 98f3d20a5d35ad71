"""Remake the count lines of advantage play from the raw round revisions (the repair path)."""

from __future__ import annotations

from audit.advantage.lines import lines_rebuild
from casino.rebuild_command import RebuildCommand


class Command(RebuildCommand):
    help = "Remake the count lines (audit/advantage) of every gaming day in the period, a day at a time."

    def rebuild(self, *, since, until) -> str:
        done, lines = lines_rebuild(since=since, until=until)
        return f"Remade {lines} count lines over {done} gaming days."
