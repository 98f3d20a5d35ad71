"""Blackjack totals, shared by the blackjack games, the dealer math and Hold'em Blackjack."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ACE, BJ_POINTS, RANK, TEN_VALUE


def soft_total(hard: int, has_ace: bool) -> tuple[int, bool]:
    """The best total of a hand whose cards add up to ``hard`` with every Ace counted 1, and
    whether it is soft: one Ace counts 11 when the hand stays at 21 or less. The one statement
    of the rule; every total of the engine comes from it."""
    if has_ace and hard <= 11:
        return hard + 10, True
    return hard, False


def blackjack_total(cards: Sequence[int]) -> tuple[int, bool]:
    """Best total and whether it is soft (an Ace counted as 11).

    ``[AS, 6H]`` -> ``(17, True)``; ``[AS, 6H, TC]`` -> ``(17, False)``.
    """
    total = 0
    has_ace = False
    for c in cards:
        p = BJ_POINTS[c]
        total += p
        has_ace = has_ace or p == 1
    return soft_total(total, has_ace)


def is_two_card_21(cards: Sequence[int]) -> bool:
    """Ace + ten-value in two cards (whether it is a *natural* also depends on splits)."""
    return len(cards) == 2 and (
        (RANK[cards[0]] == ACE and TEN_VALUE[cards[1]]) or (RANK[cards[1]] == ACE and TEN_VALUE[cards[0]])
    )
