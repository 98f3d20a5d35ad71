"""``python manage.py price_rulesets [--ruleset-version PK]``: store the engine's exact house edges now.

What the beat task ``reports.wager_odds_compute`` does every minute, without waiting for it:
every ruleset version not priced yet (or the one given) gets its exact figures, one line per
version saying how (computed, copied from a version with the same settings, or why there are
none). The quick start (``make run``) runs it in the background for the demo's rulesets.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tables.models import RulesetVersion

from ...services.odds import versions_unpriced, wager_odds_compute


class Command(BaseCommand):
    help = "Store the engine's exact house edges of every ruleset version that has none yet."

    def add_arguments(self, parser):
        parser.add_argument("--ruleset-version", dest="ruleset_version", type=int,
                            help="only this ruleset version (its id)")

    def handle(self, *args, **options):
        if options["ruleset_version"] is not None:
            version = RulesetVersion.objects.filter(pk=options["ruleset_version"]).first()
            if version is None:
                raise CommandError(f"--ruleset-version {options['ruleset_version']}: no such ruleset version")
            versions = [version]
        else:
            versions = list(versions_unpriced())
        for version in versions:
            how = wager_odds_compute(version=version)
            self.stdout.write(f"{version.ruleset.name}, version {version.number} ({version.get_game_display()}): {how}")
        if not versions:
            self.stdout.write("every ruleset version is priced")
