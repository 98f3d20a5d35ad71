"""The Hi-Lo count of a table's shoe, walked round by round: pure Python, no Django.

A recorded round carries every card it used (the players' hands and the dealer's), but no
shuffle marker, so where one shoe ends and the next begins is inferred (``new_shoe_reason``):

* the first round of the table in the rounds walked (the chosen gaming day: the cards of an
  earlier day are not read, so the count starts from zero);
* a new table session (the table was closed and opened again);
* another dealer (a relief dealer starts from a fresh shuffle, as most houses deal it);
* another deck count (the table's ruleset version changed);
* a card of the round would appear more often than the shoe holds it, counting the cards
  seen since the last shuffle: the shoe must have been shuffled before this round;
* the cards seen plus this round's would pass the shoe's size.

A shuffle the cards do not betray (a cut card reached with every card still possible) is
missed until one of these happens, so a count can run on past a real shuffle; a recorded
shuffle marker would make the split exact.

True count = running count / decks remaining, decks remaining = (shoe size - cards seen) / 52,
floored at :data:`MIN_DECKS_REMAINING` (half a deck) so the last cards of a shoe do not blow
the true count up (no house deals that deep).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal

from tables.games.vocabulary.cards import RANK

CARDS_PER_DECK = 52
MIN_DECKS_REMAINING = 0.5

#: Hi-Lo tag by rank (1 = Ace .. 13 = King): 2-6 +1, 7-9 0, ten-values and Aces -1.
HI_LO_BY_RANK = (0, -1, 1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1)
#: Hi-Lo tag by card int (tables.games.vocabulary.cards).
HI_LO = tuple(HI_LO_BY_RANK[RANK[c]] for c in range(52))

FIRST_ROUND = "first round of the table that day"
NEW_SESSION = "table opened again"
NEW_DEALER = "dealer changed"
NEW_DECKS = "deck count changed"
CARD_REPEATED = "a card seen more often than the shoe holds it"
SHOE_PASSED = "more cards than the shoe holds"


# RoundCards and CountedRound are not frozen: a frozen dataclass's __init__ sets each field
# through object.__setattr__ (2.5x the time), and the advantage page makes two of them for
# every round of a busy day (~11,000 rounds).
@dataclass(slots=True)
class RoundCards:
    """What the count needs of one recorded round (its current revision)."""

    round_id: int
    table_id: int
    table_label: str
    sequence: int
    session_id: int
    dealer_id: int
    decks: int
    cards: tuple[int, ...]
    #: (player identifier, the player's base wager) per seat with a player; see bets.BET_WAGER.
    bets: tuple[tuple[str, Decimal], ...] = ()


@dataclass(slots=True)
class CountedRound:
    """A round with the count as it stood before its first card was dealt."""

    round: RoundCards
    shoe: int  # per table, from 1
    new_shoe_reason: str | None
    running_count: int
    cards_seen: int
    decks_remaining: float
    true_count: float


def hi_lo(cards: Iterable[int]) -> int:
    """The Hi-Lo sum of ``cards``."""
    return sum(map(HI_LO.__getitem__, cards))


def decks_remaining(decks: int, cards_seen: int) -> float:
    return max((decks * CARDS_PER_DECK - cards_seen) / CARDS_PER_DECK, MIN_DECKS_REMAINING)


def true_count(running: int, decks: int, cards_seen: int) -> float:
    return running / decks_remaining(decks, cards_seen)


def _shuffle_reason(previous: RoundCards | None, rnd: RoundCards, seen_total: int) -> str | None:
    """Why a new shoe starts at ``rnd`` before its cards are looked at (None: none of these);
    ``seen_total``: the cards dealt since the last shuffle. The last reason, a card seen more
    often than the shoe holds it, is found by :func:`walk` as it counts the round's cards."""
    if previous is None or previous.table_id != rnd.table_id:
        return FIRST_ROUND
    if rnd.session_id != previous.session_id:
        return NEW_SESSION
    if rnd.dealer_id != previous.dealer_id:
        return NEW_DEALER
    if rnd.decks != previous.decks:
        return NEW_DECKS
    if seen_total + len(rnd.cards) > rnd.decks * CARDS_PER_DECK:
        return SHOE_PASSED
    return None


def walk(rounds: Iterable[RoundCards]) -> Iterator[CountedRound]:
    """The count before each round of ``rounds`` (ordered by table, then sequence)."""
    previous: RoundCards | None = None
    seen = [0] * len(HI_LO)  # how often each card (by int) was dealt since the last shuffle
    seen_total = running = shoe = 0
    for rnd in rounds:
        cards = rnd.cards
        reason = _shuffle_reason(previous, rnd, seen_total)
        if reason is None:
            # The round's cards counted into the shoe's tally: one passing the shoe's count of it
            # (``decks``) means the shoe was shuffled before this round.
            for card in cards:
                seen[card] += 1
            if cards and max(map(seen.__getitem__, cards)) > rnd.decks:
                reason = CARD_REPEATED
        if reason is not None:
            seen, seen_total, running = [0] * len(HI_LO), 0, 0
            for card in cards:
                seen[card] += 1
            shoe = 1 if reason == FIRST_ROUND else shoe + 1
        yield CountedRound(
            round=rnd, shoe=shoe, new_shoe_reason=reason, running_count=running, cards_seen=seen_total,
            decks_remaining=decks_remaining(rnd.decks, seen_total),
            true_count=true_count(running, rnd.decks, seen_total),
        )
        seen_total += len(cards)
        running += hi_lo(cards)
        previous = rnd
