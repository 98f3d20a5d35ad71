"""Make or raise each table's round counter from its rounds (the repair path, tables.models.RoundCounter)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tables.services.rounds import round_counters_rebuild


class Command(BaseCommand):
    help = ("Make each table's round counter from the highest sequence of its rounds, or raise it to it "
            "(after rounds were loaded around the recorder); a counter ahead is kept.")

    def handle(self, *args, **options):
        done = round_counters_rebuild()
        self.stdout.write(f"{done} round counters made or raised.")
