"""Poker or Bust game math: house edge and variance of Ante and Odds under a reference player.

``python manage.py gamemath poker-or-bust --decks 6 --json`` runs :func:`run`.

Method: Monte Carlo with a fixed seed (so the answer is reproducible), because an exact
computation would have to enumerate the dealer's draws (to 23 or more, often six or
seven cards) against the player's draws with suits mattering for flushes, from a finite
shoe: far beyond what a management command should do. Each simulated round is one
player heads-up against the dealer, dealt without replacement from a freshly shuffled
shoe of ``--decks`` decks (other players' cards are not known to either hand and change
the odds by a negligible amount). The player follows :func:`~tables.games.poker_or_bust.game.
reference_player_draws` (``--draw-to`` and ``--stand-on`` explore others):

* always draw at 21 or less - the next card cannot bust and more cards can only improve
  the best three;
* from 22, stand on a pair of Jacks or better, otherwise draw while at 25 or less.

With the default pay table this rule gave the house the least of every simple rule
tried (draw to 22..30 x stand on nothing, a pair of Jacks, a flush, a straight, three of
a kind), so the quoted hold is the conservative one. Results are per unit wagered on each bet: ``ante_house_edge`` is
minus the Ante's mean net, ``odds_house_edge`` the Odds', both with their standard error
(``sqrt(variance / rounds)``) and the variance per unit wager that finance needs for
confidence intervals on a day's hold. ``combined_house_edge`` is per unit of total
action (Ante + Odds, two units a round) with its own variance, because the two bets of
one round are strongly correlated (a bust loses both).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Mapping
from decimal import Decimal

from ..settings.config import config_from_dict
from ..settings.rulesets import PokerOrBustRules
from ..vocabulary.cards import BJ_POINTS
from . import three_card_poker as tcp
from .game import (
    BUST_ABOVE,
    DEALER_STANDS_FROM,
    ODDS_MIN_PAIR,
    REFERENCE_DRAW_TO,
    REFERENCE_STAND_ON,
    odds_lines,
)

DEFAULT_ROUNDS = 2_000_000
STAND_ON_WORDS = {
    "never": "nothing",
    "pair_jacks": "a pair of Jacks",
    "flush": "a flush",
    "straight": "a straight",
    "three_of_a_kind": "three of a kind",
}
STAND_ON_CHOICES = {
    "never": 99,
    "pair_jacks": tcp.PAIR,  # checked together with the pair's rank
    "flush": tcp.FLUSH,
    "straight": tcp.STRAIGHT,
    "three_of_a_kind": tcp.THREE_OF_A_KIND,
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--decks", type=int, default=6, help="decks in the shoe (default 6)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=DEFAULT_ROUNDS,
        help=f"simulated rounds (default {DEFAULT_ROUNDS:,}, about 30 s)",
    )
    parser.add_argument(
        "--seed", type=int, default=20240601, help="random seed (fixed: reproducible)"
    )
    parser.add_argument(
        "--draw-to",
        type=int,
        default=REFERENCE_DRAW_TO,
        help=f"player draws while at this total or less (default {REFERENCE_DRAW_TO})",
    )
    parser.add_argument(
        "--stand-on",
        choices=tuple(STAND_ON_CHOICES),
        default=REFERENCE_STAND_ON,
        help=f"from 22 up, the player stands on this hand or better (default {REFERENCE_STAND_ON})",
    )
    parser.add_argument(
        "--odds-paytable",
        default=None,
        help='another Odds table to price, as "flush=1,straight=2,..." (keys of the ruleset\'s '
        "odds_paytable; a hand is paid at the best line it qualifies for)",
    )


def _parse_paytable(text: str | None) -> Mapping[str, Decimal] | None:
    if not text:
        return None
    table = {}
    for part in text.split(","):
        key, _, odds = part.partition("=")
        table[key.strip()] = odds.strip()
    return table


def _odds_units(rules: PokerOrBustRules) -> list[float]:
    """Odds net per unit, indexed by ``value >> 12``: the engine's best line for each
    category (:func:`~tables.games.poker_or_bust.game.odds_lines`); a pair's is for Jacks or
    better (lower pairs are the caller's: they lose)."""
    return [-1.0 if line is None else float(line[1]) for line in odds_lines(rules.odds_paytable)]


def simulate(
    rounds: int, *, decks: int, seed: int, draw_to: int, stand_on: str, rules: PokerOrBustRules
) -> dict:
    """Counts of every (Ante result, Odds result) pair over ``rounds`` heads-up rounds."""
    rng = random.Random(seed)
    rand = rng.random
    size = 52 * decks
    pts = BJ_POINTS
    best = tcp.best_value
    stand_cat = STAND_ON_CHOICES[stand_on]
    stand_value = (stand_cat << 12) | ((ODDS_MIN_PAIR << 8) if stand_cat == tcp.PAIR else 0)
    odds_units = _odds_units(rules)
    pair_units = odds_units[tcp.PAIR]
    joint: dict[tuple[float, float], int] = {}
    player_cards: dict[int, int] = {}
    dealer_busts = player_busts = 0
    used = [0] * 52

    def draw() -> int:
        """Without replacement: a uniform shoe position, kept if that copy is still there."""
        while True:
            r = int(rand() * size)
            c = r % 52
            if r // 52 >= used[c]:
                used[c] += 1
                return c

    for _ in range(rounds):
        used = [0] * 52
        p = [draw(), draw()]
        d = [draw(), draw()]
        p.append(draw())
        total = pts[p[0]] + pts[p[1]] + pts[p[2]]
        while total <= 21 or (total <= draw_to and best(p) < stand_value):
            c = draw()
            p.append(c)
            total += pts[c]
        n = len(p)
        player_cards[n] = player_cards.get(n, 0) + 1
        if total > BUST_ABOVE:
            player_busts += 1
            key = (-1.0, -1.0)
        else:
            pv = best(p)
            cat = pv >> 12
            if cat == tcp.PAIR:
                odds = pair_units if (pv >> 8) & 15 >= ODDS_MIN_PAIR else -1.0
            else:
                odds = odds_units[cat]
            c = draw()
            d.append(c)
            dt = pts[d[0]] + pts[d[1]] + pts[c]
            while dt < DEALER_STANDS_FROM:
                c = draw()
                d.append(c)
                dt += pts[c]
            if dt > BUST_ABOVE:
                dealer_busts += 1
                ante = 1.0
            else:
                dv = best(d)
                ante = 1.0 if pv > dv else -1.0 if pv < dv else 0.0
            key = (ante, odds)
        joint[key] = joint.get(key, 0) + 1
    return {
        "joint": joint,
        "player_cards": player_cards,
        "dealer_busts": dealer_busts,
        "player_busts": player_busts,
    }


def _moments(counts: Mapping[float, int], n: int) -> tuple[float, float]:
    mean = sum(x * k for x, k in counts.items()) / n
    var = sum((x - mean) ** 2 * k for x, k in counts.items()) / (n - 1)
    return mean, var


def run(options: dict) -> dict:
    """Poker or Bust: house edge and variance of Ante and Odds (Monte Carlo, fixed seed)."""
    decks = options.get("decks", 6)
    rounds = options.get("rounds", DEFAULT_ROUNDS)
    seed = options.get("seed", 20240601)
    draw_to = options.get("draw_to", REFERENCE_DRAW_TO)
    stand_on = options.get("stand_on", REFERENCE_STAND_ON)
    if not isinstance(decks, int) or not 1 <= decks <= 8:
        raise ValueError("--decks must be 1 to 8")
    if not isinstance(rounds, int) or rounds < 2:
        raise ValueError("--rounds must be at least 2")
    if stand_on not in STAND_ON_CHOICES:
        raise ValueError(f"--stand-on must be one of {', '.join(STAND_ON_CHOICES)}")
    rules_data: dict = {"decks": decks}
    table = _parse_paytable(options.get("odds_paytable"))
    if table is not None:
        rules_data["odds_paytable"] = table
    rules = config_from_dict(PokerOrBustRules, rules_data)

    started = time.perf_counter()
    sim = simulate(rounds, decks=decks, seed=seed, draw_to=draw_to, stand_on=stand_on, rules=rules)
    elapsed = time.perf_counter() - started
    joint = sim["joint"]
    ante_counts: dict[float, int] = {}
    odds_counts: dict[float, int] = {}
    both_counts: dict[float, int] = {}
    for (a, o), k in joint.items():
        ante_counts[a] = ante_counts.get(a, 0) + k
        odds_counts[o] = odds_counts.get(o, 0) + k
        both_counts[(a + o) / 2] = both_counts.get((a + o) / 2, 0) + k
    ante_mean, ante_var = _moments(ante_counts, rounds)
    odds_mean, odds_var = _moments(odds_counts, rounds)
    both_mean, both_var = _moments(both_counts, rounds)
    busts = sim["player_busts"]
    return {
        "game": "poker_or_bust",
        "method": (
            f"Monte Carlo, {rounds:,} heads-up rounds, seed {seed}, {decks}-deck shoe shuffled "
            f"every round; reference player: draw at 21 or less, from 22 stand on "
            f"{STAND_ON_WORDS[stand_on]} or better, else draw while at {draw_to} or less"
        ),
        "rounds": rounds,
        "decks": decks,
        "seed": seed,
        "strategy": {"draw_to": draw_to, "stand_on": stand_on},
        "odds_paytable": {k: str(v) for k, v in rules.odds_paytable.items()},
        "odds_paytable_note": "The card gives no Odds table ('see layout'): the default is illustrative; "
        "the house must set its own and price it with --odds-paytable.",
        "ante_house_edge": round(-ante_mean, 6),
        "ante_standard_error": round(math.sqrt(ante_var / rounds), 6),
        "ante_variance": round(ante_var, 6),
        "odds_house_edge": round(-odds_mean, 6),
        "odds_standard_error": round(math.sqrt(odds_var / rounds), 6),
        "odds_variance": round(odds_var, 6),
        "combined_house_edge": round(-both_mean, 6),
        "combined_standard_error": round(math.sqrt(both_var / rounds), 6),
        "combined_variance": round(both_var, 6),
        "ante_odds_correlation": round(
            _correlation(joint, ante_mean, odds_mean, ante_var, odds_var, rounds), 6
        ),
        "player_bust_rate": round(busts / rounds, 6),
        "dealer_bust_rate": round(sim["dealer_busts"] / rounds, 6),  # of all rounds
        "player_cards": {
            str(k): round(v / rounds, 6) for k, v in sorted(sim["player_cards"].items())
        },
        "odds_outcomes": {str(k): round(v / rounds, 6) for k, v in sorted(odds_counts.items())},
        "ante_outcomes": {str(k): round(v / rounds, 6) for k, v in sorted(ante_counts.items())},
        "seconds": round(elapsed, 1),
    }


def _correlation(
    joint: Mapping[tuple[float, float], int], ma: float, mo: float, va: float, vo: float, n: int
) -> float:
    cov = sum((a - ma) * (o - mo) * k for (a, o), k in joint.items()) / (n - 1)
    return cov / math.sqrt(va * vo) if va > 0 and vo > 0 else 0.0


GAMEMATH = {"poker-or-bust": (add_arguments, run)}
