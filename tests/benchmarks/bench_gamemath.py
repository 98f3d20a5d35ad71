"""Time each exact game-math calculation of tables.games.blackjack.game_math from a cold cache.

The issue's budget is about 30 s per ``gamemath`` command for an 8-deck shoe; this prints
one line per calculation and deck count and exits non-zero if any misses it::

    .venv/bin/python tests/benchmarks/bench_gamemath.py [--decks 1 2 6 8] [--target 30]

``--rounds`` is accepted for symmetry with the other benchmarks and ignored: exact math
has no rounds to simulate.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tables.games.blackjack import dealer_odds  # noqa: E402
from tables.games.blackjack import game_math as bm  # noqa: E402
from tables.games.settings import paytables as pt  # noqa: E402

CALCULATIONS = {
    "upcard-luck": lambda decks: bm.upcard_luck_run({"decks": decks, "paytable": "A"}),
    # A shoe the card has no column for is priced with the 6-deck column.
    "taxpayers-fortune": lambda decks: bm.taxpayers_fortune_run(
        {
            "decks": decks,
            "jackpot_column": json.dumps(pt.JACKPOT_COLUMNS.get(decks, pt.JACKPOT_COLUMNS[6])),
        }
    ),
    "poker-bonus": lambda decks: bm.poker_bonus_run({"decks": decks}),
    "dealer": lambda decks: bm.dealer_run({"decks": decks, "rule": "H17", "exact": True}),
}


def _clear_caches() -> None:
    for fn in (
        bm._priced_three_card_odds,
        bm._taxpayers_fortune_odds,
        dealer_odds._dealer_final,
    ):
        fn.cache_clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, nargs="+", default=[1, 2, 6, 8])
    parser.add_argument(
        "--target", type=float, default=30.0, help="seconds allowed per calculation"
    )
    parser.add_argument("--rounds", type=int, default=None, help="ignored (exact math)")
    args = parser.parse_args(argv)
    missed = False
    for name, calculate in CALCULATIONS.items():
        for decks in args.decks:
            _clear_caches()
            start = time.perf_counter()
            calculate(decks)
            took = time.perf_counter() - start
            ok = took <= args.target
            missed |= not ok
            print(
                f"{name}: {decks} decks in {took:.3f} s (target {args.target:g} s){'' if ok else '  MISSED'}"
            )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
