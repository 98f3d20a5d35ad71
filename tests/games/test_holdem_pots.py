"""Hold'em Blackjack ranking, pots, side pots, odd chips and rake (pure engine, no Django)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games.holdem.pots import (
    CHARLIE_KEY,
    hand_key,
    hand_text,
    layer_pots,
    money_text_cents,
    rake_due,
    settle_pots,
    settle_ring,
)
from tables.games.vocabulary.cards import RANK, parse_card


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


# --- ranking --------------------------------------------------------------------------------


def test_seven_card_charlie_is_best_and_all_charlies_tie():
    charlie = cards("AS AH 2S 2H 3S 3H 4S")  # 16 in 7 cards
    other_charlie = cards("AD AC 2D 2C 3D 3C 9S")  # 21 in 7 cards
    twenty_one = cards("AS KS")
    assert hand_key(charlie) == hand_key(other_charlie) == CHARLIE_KEY
    assert hand_key(charlie) > hand_key(twenty_one)
    assert hand_text(charlie) == "7-card Charlie (AS-AH-2S-2H-3S-3H-4S)"


def test_seven_cards_over_21_are_busted_not_a_charlie():
    assert hand_key(cards("TS 9H 2S 2H AS AH AD")) == -(10 + 9 + 2 + 2 + 1 + 1 + 1)
    assert hand_key(cards("TS 9H 2S 2H AS AH AD")) < hand_key(cards("2C 3C"))


def test_all_21s_are_equal_and_aces_count_to_the_players_advantage():
    assert hand_key(cards("AS QH")) == hand_key(cards("4S 2H 8D 7C")) == 21
    assert hand_key(cards("AS 6H")) == 17  # soft 17
    assert hand_key(cards("AS 6H TC")) == 17  # the Ace falls back to 1
    assert hand_key(cards("AS AH")) == 12


def test_unbusted_beats_busted_and_lower_bust_wins():
    assert hand_key(cards("2S 3H")) > hand_key(cards("TS 9H 3D"))  # 5 beats busted 22
    assert hand_key(cards("TS 9H 3D")) > hand_key(cards("TS 9H 4D"))  # 22 beats 23
    assert hand_text(cards("TS 9H 4D")) == "busted 23 (TS-9H-4D)"


def _brute_force_better(a: list[int], b: list[int]) -> int:
    """The card's words applied literally: +1 if a beats b, -1 if it loses, 0 if they tie."""

    def best(hand: list[int]) -> tuple[int, int]:
        values = [(1, 11) if RANK[c] == 1 else (min(RANK[c], 10),) for c in hand]
        totals = {sum(v) for v in itertools.product(*values)}
        under = [t for t in totals if t <= 21]
        if under:
            return (2 if len(hand) == 7 else 1, 0 if len(hand) == 7 else max(under))
        return (0, -min(totals))  # busted: closest to 21 is best

    x, y = best(a), best(b)
    return (x > y) - (x < y)


hands = st.lists(st.integers(0, 51), min_size=2, max_size=7, unique=True)


@settings(max_examples=400, deadline=None)
@given(hands, hands)
def test_ranking_agrees_with_brute_force(a, b):
    ka, kb = hand_key(a), hand_key(b)
    assert ((ka > kb) - (ka < kb)) == _brute_force_better(a, b)


# --- pots -----------------------------------------------------------------------------------


def test_side_pot_from_a_short_all_in():
    # seat 3 all in for 10.50; seats 1 and 2 put in 14.50 each
    pots, returned = layer_pots([1, 2, 3], {1: 1450, 2: 1450, 3: 1050}, [1, 2, 3])
    assert pots == [(3150, (1, 2, 3)), (800, (1, 2))]
    assert returned == {}


def test_uncalled_bet_goes_back_and_is_not_a_pot():
    pots, returned = layer_pots([1, 2, 3], {1: 300, 2: 1000, 3: 50}, [1, 2])
    # seat 3 folded after 0.50; seat 2's last 7.00 was never called
    assert pots == [(650, (1, 2))]
    assert returned == {2: 700}


def test_folded_players_chips_stay_in_the_pot_they_reached():
    pots, _ = layer_pots([1, 2, 3, 4], {1: 400, 2: 1000, 3: 1000, 4: 600}, [1, 2, 3])
    # seat 4 folded after 6.00: 4.00 of it in the main pot, 2.00 in the side pot of seats 2 and 3
    assert pots == [(1600, (1, 2, 3)), (600 + 800, (2, 3))]


def test_split_pot_odd_chips_all_go_to_first_tied_player_clockwise_from_button():
    # clock starts left of the button: seat 5, then 1, then 3 (the button)
    # seat 2 folded after 0.02: a 3.02 pot split three ways is 1.00 each and 2 odd cents
    result = settle_pots([5, 1, 2, 3], {5: 100, 1: 100, 2: 2, 3: 100}, {5: 20, 1: 20, 3: 20})
    assert result.pots[0].winners == (5, 1, 3)
    assert result.pots[0].shares == (102, 100, 100)
    assert result.received == {5: 102, 1: 100, 3: 100}


def test_walk_takes_everything_and_gets_the_uncalled_blind_back():
    result = settle_pots(
        [1, 2, 3], {1: 150, 2: 250, 3: 50}, {2: 0}, percent=Fraction(5), rakeable=False
    )
    assert result.received == {2: 450}
    assert result.returned == {2: 100}
    assert result.rake == 0


