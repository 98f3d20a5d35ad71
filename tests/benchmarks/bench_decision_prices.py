"""Parse and price the recorded decisions of simulated rounds, per blackjack game, cold then warm.

    .venv/bin/python -m tests.benchmarks.bench_decision_prices [--rounds 3000] [--target 2000] [--database]

What the decisions' pricing task (audit/decisions) does per round, without the database: the
game's parser, then ``tables.games.decision_prices.ROUND_PRICES`` on rounds of 2 to 5 seats
made by the game's simulator under its default rules. "cold" is a fresh process's first pass
(the strategy tables are filled as their states are met), "warm" the same rounds again. The
target: a warm worker prices ``--target`` rounds a second (ten times bench_ingest's recording
target of 200 rounds a second: one worker keeps up with a floor recording at full speed).

Poker or Bust's prices are read from the whole-game solve stored in the database
(``price_rulesets --long``): with ``--database`` the bench reads them from ``DATABASE_URL``'s
tables ("cold" then includes loading them); without it, or with none stored, the game is
skipped, saying so.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tables.games import GAMES  # noqa: E402
from tables.games.decision_prices import ROUND_PRICES  # noqa: E402
from tables.games.poker_or_bust import draw_prices  # noqa: E402
from tables.games.vocabulary.catalogue import POKER_OR_BUST  # noqa: E402


def _pass(game: str, rules, rounds: list[dict]) -> tuple[float, int]:
    module = GAMES[game].module
    price = ROUND_PRICES[game]
    decisions = 0
    started = time.perf_counter()
    for data in rounds:
        decisions += len(price(module.parse_round(data, rules), rules).decisions)
    return time.perf_counter() - started, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--target", type=float, default=2000.0, help="warm rounds a second, each game")
    parser.add_argument("--database", action="store_true",
                        help="read Poker or Bust's stored whole-game solve from DATABASE_URL")
    options = parser.parse_args(argv)
    if options.database:
        import os

        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
        django.setup()  # audit.decisions names the database as the solve's source
    missed = []
    for game in sorted(ROUND_PRICES):
        info = GAMES[game]
        rules = info.rules_from_dict({})
        if game == POKER_OR_BUST and draw_prices.stored(rules) is None:
            print(f"   {game}: skipped: no whole-game solve stored for its default rules"
                  f"{'' if options.database else ' (--database reads the stored one)'}", flush=True)
            continue
        rng = random.Random(1)
        rounds = [info.module.simulate_round(rng, rules, seats=rng.randint(2, 5)) for _ in range(options.rounds)]
        cold, decisions = _pass(game, rules, rounds)
        warm, _ = _pass(game, rules, rounds)
        rate = len(rounds) / warm
        print(f"   {game}: {decisions / len(rounds):.1f} decisions a round; cold {len(rounds) / cold:,.0f} rounds/s, "
              f"warm {rate:,.0f} rounds/s (target {options.target:,.0f})", flush=True)
        if rate < options.target:
            missed.append(game)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
