"""``python manage.py gamemath <wager> ... --json``: exact game math for finance and auditors.

The calculations live in the pure engine (``tables.games.*_math``); each module declares
``GAMEMATH = {"name": (add_arguments, run)}`` where ``run(options) -> dict``.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from tables.games.blackjack import game_math as blackjack_math
from tables.games.poker_or_bust import game_math as poker_or_bust_math
from tables.games.vocabulary.base import InvalidInput

SUBCOMMANDS = {**blackjack_math.GAMEMATH, **poker_or_bust_math.GAMEMATH}


class Command(BaseCommand):
    help = "Exact (or well-converged) house edge and outcome probabilities of the games' wagers."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="wager", required=True, metavar="WAGER")
        for name, (add_arguments, _run) in SUBCOMMANDS.items():
            p = sub.add_parser(name, help=(_run.__doc__ or "").strip().splitlines()[0] if _run.__doc__ else None)
            p.add_argument("--json", action="store_true", help="print one JSON object")
            add_arguments(p)

    def handle(self, *args, **options):
        _add, run = SUBCOMMANDS[options["wager"]]
        try:
            result = run(options)
        except (InvalidInput, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        if options["json"]:
            self.stdout.write(json.dumps(result, indent=2, default=str))
        else:
            for key, value in result.items():
                self.stdout.write(f"{key}: {json.dumps(value, default=str)}")
