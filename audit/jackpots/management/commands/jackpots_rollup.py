"""Verify the jackpot ledger's daily balance rollup against the legs, or rebuild it from them."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from audit.jackpots.models import JackpotBank
from audit.jackpots.rollup import rollup_rebuild, rollup_verify


class Command(BaseCommand):
    help = ("Compare every bank's daily balance rollup (what the jackpot pages read) with the ledger legs "
            "and exit 1 listing each difference; --rebuild recomputes it from the legs (the repair path).")

    def add_arguments(self, parser):
        parser.add_argument("--bank", type=int, help="Only this bank (id).")
        parser.add_argument("--rebuild", action="store_true", help="Recompute the rollup from the legs.")

    def handle(self, *args, bank=None, rebuild=False, **options):
        banks = JackpotBank.objects.order_by("pk")
        if bank is not None:
            banks = banks.filter(pk=bank)
            if not banks.exists():
                raise CommandError(f"--bank: no jackpot bank {bank}")
        problems = []
        for row in banks:
            if rebuild:
                with transaction.atomic():
                    written = rollup_rebuild(row)
                self.stdout.write(f"{row}: rollup rebuilt from the legs ({written} rows)")
            problems += [f"{row}: {p}" for p in rollup_verify(row)]
        if problems:
            for problem in problems:
                self.stdout.write(problem)
            raise CommandError(f"{len(problems)} problem(s): the rollup disagrees with the ledger legs "
                               "(jackpots_rollup --rebuild recomputes it)")
        self.stdout.write(self.style.SUCCESS("jackpot rollup agrees with the ledger legs"))
