"""Cards and shoes.

A card is a small int so that the engine can settle tens of thousands of rounds a
second: ``(rank - 1) * 4 + suit`` with rank 1 (Ace) .. 13 (King) and suit 0..3 (S H D C).
Text in and out of the engine is always the canonical two-character form (``AS``, ``TD``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = (
    "", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King",
)
RANK_PLURALS = (
    "", "Aces", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "Jacks", "Queens", "Kings",
)

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3

ALL_CARDS = tuple(range(52))

# Lookup tables indexed by card int; plain tuples are the fastest thing Python has.
RANK = tuple(c // 4 + 1 for c in ALL_CARDS)
SUIT = tuple(c % 4 for c in ALL_CARDS)
#: Blackjack point value with the Ace counted as 1 (soft totals add 10 once).
BJ_POINTS = tuple(min(r, 10) for r in RANK)
#: True for 10, J, Q, K.
TEN_VALUE = tuple(r >= 10 for r in RANK)
#: Rank for poker comparisons with the Ace high: 2..14.
HIGH_RANK = tuple(14 if r == ACE else r for r in RANK)
TEXT = tuple(RANK_CHARS[r - 1] + SUIT_CHARS[s] for r, s in zip(RANK, SUIT, strict=True))

#: Every card text :func:`parse_card` accepts, without the stripping, -> card int: the
#: parsers' first test of a card (a lookup), before ``parse_card`` names what is wrong.
CARD_OF_TEXT: dict[str, int] = {}
for _c, _t in enumerate(TEXT):
    CARD_OF_TEXT[_t] = _c
    CARD_OF_TEXT[_t.lower()] = _c
    CARD_OF_TEXT[_t[0].lower() + _t[1]] = _c
    CARD_OF_TEXT[_t[0] + _t[1].lower()] = _c
    if _t[0] == "T":
        for _ten in ("10" + _t[1], "10" + _t[1].lower()):
            CARD_OF_TEXT[_ten] = _c


class CardError(ValueError):
    """Raised for text that is not a card."""


def make_card(rank: int, suit: int) -> int:
    return (rank - 1) * 4 + suit


def parse_card(text: object) -> int:
    """``"AS"``, ``"td"``, ``"10d"`` -> card int. Raises :class:`CardError`."""
    if isinstance(text, str):
        card = CARD_OF_TEXT.get(text.strip())
        if card is not None:
            return card
    raise CardError(f"{text!r} is not a card".replace("'", '"'))


def card_text(card: int) -> str:
    return TEXT[card]


def cards_text(cards: Iterable[int]) -> str:
    """``[0, 36]`` -> ``"AS-TS"``: the form used in explanations."""
    return "-".join(TEXT[c] for c in cards)


def card_name(card: int) -> str:
    return f"{RANK_NAMES[RANK[card]]} of {SUIT_NAMES[SUIT[card]]}"


class Shoe:
    """A shoe of ``decks`` standard 52-card decks: knows how many copies of each card exist."""

    __slots__ = ("decks",)

    def __init__(self, decks: int):
        if not isinstance(decks, int) or isinstance(decks, bool) or decks < 1:
            raise ValueError("decks must be a whole number of at least 1")
        self.decks = decks

    def copies(self, card: int) -> int:
        return self.decks

    @property
    def size(self) -> int:
        return 52 * self.decks

    def full_counts(self) -> list[int]:
        """Copies of each card, indexed by card int."""
        return [self.decks] * 52

    def overdrawn(self, cards: Iterable[int]) -> dict[int, int]:
        """Cards seen more often than the shoe holds them: ``{card: times seen}``."""
        counts = Counter(cards)
        return {c: n for c, n in counts.items() if n > self.decks}

    def cards(self) -> list[int]:
        """Every card of the shoe, unshuffled."""
        return [c for c in ALL_CARDS for _ in range(self.decks)]


def too_many_copies(card_lists: list, decks: int) -> bool:
    """Whether some card appears in ``card_lists`` (tuples of card ints, the whole round's)
    more often than a ``decks``-deck shoe holds it: the parsers' cheap test, before
    :func:`~tables.games.vocabulary.base.copies_refused` names each copy."""
    counts = [0] * 52  # compiled: a C array (cards.pxd)
    for cards in card_lists:
        for c in cards:
            if c < 0 or c >= 52:  # not a card: let the naming pass look
                return True
            counts[c] += 1
            if counts[c] > decks:
                return True
    return False
