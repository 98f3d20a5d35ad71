"""Grant the app's database role what it needs, and nothing that gets around the guards.

Run as the owner (the role that ran ``migrate``), e.g.
``DATABASE_URL=$DATABASE_OWNER_URL manage.py grant_app_role casino_app``.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from casino.db_roles import grant_app_role


class Command(BaseCommand):
    help = ("Grant ROLE (the app's login) SELECT/INSERT/UPDATE/DELETE on every table (SELECT/INSERT only on "
            "append-only ones, no DELETE on guarded ones), the sequences, and the same on tables created later; "
            "no TRUNCATE, no DDL. Run as the owner after each migrate.")

    def add_arguments(self, parser):
        parser.add_argument("role")

    def handle(self, *args, role, **options):
        if connection.vendor != "postgresql":
            raise CommandError("roles exist on PostgreSQL only (DATABASE_URL must be the owner's PostgreSQL URL)")
        try:
            done = grant_app_role(role)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        for statement in done:
            self.stdout.write(statement if options["verbosity"] > 1 else "", ending="\n" if options["verbosity"] > 1
                              else "")
        self.stdout.write(self.style.SUCCESS(f'role "{role}" granted ({len(done)} statements)'))
