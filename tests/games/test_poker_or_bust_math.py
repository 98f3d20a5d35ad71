"""Poker or Bust game math: run() contract, reproducibility, agreement with the engine."""

from __future__ import annotations

import argparse
import json
import random
from decimal import Decimal

import pytest

from tables.games import GAMES, POKER_OR_BUST
from tables.games.poker_or_bust import game_math as pm
from tables.games.poker_or_bust import three_card_poker as tcp
from tables.games.settings.rulesets import PokerOrBustRules

# The game through its door (tables.games.GAMES), whose import imports every simulator: the
# game module alone has none registered, so run by itself this file could not simulate a round.
pb = GAMES[POKER_OR_BUST].module


def options(**over) -> dict:
    parser = argparse.ArgumentParser()
    pm.add_arguments(parser)
    opts = vars(parser.parse_args([]))
    opts.update(over)
    return opts


def test_defaults_are_the_reference_player_and_six_decks():
    opts = options()
    assert opts["decks"] == 6 and opts["draw_to"] == pb.REFERENCE_DRAW_TO
    assert opts["stand_on"] == pb.REFERENCE_STAND_ON
    assert "poker-or-bust" in pm.GAMEMATH


def test_run_reports_what_finance_needs():
    result = pm.run(options(rounds=20_000))
    json.dumps(result)  # JSON-able
    for key in (
        "ante_house_edge",
        "odds_house_edge",
        "combined_house_edge",
        "method",
        "ante_standard_error",
        "odds_standard_error",
        "ante_variance",
        "odds_variance",
    ):
        assert key in result
    assert "Monte Carlo" in result["method"] and "seed" in result["method"]
    # standard error is sqrt(variance / rounds)
    assert result["ante_standard_error"] == pytest.approx(
        (result["ante_variance"] / 20_000) ** 0.5, rel=1e-3
    )
    assert result["odds_standard_error"] == pytest.approx(
        (result["odds_variance"] / 20_000) ** 0.5, rel=1e-3
    )
    # outcome shares are probabilities
    assert sum(result["ante_outcomes"].values()) == pytest.approx(1, abs=1e-5)
    assert sum(result["odds_outcomes"].values()) == pytest.approx(1, abs=1e-5)
    # an even-money bet's variance per unit is at most 1
    assert 0.9 < result["ante_variance"] <= 1.0


def test_same_seed_same_answer_and_a_different_seed_differs():
    a = pm.run(options(rounds=5_000, seed=3))
    b = pm.run(options(rounds=5_000, seed=3))
    c = pm.run(options(rounds=5_000, seed=4))
    a.pop("seconds"), b.pop("seconds"), c.pop("seconds")
    assert a == b
    assert a != c


def test_default_table_keeps_a_house_edge_for_the_reference_player():
    # 200,000 rounds: standard error of the combined edge is about 0.2%
    result = pm.run(options(rounds=200_000))
    assert result["combined_house_edge"] > 3 * result["combined_standard_error"]
    assert 0.01 < result["combined_house_edge"] < 0.06


def test_the_old_generous_table_shows_a_player_edge():
    old = "royal_flush=50,suited_three_of_a_kind=40,straight_flush=20,three_of_a_kind=10,straight=3,flush=2,pair_jacks_or_better=1"
    result = pm.run(options(rounds=20_000, odds_paytable=old))
    assert result["odds_house_edge"] < -0.2  # why paytables.py was changed


def test_math_player_is_the_engines_reference_player():
    stand_value = (tcp.PAIR << 12) | (pb.ODDS_MIN_PAIR << 8)
    assert pm.STAND_ON_CHOICES[pb.REFERENCE_STAND_ON] << 12 | (pb.ODDS_MIN_PAIR << 8) == stand_value
    rng = random.Random(5)
    for _ in range(2000):
        cards = [rng.randrange(52) for _ in range(rng.randrange(3, 7))]
        total, value = pb.points(cards), tcp.best_value(cards)
        if total > 31:
            continue
        math_draws = total <= 21 or (total <= pb.REFERENCE_DRAW_TO and value < stand_value)
        assert pb.reference_player_draws(total, value) == math_draws


def test_math_settles_like_the_engine():
    """The math's shortcut settlement (floats per unit) agrees with the engine's audit."""
    rules = PokerOrBustRules()
    rng = random.Random(11)
    units = pm._odds_units(rules)
    for _ in range(300):
        data = pb.simulate_round(rng, rules, seats=1)
        a = pb.audit(pb.parse_round(data, rules), rules)
        cards = pb.parse_round(data, rules).seats[0].cards
        odds = next(s for s in a.settlements if s.wager == "odds")
        if pb.points(cards) > 31:
            expected = -1.0
        else:
            v = tcp.best_value(cards)
            cat = v >> 12
            if cat == tcp.PAIR:
                expected = 1.0 if (v >> 8) & 15 >= pb.ODDS_MIN_PAIR else -1.0
            else:
                expected = units[cat]
        assert Decimal(str(expected)) * odds.stake == odds.net


@pytest.mark.parametrize("bad", [{"decks": 0}, {"rounds": 1}, {"stand_on": "pair"}])
def test_bad_options_are_refused(bad):
    with pytest.raises(ValueError):
        pm.run(options(**bad))


def test_math_prices_a_short_table_at_the_best_line_each_hand_qualifies_for():
    """RULINGS.md: the math pays an Odds table without some categories as the engine does."""
    rules = PokerOrBustRules(odds_paytable={"straight": Decimal(3), "flush": Decimal(2)})
    units = pm._odds_units(rules)
    assert units[tcp.ROYAL_FLUSH] == units[tcp.STRAIGHT_FLUSH] == units[tcp.STRAIGHT] == 3.0
    assert units[tcp.SUITED_THREE_OF_A_KIND] == units[tcp.FLUSH] == 2.0
    assert units[tcp.THREE_OF_A_KIND] == units[tcp.PAIR] == units[tcp.HIGH_CARD] == -1.0
