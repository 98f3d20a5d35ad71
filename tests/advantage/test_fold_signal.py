"""Ante Up 21's fold decision in the hole-card signal: its two values knowing the hole card
(ante_up_math.fold_hole_values), their average over the hole cards against the upcard-only price,
and the signal telling a player who sees the hole card from one who plays the upcard-best fold."""

from __future__ import annotations

import random

import pytest

from audit.advantage.plays import FLAG, NONE, SeatPlay, play_figures
from tables.games import GAMES
from tables.games.blackjack.ante_up_math import (
    _add,
    fold_decision_evs,
    fold_hole_test,
    fold_hole_values,
    full_shoe13,
)
from tables.games.blackjack.strategy_math import Rules
from tables.games.vocabulary.cards import RANK, make_card, parse_card

RULES = GAMES["ante_up_21"].default_rules()
ALPHA, MIN_DEVIATIONS = 1e-4, 10  # the settings' defaults


def _cards(*texts: str) -> list[int]:
    return [parse_card(t) for t in texts]


@pytest.mark.parametrize(("hand", "up"), [(("7S", "2H"), "QD"), (("KS", "5H"), "6D"), (("AS", "TH"), "AD"),
                                          (("TS", "6H"), "KD"), (("8S", "8H"), "9D"), (("4C", "JH"), "TD")])
def test_the_values_knowing_the_hole_card_average_to_the_upcard_only_price(hand, up):
    """The hand is played alike with the hole card known or not, so averaging the known-hole values
    over the hole card's chances (before the peek: every card) gives the fold price exactly."""
    price = fold_decision_evs(RULES, _cards(*hand), parse_card(up))
    u, (a, b) = RANK[parse_card(up)], sorted(RANK[c] for c in _cards(*hand))
    left = _add(_add(_add(full_shoe13(RULES.decks), u, -1), a, -1), b, -1)
    n = sum(left)
    known = {h: fold_hole_values(RULES, u, a, b, h) for h in range(1, 14) if left[h - 1]}
    for action in ("fold", "bet"):
        assert sum(left[h - 1] / n * v[action] for h, v in known.items()) == pytest.approx(price[action], abs=1e-12)
    assert all(v["fold"] == -1.0 for v in known.values())


def test_the_hole_test_tells_a_queen_from_a_ten():
    """7-2 against a Queen: the bet is the upcard-best; folding beats it only when the dealer holds
    a pair of Queens (the poker hand tells a Queen from a ten or a King)."""
    test = fold_hole_test(RULES, _cards("7S", "2H"), parse_card("QD"), "fold", "bet")
    assert test.beats_hole(parse_card("QC")) is True
    assert test.beats_hole(parse_card("TC")) is False and test.beats_hole(parse_card("KC")) is False
    assert [rank for rank, wins in enumerate(test.beats, start=1) if wins] == [12]
    left = _add(_add(_add(full_shoe13(RULES.decks), 12, -1), 7, -1), 2, -1)
    assert test.p == pytest.approx(left[11] / sum(left), abs=1e-15)
    # The reverse deviation (betting where folding is best) wins on the other hole cards.
    reverse = fold_hole_test(RULES, _cards("TS", "6H"), parse_card("KD"), "bet", "fold")
    assert 0 < reverse.p < 1 and reverse.poker_ranks


def _deal(rng: random.Random, shoe: list[int]) -> tuple[int, int, int, int]:
    return tuple(shoe.pop(rng.randrange(len(shoe))) for _ in range(4))  # type: ignore[return-value]


def _fold_rounds(player: str, rounds: int, seed: int) -> list[tuple[SeatPlay, float]]:
    """``rounds`` fold decisions from a six-deck shoe reshuffled at 75%: ``optimal`` takes the
    upcard-best, ``hole_card`` the other action whenever it is worth more knowing the hole card."""
    rng = random.Random(seed)
    rules = Rules.of(RULES)
    fresh = [make_card(rank, suit) for rank in range(1, 14) for suit in range(4)] * RULES.decks
    shoe = list(fresh)
    out = []
    for round_id in range(1, rounds + 1):
        if len(shoe) < len(fresh) // 4:
            shoe = list(fresh)
        up, hole, c1, c2 = _deal(rng, shoe)
        price = fold_decision_evs(RULES, [c1, c2], up)
        values = {"fold": price["fold"], "bet": price["bet"]}
        action = price["best"]
        if player == "hole_card":
            a, b = sorted((RANK[c1], RANK[c2]))
            known = fold_hole_values(RULES, RANK[up], a, b, RANK[hole])
            other = "fold" if action == "bet" else "bet"
            if known[other] > known[action] + 1e-12:  # a tie (a dealer natural: both -1) is no reason
                action = other
        decision = {"hand": 0, "cards": [c1, c2], "action": action, "best": price["best"], "values": values}
        out.append((SeatPlay(round_id, "P1", rules, up, hole, [decision], RULES), 0.0))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_a_player_who_folds_on_the_hole_card_is_told_from_an_optimal_one_within_300_rounds(seed):
    hole = play_figures(_fold_rounds("hole_card", 300, seed), alpha=ALPHA, min_deviations=MIN_DEVIATIONS)
    assert hole.hole.signal == FLAG and hole.hole.p_value <= ALPHA
    assert hole.hole.observed == hole.hole.deviations >= MIN_DEVIATIONS
    assert {d.action for d in hole.deviations} <= {"fold", "bet"}
    assert hole.count.signal == NONE, "the fold decision is not an item of the count signal"
    optimal = play_figures(_fold_rounds("optimal", 300, seed), alpha=ALPHA, min_deviations=MIN_DEVIATIONS)
    assert optimal.hole.signal == NONE and not optimal.deviations
