"""``python manage.py price_rulesets [--ruleset-version PK] [--long [--jobs N]]``: store the engine's exact house edges now.

What the beat task ``reports.wager_odds_compute`` does every minute, without waiting for it:
every ruleset version not priced yet (or the one given) gets its exact figures, one line per
version saying how (computed, copied from a version with the same settings, or why there are
none). The quick start (``make run``) runs it in the background for the demo's rulesets.

``--long`` also solves what the beat task leaves for it because it takes hours (Poker or Bust's
whole decks: about 1.1 CPU-hours at six decks, ``--jobs 2`` halves the wall time), for the
versions marked priced without figures; docs/operations explains when to run it.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tables.models import RulesetVersion

from ...services.odds import versions_unpriced, wager_odds_compute
from ...theoretical import PRICED_GAMES


class Command(BaseCommand):
    help = "Store the engine's exact house edges of every ruleset version that has none yet."

    def add_arguments(self, parser):
        parser.add_argument("--ruleset-version", dest="ruleset_version", type=int,
                            help="only this ruleset version (its id)")
        parser.add_argument("--long", action="store_true",
                            help="also solve what takes hours (Poker or Bust), for versions left without figures")
        parser.add_argument("--jobs", type=int, default=1, help="processes for a long solve (default 1)")

    def handle(self, *args, **options):
        if options["ruleset_version"] is not None:
            version = RulesetVersion.objects.filter(pk=options["ruleset_version"]).first()
            if version is None:
                raise CommandError(f"--ruleset-version {options['ruleset_version']}: no such ruleset version")
            versions = [version]
        elif options["long"]:
            versions = [v for v in RulesetVersion.objects.order_by("pk") if v.game in PRICED_GAMES]
        else:
            versions = list(versions_unpriced())
        if options["jobs"] < 1:
            raise CommandError("--jobs: at least 1")
        for version in versions:
            how = wager_odds_compute(version=version, long_solve=options["long"], jobs=options["jobs"])
            self.stdout.write(f"{version.ruleset.name}, version {version.number} ({version.get_game_display()}): {how}")
        if not versions:
            self.stdout.write("every ruleset version is priced")