def test_rake_percent_rounded_down_capped_and_from_main_pot_first():
    assert rake_due(4050, Fraction(5), 0) == 202  # 5% of 40.50 = 2.025 -> 2.02
    assert rake_due(4050, Fraction(5), 100) == 100
    assert rake_due(4050, Fraction(0), 0) == 0
    result = settle_pots(
        [1, 2, 3], {1: 1450, 2: 1450, 3: 1050}, {1: 20, 2: 19, 3: 21}, percent=Fraction(10), cap=0
    )
    assert result.rake == 395  # 10% of 39.50
    assert [p.rake for p in result.pots] == [395, 0]
    assert result.received == {3: 3150 - 395, 1: 800}


def test_money_text_cents():
    assert money_text_cents(250) == "2.50"
    assert money_text_cents(-5) == "-0.05"
    assert money_text_cents(0) == "0.00"


contributions = st.dictionaries(st.integers(1, 6), st.integers(0, 5000), min_size=2, max_size=6)


@settings(max_examples=300, deadline=None)
@given(contributions, st.data())
def test_chips_are_conserved(contrib, data):
    seats = sorted(contrib)
    live = data.draw(st.lists(st.sampled_from(seats), min_size=1, unique=True))
    keys = {s: data.draw(st.sampled_from([CHARLIE_KEY, 21, 20, 17, -22, -25])) for s in live}
    percent = Fraction(data.draw(st.integers(0, 10)))
    cap = data.draw(st.integers(0, 300))
    result = settle_pots(seats, contrib, keys, percent=percent, cap=cap)
    assert sum(result.received.values()) + result.rake == sum(contrib.values())
    assert all(s in live or s in result.returned for s in result.received)


@settings(max_examples=300, deadline=None)
@given(contributions, st.data())
def test_antes_are_never_returned_and_chips_are_conserved(contrib, data):
    """RULINGS.md: an ante goes to the pot whole; only a bet or raise nobody called comes
    back: the one highest bet's part above the next highest."""
    seats = sorted(contrib)
    antes = {s: min(contrib[s], data.draw(st.sampled_from([0, 25, 50, 100, 300]))) for s in seats}
    live = data.draw(st.lists(st.sampled_from(seats), min_size=1, unique=True))
    keys = {s: data.draw(st.sampled_from([CHARLIE_KEY, 21, 20, -22])) for s in live}
    result = settle_pots(seats, contrib, keys, antes=antes)
    assert sum(result.received.values()) == sum(contrib.values())
    bets = sorted((contrib[s] - antes[s] for s in seats), reverse=True)
    assert sum(result.returned.values()) == bets[0] - bets[1]
    assert all(contrib[s] - antes[s] - b == bets[1] for s, b in result.returned.items())


@settings(max_examples=200, deadline=None)
@given(contributions, st.data())
def test_award_does_not_depend_on_seat_numbers(contrib, data):
    seats = sorted(contrib)
    live = data.draw(st.lists(st.sampled_from(seats), min_size=1, unique=True))
    keys = {s: data.draw(st.sampled_from([21, 20, -23])) for s in live}
    start = data.draw(st.integers(0, len(seats) - 1))
    clock = seats[start:] + seats[:start]
    relabel = {s: 10 + 7 * i for i, s in enumerate(data.draw(st.permutations(seats)))}
    a = settle_pots(clock, contrib, keys)
    b = settle_pots(
        [relabel[s] for s in clock],
        {relabel[s]: c for s, c in contrib.items()},
        {relabel[s]: k for s, k in keys.items()},
    )
    assert {relabel[s]: c for s, c in a.received.items()} == b.received


@settings(max_examples=300, deadline=None)
@given(contributions, st.data())
def test_settle_ring_divides_exactly_as_settle_pots(contrib, data):
    """The audit's tuple-based division (settle_ring) is settle_pots' to the chip and the word."""
    seats = sorted(contrib)
    start = data.draw(st.integers(0, len(seats) - 1))
    clock = seats[start:] + seats[:start]
    live_seats = set(data.draw(st.lists(st.sampled_from(seats), min_size=1, unique=True)))
    keys = {
        s: data.draw(st.sampled_from([CHARLIE_KEY, 21, 20, 17, -22, -25]))
        for s in clock
        if s in live_seats
    }
    percent = Fraction(data.draw(st.sampled_from([0, 1, 5, 10, 100]))) / data.draw(
        st.sampled_from([1, 2, 3])
    )
    cap = data.draw(st.integers(0, 300))
    rakeable = data.draw(st.booleans())
    antes = (
        {s: min(contrib[s], data.draw(st.sampled_from([0, 50, 200]))) for s in clock}
        if data.draw(st.booleans())
        else None
    )
    expected = settle_pots(
        clock, contrib, keys, percent=percent, cap=cap, rakeable=rakeable, antes=antes
    )
    live = [j for j, s in enumerate(clock) if s in live_seats]
    pots, returned, received, rake, contested = settle_ring(
        clock,
        [contrib[s] for s in clock],
        live,
        keys,
        percent,
        cap,
        rakeable,
        [antes[s] for s in clock] if antes else None,
    )
    assert pots == [
        (p.index, p.amount, p.eligible, p.rake, p.winners, p.shares) for p in expected.pots
    ]
    assert returned == expected.returned
    assert received == expected.received
    assert rake == expected.rake
    assert contested == sum(p.amount for p in expected.pots)
