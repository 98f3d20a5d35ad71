"""Remake the count lines of advantage play from the raw round revisions (the repair path)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from audit.advantage.lines import lines_rebuild
from casino.query_dates import date_or_none


class Command(BaseCommand):
    help = "Remake the count lines (audit/advantage) of every gaming day in the period, a day at a time."

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="since", help="First gaming day (YYYY-MM-DD); all when omitted.")
        parser.add_argument("--to", dest="until", help="Last gaming day (YYYY-MM-DD); all when omitted.")

    def handle(self, *args, since=None, until=None, **options):
        days = {}
        for name, raw in (("--from", since), ("--to", until)):
            days[name] = date_or_none(raw) if raw else None
            if raw and days[name] is None:
                raise CommandError(f'{name}: "{raw}" is not a date (YYYY-MM-DD)')
        if days["--from"] and days["--to"] and days["--from"] > days["--to"]:
            raise CommandError("--from is after --to")
        done, lines = lines_rebuild(since=days["--from"], until=days["--to"])
        self.stdout.write(f"Remade {lines} count lines over {done} gaming days.")
