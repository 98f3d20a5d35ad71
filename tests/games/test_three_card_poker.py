"""Three-card poker ranking for Poker or Bust: hand-worked orders and a brute-force oracle."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games.poker_or_bust import three_card_poker as tcp
from tables.games.vocabulary.cards import parse_card


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def value(text: str) -> int:
    return tcp.best_value(cards(text))


# --- a slow, obviously-correct oracle, written independently of the module --------------

ORDER = [
    "high_card",
    "pair",
    "flush",
    "straight",
    "three_of_a_kind",
    "straight_flush",
    "suited_three_of_a_kind",
    "royal_flush",
]
# Every straight, best first; A-2-3 is the lowest.
STRAIGHTS = [{14, 13, 12}] + [{r, r - 1, r - 2} for r in range(13, 3, -1)] + [{14, 2, 3}]


def oracle_key(trio: tuple[int, int, int]) -> tuple:
    ranks = [14 if c // 4 == 0 else c // 4 + 1 for c in trio]
    suits = {c % 4 for c in trio}
    suited = len(suits) == 1
    counts = Counter(ranks)
    desc = sorted(ranks, reverse=True)
    if len(counts) == 1:
        name = "suited_three_of_a_kind" if suited else "three_of_a_kind"
        return (ORDER.index(name), desc[0])
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        kicker = next(r for r, n in counts.items() if n == 1)
        return (ORDER.index("pair"), pair, kicker)
    straight = next((i for i, s in enumerate(STRAIGHTS) if s == set(ranks)), None)
    if straight is not None:
        name = ("royal_flush" if straight == 0 else "straight_flush") if suited else "straight"
        return (ORDER.index(name), -straight)
    return (ORDER.index("flush" if suited else "high_card"), *desc)


def oracle_best(hand: list[int]) -> tuple:
    return max(oracle_key(t) for t in combinations(hand, 3))


def sign(x) -> int:
    return (x > 0) - (x < 0)


# --- hand-worked examples -----------------------------------------------------------------

CARD_ORDER = [  # one example per category, in the card's order, best first
    ("AS KS QS", "royal_flush"),
    ("7H 7H 7H", "suited_three_of_a_kind"),
    ("KD QD JD", "straight_flush"),
    ("7H 7C 7D", "three_of_a_kind"),
    ("AS KH QD", "straight"),
    ("2C 5C 9C", "flush"),
    ("AS AH KD", "pair"),
    ("AS KH JD", "high_card"),
]


@pytest.mark.parametrize(("hand", "key"), CARD_ORDER)
def test_category_of_each_example(hand, key):
    assert tcp.category_key(value(hand)) == key


def test_categories_rank_in_the_cards_order():
    values = [value(h) for h, _k in CARD_ORDER]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("2H 3H 4H", "AH 2H 3H"),  # A-2-3 is the lowest straight flush
        ("2S 3H 4D", "AS 2H 3D"),  # ... and the lowest straight
        ("AS 2H 3D", "AS KH JD"),  # the lowest straight still beats any high card
        ("AS KH QD", "KS QH JD"),  # A-K-Q is the top straight
        ("AD KD QD", "AH AH AH"),  # the royal flush is the only hand above suited trips
        ("2H 2H 2H", "KH QH JH"),  # suited trips beat the top straight flush
        ("2H 2H 2D", "AH KD QC"),  # any three of a kind beats the top straight
        ("9S 9H KC", "9D 9C QH"),  # equal pairs: the kicker decides
        ("9S 9H 2C", "8D 8C AH"),  # pair rank first, then the kicker
        ("AS AH 2C", "KD KC QH"),  # Aces are the top pair
        ("KC 9C 3C", "QC JC 9C"),  # flushes compare from the top card
        ("KC 9C 4C", "KD 9D 3D"),  # ... down to the last card
        ("AS 5H 3D", "KS QH 9D"),  # Ace high beats King high
        ("KS QH 3D", "KS JH TD"),  # second card decides
    ],
)
def test_pairwise_order(better, worse):
    assert value(better) > value(worse)


@pytest.mark.parametrize(
    ("hand", "key"),
    [
        ("KS AH 2D", "high_card"),  # no wrap-around: K-A-2 is not a straight
        ("QS KH AD 2C", "straight"),  # Q-K-A is, from the best three of four
        ("AS 2S 3S", "straight_flush"),  # A-2-3 suited is a straight flush, not a royal
    ],
)
def test_where_the_ace_plays(hand, key):
    assert tcp.category_key(value(hand)) == key


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("AS KS QS", "AH KH QH"),  # all royal flushes tie
        ("9S 9H KC", "9D 9C KH"),  # suits never break a tie
        ("AS 2H 3D", "AC 3S 2C"),  # A-2-3 ties A-2-3
        ("7H 7H 7H", "7D 7D 7D"),
    ],
)
def test_ties(a, b):
    assert value(a) == value(b)


def test_best_three_of_more_cards():
    # 5 cards: the pair of 9s (9-9-K) beats every high-card trio; the straight 9-T-J is not there
    assert tcp.describe_cards(cards("9S 2H 9D KC 4H")) == "pair of 9s, King kicker (9S-9D-KC)"
    # a dealer drawing to 7 cards can make a straight flush from any three of them
    assert tcp.category_key(value("2C 5H TS 6H AD 4H 9S")) == "straight_flush"
    assert tcp.best_cards(cards("2C 5H TS 6H AD 4H 9S")) == tuple(cards("5H 6H 4H"))


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        ("AS KS QS", "royal flush"),
        ("7H 7H 7H", "suited three 7s"),
        ("KD QD JD", "King-high straight flush"),
        ("7H 7C 7D", "three 7s"),
        ("AS 2H 3D", "3-high straight"),
        ("2C 5C 9C", "9-5-2 flush"),
        ("QS QH 3D", "pair of Queens, 3 kicker"),
        ("AS 5H 9D", "Ace high (A-9-5)"),
        ("KS TH 2D", "King high (K-T-2)"),
    ],
)
def test_describe(hand, words):
    assert tcp.describe(value(hand)) == words


def test_fewer_than_three_cards_is_refused():
    with pytest.raises(ValueError):
        tcp.best_value(cards("AS KS"))
    with pytest.raises(ValueError):
        tcp.best_cards(cards("AS KS"))


def test_table_agrees_with_oracle_on_every_sorted_triple():
    """Exhaustive: all 24,804 multisets of three cards, compared through the oracle's order."""
    triples = (
        list(combinations(range(52), 3))
        + [(a, a, b) for a in range(52) for b in range(52) if a != b]
        + [(a, a, a) for a in range(52)]
    )
    by_value: dict[int, tuple] = {}
    for t in triples:
        v = tcp.value3(*t)
        k = oracle_key(t)
        assert by_value.setdefault(v, k) == k, t  # equal values <=> equal oracle keys
    ordered = sorted(by_value.items())
    keys = [k for _v, k in ordered]
    assert keys == sorted(keys)  # value order == oracle order
    assert len(set(keys)) == len(keys)


