"""``python manage.py decisions_rebuild [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--queue-only]``:
remake the stored prices of every recorded decision in the period from the rounds."""

from __future__ import annotations

from casino.rebuild_command import RebuildCommand

from ...rebuild import decisions_rebuild


class Command(RebuildCommand):
    help = "Remake the decisions' prices of the period (all when --from/--to are omitted)."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--queue-only", action="store_true",
                            help="queue the rounds for the workers' pricing task instead of pricing them here")

    def handle(self, *args, queue_only=False, **options):
        self.queue_only = queue_only
        super().handle(*args, **options)

    def rebuild(self, *, since, until) -> str:
        days, rounds = decisions_rebuild(since=since, until=until, queue_only=self.queue_only)
        how = "queued for the workers" if self.queue_only else "priced"
        return f"{rounds} rounds of {days} gaming days {how}"
