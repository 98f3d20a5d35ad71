"""Three-card poker hands as Poker or Bust ranks them, from any number of cards.

Order, best first (rules/poker-or-bust.txt, RULINGS.md): royal flush (A-K-Q suited),
suited three of a kind (possible with several decks), straight flush, three of a kind,
straight, flush, pair, high card. The Ace is high, and low only in A-2-3, the lowest
straight. Within a category ranks compare from the top: a pair by its rank, then the
kicker; a straight by its top card (A-2-3 counts 3 high); flushes and high cards by the
highest card, then the next, then the last.

A hand's strength is one int (its *value*): comparing two values with ``<``/``==``
compares the hands, ties included. The value packs ``category << 12`` and three 4-bit
tie-break ranks (2..14). Every three-card combination, duplicates included (a six-deck
shoe can give 7H-7H-7H), is evaluated once at import into a flat table indexed by
``c1 * 2704 + c2 * 52 + c3``, so the best hand of ``n`` cards costs ``C(n, 3)`` list
lookups and no allocation: the engine settles tens of thousands of rounds a second.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ..vocabulary.cards import HIGH_RANK, RANK_NAMES, RANK_PLURALS, SUIT, cards_text

HIGH_CARD = 0
PAIR = 1
FLUSH = 2
STRAIGHT = 3
THREE_OF_A_KIND = 4
STRAIGHT_FLUSH = 5
SUITED_THREE_OF_A_KIND = 6
ROYAL_FLUSH = 7

#: Category keys, indexed by category number (the words used by pay tables).
CATEGORY_KEYS = (
    "high_card",
    "pair",
    "flush",
    "straight",
    "three_of_a_kind",
    "straight_flush",
    "suited_three_of_a_kind",
    "royal_flush",
)
CATEGORY_NAMES = (
    "high card",
    "pair",
    "flush",
    "straight",
    "three of a kind",
    "straight flush",
    "suited three of a kind",
    "royal flush",
)

_SQ = 52 * 52


def _rank_name(high_rank: int) -> str:
    return RANK_NAMES[1 if high_rank == 14 else high_rank]


def _rank_plural(high_rank: int) -> str:
    return RANK_PLURALS[1 if high_rank == 14 else high_rank]


def _pack(category: int, r1: int = 0, r2: int = 0, r3: int = 0) -> int:
    return (category << 12) | (r1 << 8) | (r2 << 4) | r3


def _evaluate(a: int, b: int, c: int) -> int:
    """The value of exactly three cards (the slow path used to build the table)."""
    ranks = sorted((HIGH_RANK[a], HIGH_RANK[b], HIGH_RANK[c]), reverse=True)
    hi, mid, lo = ranks
    suited = SUIT[a] == SUIT[b] == SUIT[c]
    if hi == mid == lo:
        return _pack(SUITED_THREE_OF_A_KIND if suited else THREE_OF_A_KIND, hi)
    if hi == mid or mid == lo:
        pair, kicker = (hi, lo) if hi == mid else (mid, hi)
        return _pack(PAIR, pair, kicker)
    if hi - lo == 2:
        top = hi
    elif (hi, mid, lo) == (14, 3, 2):
        top = 3  # A-2-3: the Ace plays low, the lowest straight
    else:
        top = 0
    if top:
        if suited:
            return _pack(ROYAL_FLUSH, 14) if top == 14 else _pack(STRAIGHT_FLUSH, top)
        return _pack(STRAIGHT, top)
    return _pack(FLUSH if suited else HIGH_CARD, hi, mid, lo)


def _build_table() -> list[int]:
    """Fill the table rank triple by rank triple: only suitedness matters beyond ranks."""
    table = [0] * (52 * _SQ)
    shared: dict[int, int] = {}  # one int object per distinct value
    suits = range(4)
    for ra in range(13):
        for rb in range(13):
            for rc in range(13):
                a, b, c = ra * 4, rb * 4, rc * 4  # the spades: cards (rank - 1) * 4 + suit
                plain = _evaluate(a, b + 1, c + 2)
                suited = _evaluate(a, b, c)
                plain = shared.setdefault(plain, plain)
                suited = shared.setdefault(suited, suited)
                for sa in suits:
                    base_a = (a + sa) * _SQ
                    for sb in suits:
                        base_b = base_a + (b + sb) * 52
                        for sc in suits:
                            table[base_b + c + sc] = suited if sa == sb == sc else plain
    return table


#: Value of every ordered triple of cards: ``VALUE3[a * 2704 + b * 52 + c]``.
VALUE3: list[int] = _build_table()


def value3(a: int, b: int, c: int) -> int:
    """The value of exactly three cards."""
    return VALUE3[a * _SQ + b * 52 + c]


def best_value(cards: Sequence[int]) -> int:
    """The value of the best three-card hand among ``cards`` (at least three of them)."""
    n = len(cards)
    if n < 3:
        raise ValueError("a three-card hand needs at least three cards")
    t = VALUE3
    sq = _SQ
    best = 0
    for i in range(n - 2):
        c = cards[i]
        bi = c * sq
        for j in range(i + 1, n - 1):
            c = cards[j]
            bj = bi + c * 52
            for k in range(j + 1, n):
                c = cards[k]
                v = t[bj + c]
                if v > best:
                    best = v
    return best


def best_cards(cards: Sequence[int]) -> tuple[int, int, int]:
    """The three cards that make the best hand (the first such three in deal order)."""
    best: tuple[int, int, int] | None = None
    best_v = -1
    for trio in combinations(cards, 3):
        v = VALUE3[trio[0] * _SQ + trio[1] * 52 + trio[2]]
        if v > best_v:
            best, best_v = trio, v
    if best is None:
        raise ValueError("a three-card hand needs at least three cards")
    return best


def category(value: int) -> int:
    return value >> 12


def category_key(value: int) -> str:
    """``"pair"``, ``"royal_flush"``... the category's key."""
    return CATEGORY_KEYS[value >> 12]


def top_rank(value: int) -> int:
    """The first tie-break rank (2..14): a pair's rank, a straight's top card, the high card."""
    return (value >> 8) & 15


def describe(value: int) -> str:
    """A floor supervisor's words for a hand: ``"pair of 9s, King kicker"``, ``"straight, 3 high"``."""
    cat = value >> 12
    r1, r2, r3 = (value >> 8) & 15, (value >> 4) & 15, value & 15
    if cat == ROYAL_FLUSH:
        return "royal flush"
    if cat == SUITED_THREE_OF_A_KIND:
        return f"suited three {_rank_plural(r1)}"
    if cat == THREE_OF_A_KIND:
        return f"three {_rank_plural(r1)}"
    if cat == STRAIGHT_FLUSH:
        return f"{_rank_name(r1)}-high straight flush"
    if cat == STRAIGHT:
        return f"{_rank_name(r1)}-high straight"
    if cat == PAIR:
        return f"pair of {_rank_plural(r1)}, {_rank_name(r2)} kicker"
    ranks = "-".join(_rank_name(r) if r < 10 else "TJQKA"[r - 10] for r in (r1, r2, r3))
    if cat == FLUSH:
        return f"{ranks} flush"
    return f"{_rank_name(r1)} high ({ranks})"


def describe_cards(cards: Sequence[int]) -> str:
    """``"pair of 9s, King kicker (9S-9H-KC)"``: the best hand and the three cards making it."""
    return f"{describe(best_value(cards))} ({cards_text(best_cards(cards))})"
