"""Blackjack totals, shared by the blackjack games, the dealer math and Hold'em Blackjack."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ACE, BJ_POINTS, RANK, TEN_VALUE


def best_total(hard: int, has_ace: bool) -> int:
    """The best total of a hand whose cards add up to ``hard`` with every Ace counted 1: one Ace
    counts 11 when the hand stays at 21 or less. The one statement of the rule; every total of
    the engine (the audit's and the exact math's) comes from it."""
    return hard + 10 if has_ace and hard <= 11 else hard


def soft_total(hard: int, has_ace: bool) -> tuple[int, bool]:
    """:func:`best_total` and whether the hand is soft (an Ace counted 11)."""
    best = best_total(hard, has_ace)
    return best, best != hard


def dealer_must_draw(total: int, soft: bool, hits_soft_17: bool) -> bool:
    """The blackjack dealer's drawing rule, the same in the three blackjack games: he draws to
    17, and on a soft 17 where the table hits it. The one statement of the rule: the audit's
    check of the dealer's draws and every listing of his final hands (the exact math) read it."""
    return total < 17 or (total == 17 and soft and hits_soft_17)


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
