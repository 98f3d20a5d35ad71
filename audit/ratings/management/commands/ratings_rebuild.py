"""Cut the rating sessions again from the raw rounds (the repair path; after a bulk load or a
change of RATING_GAP_MINUTES to a shorter threshold)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from audit.ratings.writer import ratings_rebuild
from casino.query_dates import date_or_none


class Command(BaseCommand):
    help = "Recompute the rating sessions of every (gaming day, table) with rounds in the period."

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
        done = ratings_rebuild(since=days["--from"], until=days["--to"])
        self.stdout.write(f"Rebuilt the rating sessions of {done} (gaming day, table) pairs.")
