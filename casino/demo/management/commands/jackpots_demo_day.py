from django.core.management.base import BaseCommand
from django.db import transaction

from audit.jackpots.reconcile import jackpot_recompute
from audit.jackpots.selectors import liability_report
from casino.demo.jackpots import jackpot_demo_day_load


class Command(BaseCommand):
    help = "Load a simulated gaming day on a linked bank of Upcard Luck 21 tables and print its reconciliation."

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=180)
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, rounds, seed, **options):
        with transaction.atomic():
            loaded = jackpot_demo_day_load(rounds=rounds, seed=seed)
        report = liability_report(
            day_from=loaded["day"], day_to=loaded["day"], banks=[loaded["bank"]]
        )
        for row in report.rows:
            self.stdout.write(str(row.as_dict()))
        for key, value in report.banks[0].items():
            self.stdout.write(f"{key}: {value}")
        check = jackpot_recompute(loaded["bank"])
        self.stdout.write(
            f"recomputation from {check.rounds} rounds: {'matches' if check.ok else (check.differences, check.award_mismatches, check.round_mismatches, check.rollup_mismatches)}"
        )
