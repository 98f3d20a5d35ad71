"""The 21 bet's exact edge against simulation: rounds dealt by the engine's simulator from a full
shoe, played by the strategy the edge assumes (optimal composition-dependent play read from the
same tables, no insurance or even money) and settled by the engine's audit, average back to the
edge within their sampling interval. A cross-check of the combinatorial figure, not its source.

On the 21 bet's anchor shoe (6 decks, S17): its worker has computed the shoe's tables for the
calculator's figure already (``xdist_group``)."""

from __future__ import annotations

import math
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games import GAMES
from tables.games.blackjack import strategy_math as sm
from tables.games.blackjack.dealer_odds import rank_index
from tables.games.blackjack.simulate import simulate
from tables.games.vocabulary.catalogue import INSURANCE, W21

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("strategy-6d-s17")]

S17_6D = sm.Rules(decks=6, h17=False)
GAME = GAMES["blackjack_tie"]
RULES = GAME.rules_from_dict({"decks": 6, "dealer_hits_soft_17": False})
ROUNDS = 6000


def _values(cards, up: int, *, after_split: bool, may_split: bool) -> dict[str, float]:
    ranks = [rank_index(c) for c in cards]
    removed = [0] * 10
    for r in ranks:
        removed[r] += 1
    values = sm.table_values(sm.upcard_table(S17_6D, rank_index(up)), tuple(removed), ranks,
                             after_split=after_split, may_split=may_split)
    values.pop(INSURANCE, None)
    values.pop(sm.EVEN_MONEY, None)
    return values


class OptimalPlayer:
    """Plays every hand as the edge's tables say is best from the hand's cards and the upcard."""

    def split(self, pair: int, second: int, up: int) -> bool:
        return sm.best_action(_values((pair, second), up, after_split=False, may_split=True)) == sm.SPLIT

    def play(self, cards, up: int, can_double: bool, after_split: bool) -> str:
        values = _values(cards, up, after_split=after_split, may_split=False)
        values.pop(sm.SPLIT, None)
        if not can_double:
            values.pop(sm.DOUBLE, None)
        return sm.best_action(values)


def test_the_table_is_the_anchor_shoe():
    assert sm.Rules.of(RULES) == S17_6D


@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_simulated_rounds_average_back_to_the_exact_edge(seed):
    rng = random.Random(seed)
    player = OptimalPlayer()
    nets = []
    for _ in range(ROUNDS):
        data = simulate(GAME.key, rng, RULES, seats=1, player=player)
        seat = data["seats"][0]
        stake = Decimal(seat["wagers"][W21])
        nets.append(float(sum(Decimal(p["net"]) for p in seat["paid"] if p["wager"] == W21) / stake))
    edge = sm.twenty_one_edge(S17_6D)
    mean = sum(nets) / len(nets)
    spread = math.sqrt((edge.second_moment - edge.expected ** 2) / len(nets))
    # Four standard errors: a miss by chance about once in 16,000 runs.
    assert abs(mean - edge.expected) < 4 * spread, (mean, edge.expected, spread)


class AlwaysStands(OptimalPlayer):
    def split(self, pair: int, second: int, up: int) -> bool:
        return False

    def play(self, cards, up: int, can_double: bool, after_split: bool) -> str:
        return sm.STAND


def test_the_interval_tells_a_worse_player_from_the_edge():
    """The check can fail: a player who always stands loses ~15% of his bets, far outside it."""
    rng = random.Random(7)
    nets = []
    for _ in range(ROUNDS):
        seat = simulate(GAME.key, rng, RULES, seats=1, player=AlwaysStands())["seats"][0]
        stake = Decimal(seat["wagers"][W21])
        nets.append(float(sum(Decimal(p["net"]) for p in seat["paid"] if p["wager"] == W21) / stake))
    edge = sm.twenty_one_edge(S17_6D)
    spread = math.sqrt((edge.second_moment - edge.expected ** 2) / len(nets))
    assert sum(nets) / len(nets) < edge.expected - 4 * spread
