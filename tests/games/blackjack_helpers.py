"""Small builders for hand-worked blackjack rounds in the tests."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games import GAMES

D = Decimal
#: The three blackjack games.
KEYS = ("ante_up_21", "upcard_luck_21", "blackjack_tie")


#: Rulesets the property tests play under, by name: the card's, and three far from it.
RULESETS = {
    "default": {},
    "s17_6to5_1deck": {
        "dealer_hits_soft_17": False,
        "blackjack_pays": "6:5",
        "decks": 1,
        "rounding_unit": "0.50",
    },
    "strict": {
        "dealer_peeks": False,
        "double_on": "10_11",
        "double_after_split": False,
        "max_split_hands": 2,
        "split_any_ten_values": False,
        "decks": 2,
        "insurance": False,
    },
    "loose": {
        "double_on": "9_10_11",
        "resplit_aces": True,
        "hit_split_aces": True,
        "rounding_direction": "nearest",
        "rounding_unit": "1.00",
        "max_split_hands": 3,
    },
}


def game_and_rules(key: str, ruleset: str):
    """The game's module and the ruleset named in :data:`RULESETS`."""
    game = GAMES[key]
    return game.module, game.rules_from_dict(RULESETS[ruleset])


def simulated_rounds(rulesets: dict, examples: int, **more):
    """A hypothesis test of seeded simulated rounds: ``key``, ``ruleset`` (a name in
    ``rulesets``), ``seed`` and ``seats`` (1 to 7), and ``more`` strategies."""
    return lambda test: settings(max_examples=examples, deadline=None)(given(
        key=st.sampled_from(KEYS), ruleset=st.sampled_from(sorted(rulesets)), seed=st.integers(0, 2**32),
        seats=st.integers(1, 7), **more)(test))


def seat(number: int, wagers: dict, *hands, **extra) -> dict:
    """``seat(1, {"21": "10"}, ("TS 9H", "stand"))``: hands as (cards, actions) strings."""
    out = {"seat": number, "wagers": wagers, "hands": []}
    for h in hands:
        cards, actions = h if isinstance(h, tuple) else (h, "")
        out["hands"].append({"cards": cards.split(), "actions": actions.split()})
    out.update(extra)
    return out


def round_(dealer: str, *seats: dict, game: str | None = None) -> dict:
    data = {"dealer": {"cards": dealer.split()}, "seats": list(seats)}
    if game:
        data["game"] = game
    return data


def by_key(audit) -> dict:
    return {(s.seat, s.wager, s.hand): s for s in audit.settlements}


def codes(audit) -> list[str]:
    return sorted(f.code for f in audit.findings)