# --- properties against the oracle ----------------------------------------------------------

hands = st.lists(st.integers(0, 51), min_size=3, max_size=9)


@settings(max_examples=400, deadline=None)
@given(hands, hands)
def test_best_of_any_number_of_cards_orders_like_the_oracle(a, b):
    assert sign(tcp.best_value(a) - tcp.best_value(b)) == sign(
        (oracle_best(a) > oracle_best(b)) - (oracle_best(a) < oracle_best(b))
    )


@settings(max_examples=300, deadline=None)
@given(hands)
def test_best_value_is_the_max_over_all_triples(hand):
    v = tcp.best_value(hand)
    assert v == max(tcp.value3(*t) for t in combinations(hand, 3))
    assert tcp.value3(*tcp.best_cards(hand)) == v


@settings(max_examples=200, deadline=None)
@given(hands, st.randoms(use_true_random=False))
def test_order_of_cards_does_not_matter(hand, rng):
    shuffled = list(hand)
    rng.shuffle(shuffled)
    assert tcp.best_value(shuffled) == tcp.best_value(hand)


@settings(max_examples=200, deadline=None)
@given(hands, st.integers(0, 51))
def test_more_cards_never_make_a_worse_hand(hand, extra):
    assert tcp.best_value([*hand, extra]) >= tcp.best_value(hand)
