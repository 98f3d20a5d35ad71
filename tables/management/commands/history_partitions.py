"""List the partitions of the history tables and make the months ahead (run as the owner)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection
from django.utils import timezone

from tables.history.partitions import (
    default_rows,
    ensure_months,
    is_partitioned,
    next_month,
    partitions,
)


class Command(BaseCommand):
    help = ("List the monthly partitions of rounds, revisions, wagers, findings and their histories with "
            "their rows; --ahead N makes the partitions of this month and the N after it (DDL: run as the "
            "tables' owner, daily from its cron). Warns about rows waiting in a default partition.")

    def add_arguments(self, parser):
        parser.add_argument("--ahead", type=int, help="Make partitions up to this many months past this one")

    def handle(self, *args, ahead=None, **options):
        if not is_partitioned(connection):
            raise CommandError("this database is not partitioned (PostgreSQL only; SQLite keeps plain tables)")
        if ahead is not None:
            if ahead < 0:
                raise CommandError("--ahead: give 0 or more months")
            today = timezone.now().date()
            last = today.replace(day=1)
            for _ in range(ahead):
                last = next_month(last)
            try:
                made = ensure_months(today, last)
            except DatabaseError as exc:
                raise CommandError(f"partitions not made ({exc}): run this as the tables' owner "
                                   "(casino-owner-manage, deploy/README.md)") from None
            self.stdout.write(f"made {len(made)} partition(s)" + (": " + ", ".join(made) if made else ""))
        for table, name, bounds, rows in partitions():
            self.stdout.write(f"{table:26} {name:34} {rows:>12,}  {bounds}")
        waiting = default_rows()
        for table, months in waiting.items():
            for month, rows in months:
                self.stderr.write(self.style.WARNING(
                    f"{table}_default holds {rows:,} row(s) of {month}: run with --ahead covering that month "
                    "(or `history_partitions` makes it when the month is in range); they are moved in one "
                    "transaction"))
