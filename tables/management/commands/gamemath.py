"""``python manage.py gamemath <wager> ... --json``: exact game math for finance and auditors.

The calculations live in the pure engine (``tables.games.*_math``); each module declares
``GAMEMATH = {"name": (add_arguments, run)}`` where ``run(options) -> dict``.

Two subcommands take a game and its ruleset (``--game GAME --rules JSON``, the JSON a ruleset
version stores; missing settings take the card's default):

* ``edge``: ``{"game", "wagers": {WAGER: {"house_edge", "variance", "method": "exact",
  "strategy", "exact": {...}}}}``, every wager of the game that has exact math so far;
* ``decision --hand 7S,5H,4C --upcard TD``: ``{"actions": {ACTION: ev}, "best": ACTION}``, per
  unit of the 21 bet (the blackjack games) or of the ANTE (Poker or Bust); ``--wager ante``
  prices Ante Up 21's fold-or-bet decision instead, per unit of the ANTE.

``edge`` reads the engine's registry (``tables.games.edges``, which the reports' theoretical
win stores per ruleset version); ``decision`` is a registry of one function per game
(:data:`DECISION`): a game that gets its exact math adds one entry.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from tables.games import GAMES
from tables.games.blackjack import ante_up_math, strategy_math
from tables.games.blackjack import game_math as blackjack_math
from tables.games.edges import EDGE, NotExact, wager_edges
from tables.games.poker_or_bust import exact as poker_or_bust_exact
from tables.games.poker_or_bust import game_math as poker_or_bust_math
from tables.games.vocabulary.base import InvalidInput
from tables.games.vocabulary.catalogue import (
    ANTE_UP_21,
    BLACKJACK_TIE,
    POKER_OR_BUST,
    UPCARD_LUCK_21,
)

SUBCOMMANDS = {**blackjack_math.GAMEMATH, **poker_or_bust_math.GAMEMATH}

#: game -> decision(rules, hand text, upcard text) -> {"actions": {...}, "best": ...}.
DECISION = {
    ANTE_UP_21: strategy_math.decision_json,
    UPCARD_LUCK_21: strategy_math.decision_json,
    BLACKJACK_TIE: strategy_math.decision_json,
    POKER_OR_BUST: poker_or_bust_exact.decision_json,
}

#: game -> the decision that prices a wager other than the game's main one (``--wager``).
SIDE_DECISION = {
    (ANTE_UP_21, "ante"): ante_up_math.fold_decision_json,
}


def _rules(game: str, text: str | None):
    try:
        data = json.loads(text) if text else {}
    except json.JSONDecodeError as exc:
        raise CommandError(f"--rules is not valid JSON: {exc}") from exc
    return GAMES[game].rules_from_dict(data)


class Command(BaseCommand):
    help = "Exact (or well-converged) house edge and outcome probabilities of the games' wagers."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="wager", required=True, metavar="WAGER")
        for name, (add_arguments, _run) in SUBCOMMANDS.items():
            p = sub.add_parser(name, help=(_run.__doc__ or "").strip().splitlines()[0] if _run.__doc__ else None)
            p.add_argument("--json", action="store_true", help="print one JSON object")
            add_arguments(p)
        edge = sub.add_parser("edge", help="every exact wager of a game under a ruleset")
        edge.add_argument("--game", required=True, choices=sorted(EDGE))
        edge.add_argument("--long", action="store_true",
                          help="solve even where it takes hours (Poker or Bust: about 1.1 CPU-hours at six decks)")
        edge.add_argument("--jobs", type=int, default=1, help="processes for a long solve (default 1)")
        decision = sub.add_parser("decision", help="the expected value of each legal player action")
        decision.add_argument("--game", required=True, choices=sorted(DECISION))
        decision.add_argument("--hand", required=True, help="the player's cards, e.g. 7S,5H,4C")
        decision.add_argument("--upcard", required=True, help="the dealer's upcard, e.g. TD")
        decision.add_argument("--after-split", dest="after_split", action="store_true",
                              help="the hand is one of a split (no natural, no insurance; DAS rule)")
        decision.add_argument("--wager", dest="priced", choices=["main", "ante"], default="main",
                              help="main: the game's main decision (hit, stand, ... or draw, stand); "
                                   "ante: Ante Up 21's fold or bet, seeing two cards and the upcard")
        for p in (edge, decision):
            p.add_argument("--rules", help="the ruleset as JSON (missing settings take the card's default)")
            p.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **options):
        try:
            result = self._run(options)
        except (InvalidInput, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        if options["json"]:
            self.stdout.write(json.dumps(result, indent=2, default=str))
        else:
            for key, value in result.items():
                self.stdout.write(f"{key}: {json.dumps(value, default=str)}")

    def _progress(self, upcard: int, n: int, hands: int, error: float) -> None:
        """A long solve's progress on stderr: stdout stays the one JSON object."""
        self.stderr.write(f"upcard {upcard}: hands of {n} cards done, {hands:,} priced, bound so far {error:.2g}")

    def _run(self, options) -> dict:
        name = options["wager"]
        if name == "edge":
            game = options["game"]
            if (options.get("jobs") or 1) < 1:
                raise CommandError("--jobs: at least 1")
            try:
                wagers = wager_edges(game, _rules(game, options.get("rules")), long_solve=bool(options.get("long")),
                                     jobs=options.get("jobs") or 1, progress=self._progress)
                return {"game": game, "wagers": wagers}
            except NotExact as exc:
                raise CommandError(f"{game}: no exact figures for these rules: {exc}") from exc
        if name == "decision":
            game = options["game"]
            wager = options.get("priced") or "main"
            if wager != "main":
                side = SIDE_DECISION.get((game, wager))
                if side is None:
                    raise CommandError(f"--wager {wager}: {game} has no such decision")
                if options.get("after_split"):
                    raise CommandError("--after-split: the fold decision is made before any split")
                return side(_rules(game, options.get("rules")), options["hand"], options["upcard"])
            return DECISION[game](
                _rules(game, options.get("rules")), options["hand"], options["upcard"],
                after_split=bool(options.get("after_split")),
            )
        _add, run = SUBCOMMANDS[name]
        return run(options)
