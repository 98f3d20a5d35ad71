"""Blackjack totals, shared by the blackjack games, the dealer math and Hold'em Blackjack."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ACE, BJ_POINTS, RANK, TEN_VALUE


def blackjack_total(cards: Sequence[int]) -> tuple[int, bool]:
    """Best total and whether it is soft (an Ace counted as 11).

    ``[AS, 6H]`` -> ``(17, True)``; ``[AS, 6H, TC]`` -> ``(17, False)``.
    """
    total = 0
    has_ace = False
    for c in cards:
        total += BJ_POINTS[c]
        if RANK[c] == ACE:
            has_ace = True
    if has_ace and total <= 11:
        return total + 10, True
    return total, False


def is_two_card_21(cards: Sequence[int]) -> bool:
    """Ace + ten-value in two cards (whether it is a *natural* also depends on splits)."""
    return len(cards) == 2 and (
        (RANK[cards[0]] == ACE and TEN_VALUE[cards[1]]) or (RANK[cards[1]] == ACE and TEN_VALUE[cards[0]])
    )
