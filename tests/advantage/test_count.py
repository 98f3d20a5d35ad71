"""The Hi-Lo count walk (pure): hand-worked counts, shoe splits, and a full shoe counting to 0."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.advantage.bets import round_bets, round_cards
from audit.advantage.count import (
    CARD_REPEATED,
    FIRST_ROUND,
    HI_LO,
    NEW_DEALER,
    NEW_DECKS,
    NEW_SESSION,
    SHOE_PASSED,
    RoundCards,
    hi_lo,
    walk,
)
from tables.games.vocabulary.cards import Shoe, parse_card


def rc(seq: int, texts: str, *, decks: int = 1, table: int = 1, session: int = 1, dealer: int = 1,
       bets=()) -> RoundCards:
    return RoundCards(round_id=seq, table_id=table, table_label=f"T{table}", sequence=seq, session_id=session,
                      dealer_id=dealer, decks=decks, cards=tuple(parse_card(t) for t in texts.split()), bets=bets)


def test_hi_lo_tags():
    assert [HI_LO[parse_card(t)] for t in ["2S", "3H", "4D", "5C", "6S", "7H", "8D", "9C", "TS", "JH", "QD", "KC", "AS"]] == [
        1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1, -1]


def test_hand_worked_running_and_true_count_of_a_one_deck_sequence():
    rounds = [
        rc(1, "QH 7C 9S 9D"),        # Q -1, 7 0, 9 0, 9 0           -> after: -1, 4 seen
        rc(2, "5H 6C TD 2S 3D 4H"),  # 5 6 +2, T -1, 2 3 4 +3 = +4   -> after: +3, 10 seen
        rc(3, "AS KD 8H 8C"),        # A K -2, 8 8 0 = -2            -> after: +1, 14 seen
        rc(4, "2H 2D"),
    ]
    counted = list(walk(rounds))
    assert [c.running_count for c in counted] == [0, -1, 3, 1]
    assert [c.cards_seen for c in counted] == [0, 4, 10, 14]
    # Decks remaining = (52 - seen) / 52: 1, 48/52, 42/52, 38/52.
    # True count = running / decks remaining: 0; -1 / (48/52) = -52/48 = -1.0833;
    # 3 / (42/52) = 156/42 = 3.7143; 1 / (38/52) = 52/38 = 1.3684.
    assert [round(c.true_count, 4) for c in counted] == [0.0, -1.0833, 3.7143, 1.3684]
    assert [c.shoe for c in counted] == [1, 1, 1, 1]
    assert [c.new_shoe_reason for c in counted] == [FIRST_ROUND, None, None, None]


def test_true_count_floors_decks_remaining_at_half_a_deck():
    # 1 deck: 48 cards seen before the last round (4 left = 0.077 decks), floored at 0.5.
    deck = Shoe(1).cards()
    low_first = sorted(deck, key=lambda c: -HI_LO[c])  # the 20 low cards come first: running +20
    rounds = [RoundCards(round_id=i, table_id=1, table_label="T1", sequence=i, session_id=1, dealer_id=1, decks=1,
                         cards=tuple(low_first[i * 4:i * 4 + 4])) for i in range(13)]
    last = list(walk(rounds))[-1]
    assert last.cards_seen == 48 and last.decks_remaining == 0.5
    assert last.running_count == hi_lo(low_first[:48])  # +20 low, 12 neutral, -16 of the 20 high = +4
    assert last.running_count == 4 and last.true_count == 8.0


def test_a_card_seen_more_often_than_the_shoe_holds_it_starts_a_new_shoe():
    counted = list(walk([rc(1, "QH 7C 9S 9D"), rc(2, "2S 3S 4S 5S"), rc(3, "QH 2H 3H 4H"), rc(4, "5H 6H")]))
    # Round 3's QH was dealt in round 1 of a one-deck shoe: shuffled before round 3.
    assert [c.new_shoe_reason for c in counted] == [FIRST_ROUND, None, CARD_REPEATED, None]
    assert [c.shoe for c in counted] == [1, 1, 2, 2]
    assert [c.running_count for c in counted] == [0, -1, 0, 2]  # QH -1, 2 3 4 +3 -> +2


def test_a_second_copy_fits_a_two_deck_shoe():
    counted = list(walk([rc(1, "QH 7C", decks=2), rc(2, "QH 7C", decks=2), rc(3, "QH 2C", decks=2)]))
    assert [c.new_shoe_reason for c in counted] == [FIRST_ROUND, None, CARD_REPEATED]


def test_new_session_dealer_deck_count_and_table_start_new_shoes():
    counted = list(walk([
        rc(1, "2S 3S"), rc(2, "4S 5S", session=2), rc(3, "6S 7S", session=2, dealer=2),
        rc(4, "8S 9S", session=2, dealer=2, decks=2), rc(1, "2H 3H", table=2),
    ]))
    assert [c.new_shoe_reason for c in counted] == [FIRST_ROUND, NEW_SESSION, NEW_DEALER, NEW_DECKS, FIRST_ROUND]
    assert [c.running_count for c in counted] == [0, 0, 0, 0, 0]
    assert [c.shoe for c in counted] == [1, 2, 3, 4, 1]


def test_more_cards_than_the_shoe_holds_start_a_new_shoe():
    deck = Shoe(1).cards()
    rounds = [RoundCards(round_id=1, table_id=1, table_label="T1", sequence=1, session_id=1, dealer_id=1, decks=1,
                         cards=tuple(deck[:50])),
              RoundCards(round_id=2, table_id=1, table_label="T1", sequence=2, session_id=1, dealer_id=1, decks=1,
                         cards=tuple(deck[50:]) + (deck[0],))]
    assert [c.new_shoe_reason for c in walk(rounds)] == [FIRST_ROUND, SHOE_PASSED]


@settings(max_examples=60, deadline=None)
@given(decks=st.integers(min_value=1, max_value=8), seed=st.integers(min_value=0, max_value=2**32),
       sizes=st.lists(st.integers(min_value=4, max_value=20), min_size=1, max_size=40))
def test_a_full_shoe_dealt_in_rounds_is_one_shoe_and_counts_back_to_zero(decks, seed, sizes):
    """Hi-Lo is balanced: 20 low cards (+1) and 20 high (-1) per deck, so a whole shoe sums to 0."""
    cards = Shoe(decks).cards()
    random.Random(seed).shuffle(cards)
    rounds, start, k = [], 0, 0
    while start < len(cards):
        size = sizes[k % len(sizes)]
        rounds.append(RoundCards(round_id=k, table_id=1, table_label="T1", sequence=k, session_id=1, dealer_id=1,
                                 decks=decks, cards=tuple(cards[start:start + size])))
        start, k = start + size, k + 1
    counted = list(walk(rounds))
    assert [c.new_shoe_reason for c in counted[1:]] == [None] * (len(counted) - 1)
    last = counted[-1]
    assert last.running_count + hi_lo(last.round.cards) == 0
    assert last.cards_seen + len(last.round.cards) == 52 * decks


BLACKJACK = {
    "dealer": {"cards": ["QH", "5C", "7D"]},
    "seats": [
        {"seat": 1, "player": "P-1", "wagers": {"21": "10.00", "ante": "10.00", "bet": "10.00"},
         "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}]},
        {"seat": 3, "player": "P-1", "wagers": {"21": "15.00"}, "hands": [{"cards": ["AH", "KH"]}]},
        {"seat": 4, "wagers": {"21": "25.00"},
         "hands": [{"cards": ["8S", "3H", "9C"], "actions": ["split", "hit", "stand"]},
                   {"cards": ["8D", "2S", "TC"], "actions": ["double"]}]},
    ],
}
POKER_OR_BUST = {
    "dealer": {"cards": ["KS", "7H", "5D", "9C"]},
    "seats": [{"seat": 1, "player": "P-1001", "wagers": {"ante": "10.00", "odds": "10.00"},
               "cards": ["9S", "9H", "4C", "2D"]}],
}


def test_round_cards_take_every_hand_and_the_dealer():
    texts = ["QH", "5C", "7D", "9S", "9D", "AH", "KH", "8S", "3H", "9C", "8D", "2S", "TC"]
    assert round_cards("ante_up_21", BLACKJACK) == tuple(parse_card(t) for t in texts)
    assert round_cards("poker_or_bust", POKER_OR_BUST) == tuple(
        parse_card(t) for t in ["KS", "7H", "5D", "9C", "9S", "9H", "4C", "2D"])


def test_the_bet_is_the_base_wager_summed_over_a_players_seats_and_anonymous_seats_are_skipped():
    assert round_bets("ante_up_21", BLACKJACK) == (("P-1", Decimal("25.00")),)
    assert round_bets("poker_or_bust", POKER_OR_BUST) == (("P-1001", Decimal("10.00")),)


@pytest.mark.parametrize("game", ["ante_up_21", "upcard_luck_21", "blackjack_tie"])
def test_the_three_blackjack_games_bet_the_21(game):
    assert round_bets(game, BLACKJACK)[0][1] == Decimal("25.00")
