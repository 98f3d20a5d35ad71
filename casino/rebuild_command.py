"""The one shape of the commands that rebuild a derived table from the rounds over a period of
gaming days (``rollups_rebuild``, ``ratings_rebuild``, ``advantage_lines_rebuild``): ``--from`` and
``--to`` (all days when omitted), a bad or reversed date refused with its option named."""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from casino.query_dates import date_or_none


class RebuildCommand(BaseCommand):
    def add_arguments(self, parser):
        parser.add_argument("--from", dest="since", help="First gaming day (YYYY-MM-DD); all when omitted.")
        parser.add_argument("--to", dest="until", help="Last gaming day (YYYY-MM-DD); all when omitted.")

    def rebuild(self, *, since: date | None, until: date | None) -> str:
        """Rebuild the period; what was done, in a sentence."""
        raise NotImplementedError

    def handle(self, *args, since=None, until=None, **options):
        days = {}
        for name, raw in (("--from", since), ("--to", until)):
            days[name] = date_or_none(raw) if raw else None
            if raw and days[name] is None:
                raise CommandError(f'{name}: "{raw}" is not a date (YYYY-MM-DD)')
        if days["--from"] and days["--to"] and days["--from"] > days["--to"]:
            raise CommandError("--from is after --to")
        self.stdout.write(self.rebuild(since=days["--from"], until=days["--to"]))
