"""Ante Up 21: hand-worked ANTE, BET and POKER BONUS settlements and the table-rule findings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games.blackjack import ante_up_21 as game
from tables.games.settings.rulesets import AnteUp21Rules
from tables.games.vocabulary.base import InvalidInput
from tables.games.vocabulary.cards import parse_card

from .blackjack_helpers import D, by_key, codes, round_, seat

RULES = AnteUp21Rules()
POKER = {"21": "10", "ante": "10", "bet": "10"}


def run(data, rules=RULES):
    return game.audit(game.parse_round(data, rules), rules)


def test_pair_beats_qualified_dealer():
    a = run(round_("QH 7C", seat(1, POKER, ("9S 9D", "stand"))))
    s = by_key(a)
    assert s[(1, "ante", None)].net == D("10") and s[(1, "bet", None)].net == D("10")
    assert (
        s[(1, "ante", None)].explanation == "pair of 9s beats dealer Q-7; Ante and Bet win 1 to 1"
    )
    assert s[(1, "21", 0)].net == D("10")  # 18 beats the dealer's 17
    assert a.findings == ()


def test_dealer_not_qualified_ante_wins_bet_pushes():
    s = by_key(run(round_("JH 9C", seat(1, POKER, ("5S 3D 9C", "hit stand")))))
    assert s[(1, "ante", None)].net == D("10") and s[(1, "bet", None)].net == 0
    assert s[(1, "ante", None)].explanation.startswith("dealer J-9 does not qualify")


def test_qualified_dealer_beats_and_ties():
    s = by_key(
        run(
            round_(
                "KH 8C",
                seat(1, POKER, ("KS 5D 3C", "hit stand")),
                seat(2, POKER, ("KD 8S", "stand")),
            )
        )
    )
    # seat 1: best two of K-5-3 is K-5, below K-8: both lose
    assert s[(1, "ante", None)].net == D("-10") and s[(1, "bet", None)].net == D("-10")
    assert s[(2, "ante", None)].net == 0 and s[(2, "bet", None)].net == 0


def test_dealer_uses_best_two_of_all_cards_and_busted_hands_play_poker():
    # dealer 4-2-5-4-9: pair of 4s, busts with 24; player busted with J-6-T still holds J-T
    s = by_key(run(round_("4H 2C 5D 4S 9C", seat(1, POKER, ("JS 6D TC", "hit")))))
    assert s[(1, "21", 0)].net == D("-10")
    assert s[(1, "ante", None)].net == D("-10") and "pair of 4s" in s[(1, "ante", None)].explanation


def test_all_21_hands_bust_but_a_bet_keeps_the_dealer_drawing():
    data = round_("TH 5C", seat(1, POKER, ("JS 6D TC", "hit")))
    assert codes(run(data)) == ["DEALER_STOPPED_EARLY"]
    folded = round_("TH 5C", seat(1, {"21": "10", "ante": "10"}, ("JS 6D TC", "hit")))
    assert run(folded).findings == ()


def test_split_player_uses_first_two_cards():
    s = by_key(run(round_("KH 7C", seat(1, POKER, ("8S AH", "split stand"), ("8D AC", "stand")))))
    # the hands hold 8-A twice, but the poker hand is the first two cards dealt: a pair of 8s
    assert (
        s[(1, "ante", None)].explanation == "pair of 8s beats dealer K-7; Ante and Bet win 1 to 1"
    )
    assert s[(1, "21", 0)].net == D("10") and s[(1, "21", 1)].net == D("10")


def test_fold_loses_ante():
    s = by_key(run(round_("KH 7C", seat(1, {"21": "10", "ante": "5"}, ("9S 2D 7C", "hit stand")))))
    assert s[(1, "ante", None)].net == D("-5") and (1, "bet", None) not in s


def test_dealer_natural_ante_compared_bet_pushes():
    s = by_key(run(round_("AH KC", seat(1, POKER, "AS AD"), seat(2, POKER, "QS 9D"))))
    assert s[(1, "ante", None)].net == D("10") and s[(1, "bet", None)].net == 0
    assert s[(2, "ante", None)].net == D("-10") and s[(2, "bet", None)].net == 0
    assert s[(2, "21", 0)].net == D("-10")


@pytest.mark.parametrize(
    ("cards", "up", "net", "words"),
    [
        ("9S 9D", "9H", D("25"), "three of a kind"),
        ("9S 9S", "9S", D("25"), "suited three of a kind"),
        ("9S 9D", "KH", D("11"), "pair"),
        ("9S 9S", "KH", D("11"), "suited pair"),
        ("9S 8D", "8H", D("-1"), "no pair"),  # the upcard makes trips only, never a pair
    ],
)
def test_poker_bonus(cards, up, net, words):
    s = by_key(run(round_(f"{up} 8C", seat(1, {**POKER, "poker_bonus": "1"}, (cards, "stand")))))
    assert s[(1, "poker_bonus", None)].net == net
    assert s[(1, "poker_bonus", None)].explanation.startswith(words)


def test_rule_findings():
    a = run(
        round_(
            "KH 8C",
            seat(
                1, {"21": "10", "ante": "15", "bet": "10", "poker_bonus": "2"}, ("TS 9D", "stand")
            ),
        )
    )
    by = {f.code: f for f in a.findings}
    assert set(by) == {"ANTE_ABOVE_21_BET", "BET_NOT_EQUAL_ANTE", "POKER_BONUS_WRONG_AMOUNT"}
    assert (
        by["ANTE_ABOVE_21_BET"].amount == D("5")
        and by["ANTE_ABOVE_21_BET"].kind == "rule_violation"
    )
    assert by["ANTE_ABOVE_21_BET"].path == "seats[0].wagers.ante"
    assert (
        by["BET_NOT_EQUAL_ANTE"].expected == "15.00"
        and by["BET_NOT_EQUAL_ANTE"].recorded == "10.00"
    )
    a = run(
        round_("KH 8C", seat(1, {"21": "10", "ante": "10", "poker_bonus": "1"}, ("TS 9D", "stand")))
    )
    assert codes(a) == ["POKER_BONUS_WITH_FOLD"]


def test_bet_without_ante_is_impossible():
    with pytest.raises(InvalidInput) as exc:
        game.parse_round(
            round_("KH 8C", seat(1, {"21": "10", "bet": "10"}, ("TS 9D", "stand"))), RULES
        )
    assert "seats[0].wagers.bet" in exc.value.as_dict()


_card = st.integers(0, 51)


@settings(max_examples=200, deadline=None)
@given(st.lists(_card, min_size=2, max_size=7))
def test_poker_value_is_the_best_two_card_hand(cards):
    from itertools import combinations

    best = max(game.poker_value(pair) for pair in combinations(cards, 2))
    assert game.poker_value(cards) == best


def test_poker_text_and_qualify():
    assert game.poker_text(game.poker_value([parse_card("QS"), parse_card("7D")])) == "Q-7"
    assert game.qualifies(game.poker_value([parse_card("QS"), parse_card("2D")]))
    assert not game.qualifies(game.poker_value([parse_card("JS"), parse_card("TD")]))
    assert game.qualifies(game.poker_value([parse_card("2S"), parse_card("2D")]))
