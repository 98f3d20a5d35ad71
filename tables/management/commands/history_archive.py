"""Retention of the partitioned history: list months, detach a closed month to the archive
schema, attach it back for an investigation, drop it past retention (run as the owner)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection

from tables.history import archive
from tables.history.partitions import is_partitioned, parse_month


def _month(text: str):
    try:
        return parse_month(text)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


class Command(BaseCommand):
    help = ("Months of the partitioned history: --list; --detach YYYY-MM (a closed month, to the archive "
            "schema, [--tablespace NAME]); --attach YYYY-MM (back, for an investigation); --drop YYYY-MM (an "
            "archived month past the retention period, HISTORY_RETENTION_YEARS). Each but --list needs "
            "--reason and is logged.")

    def add_arguments(self, parser):
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--list", action="store_true")
        action.add_argument("--detach", metavar="YYYY-MM")
        action.add_argument("--attach", metavar="YYYY-MM")
        action.add_argument("--drop", metavar="YYYY-MM")
        parser.add_argument("--reason", default="")
        parser.add_argument("--tablespace", default="", help="With --detach: move the month there too")

    def handle(self, *args, list=False, detach=None, attach=None, drop=None, reason="", tablespace="",  # noqa: A002
               **options):
        if not is_partitioned(connection):
            raise CommandError("this database is not partitioned (PostgreSQL only; SQLite keeps plain tables)")
        if list:
            self.stdout.write(f"retention: {settings.HISTORY_RETENTION_YEARS} years")
            for m in archive.month_states():
                where = "archived" if m.archived else "attached"
                closed = "closed" if m.closed else ("open: " + ", ".join(m.open_days) if m.open_days else "open")
                keep = "past retention" if m.past_retention else "kept"
                self.stdout.write(f"{m.month:%Y-%m}  {m.rows:>10,} rounds  {where:8}  {closed}  {keep}")
            return
        if tablespace and not detach:
            raise CommandError("--tablespace goes with --detach")
        try:
            if detach:
                event = archive.detach(_month(detach), reason=reason, tablespace=tablespace)
            elif attach:
                event = archive.attach(_month(attach), reason=reason)
            else:
                event = archive.drop(_month(drop), reason=reason)
        except DatabaseError as exc:
            raise CommandError(f"nothing changed ({exc}); run this as the tables' owner "
                               "(casino-owner-manage, deploy/README.md)") from None
        except ValidationError as exc:
            raise CommandError("; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())) from None
        rows = sum(event.partitions.values())
        self.stdout.write(self.style.SUCCESS(f"{event}: {len(event.partitions)} partitions, {rows:,} rows"))
