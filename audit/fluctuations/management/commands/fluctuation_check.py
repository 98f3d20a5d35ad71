"""python manage.py fluctuation_check --gaming-day YYYY-MM-DD [--casino NAME|ID]"""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from audit.fluctuations.services import check_day
from casino.models import Casino


class Command(BaseCommand):
    help = ("Check a gaming day's holds (and, on a month's last day, the month's) against the casino's "
            "fluctuation bounds; opens the investigations not yet open. Safe to run again.")

    def add_arguments(self, parser):
        parser.add_argument("--gaming-day", required=True, help="YYYY-MM-DD")
        parser.add_argument("--casino", help="name or id (default: every casino)")

    def handle(self, *args, **options):
        try:
            day = date.fromisoformat(options["gaming_day"])
        except ValueError:
            raise CommandError(f'--gaming-day: "{options["gaming_day"]}" is not a date (YYYY-MM-DD)') from None
        casinos = Casino.objects.order_by("name")
        if options["casino"]:
            value = options["casino"]
            casinos = casinos.filter(pk=int(value)) if value.isdigit() else casinos.filter(name=value)
            if not casinos.exists():
                raise CommandError(f'--casino: no casino "{value}"')
        for casino in casinos:
            opened = check_day(casino=casino, day=day)
            self.stdout.write(f"{casino.name} {day}: {len(opened)} investigation(s) opened")
            for one in opened:
                self.stdout.write(f"  #{one.pk} {one.label} ({one.level}) {one.get_period_display()}: "
                                  f"{one.figures['why']}")
