"""The blackjack dealer's final hand, exactly: probabilities as :class:`fractions.Fraction`.

Finance and surveillance need the dealer's odds for any deck count and either soft-17
rule, and with any known cards out of the shoe (the player's two cards and the upcard for
the Taxpayer's Fortune jackpot). Simulation would give figures that move in the fourth
decimal; auditors need figures that do not move at all.

How it is computed: the dealer's draws only depend on ranks (Ace, 2..9, ten-value), so
the shoe is a *composition* of ten counts. The chance of drawing a given multiset of cards
in a given order, ``n_r (n_r - 1) ... / N (N - 1) ...``, does not depend on the order, so
every hand that reaches the same drawn multiset merges into one state. The walk goes level
by level (one more card drawn each level); every state of a level shares the denominator
``N (N-1) ... (N-L+1)``, so the numerators are plain ints and a ``Fraction`` is made only
once per outcome and level. A 6-deck shoe takes milliseconds per upcard.

Reading of "the dealer busts 28.5760% of rounds" (Wizard of Odds, 6 decks, H17, "always
playing out the hand"): the dealer's full hand from a fresh shoe (no card removed but his
own), a natural counting as a natural (not a bust) and **not** conditioned away:
:func:`dealer_overall` reproduces 0.285760 and the per-card-count figures
0.173032 / 0.089392 / 0.020473 / 0.002638 / 0.000214 / 0.000012 (3, 4, 5, 6, 7, 8+ cards).
Conditioning on "no dealer natural" would give 30.0007% instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..vocabulary.cards import BJ_POINTS
from ..vocabulary.hands import dealer_must_draw, soft_total

#: Rank index 0..9 is the blackjack value less one: 0 = Ace, 1 = 2, ..., 8 = 9, 9 = ten-value.
RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
RANK_POINTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
ACE_INDEX, TEN_INDEX = 0, 9

#: Final results of the dealer's hand. "blackjack" = two-card 21 (before any peek).
OUTCOMES = ("17", "18", "19", "20", "21", "blackjack", "bust")
BUST = "bust"
BLACKJACK = "blackjack"


def rank_index(card: int) -> int:
    """Card int -> rank index 0..9 (all ten-values share index 9)."""
    return BJ_POINTS[card] - 1


def shoe_composition(decks: int, removed: Iterable[int] = ()) -> tuple[int, ...]:
    """Counts by rank index of a ``decks``-deck shoe less the ``removed`` card ints.

    Raises ``ValueError`` when more copies are removed than the shoe holds.
    """
    check_decks(decks)
    counts = [4 * decks] * 9 + [16 * decks]
    per_card: dict[int, int] = {}
    for card in removed:
        per_card[card] = per_card.get(card, 0) + 1
        if per_card[card] > decks:
            raise ValueError(f"card {card} removed {per_card[card]} times from a {decks}-deck shoe")
        counts[rank_index(card)] -= 1
    return tuple(counts)


def check_decks(decks: object) -> None:
    if not isinstance(decks, int) or isinstance(decks, bool) or not 1 <= decks <= 16:
        raise ValueError(f"decks must be a whole number from 1 to 16, got {decks!r}")


@dataclass(frozen=True, slots=True)
class DealerFinal:
    """Exact distribution of the dealer's final hand: ``(outcome, cards in hand) -> probability``.

    "cards in hand" counts every dealer card, upcard and hole card included.
    """

    by_outcome_and_cards: Mapping[tuple[str, int], Fraction]

    def outcomes(self) -> dict[str, Fraction]:
        """Probability of each of :data:`OUTCOMES` (all seven keys, zeros included)."""
        out = dict.fromkeys(OUTCOMES, Fraction(0))
        for (outcome, _cards), p in self.by_outcome_and_cards.items():
            out[outcome] += p
        return out

    def bust_by_cards(self) -> dict[int, Fraction]:
        """Probability of busting with exactly n cards, by n (only n that can happen)."""
        out: dict[int, Fraction] = {}
        for (outcome, cards), p in sorted(
            self.by_outcome_and_cards.items(), key=lambda kv: kv[0][1]
        ):
            if outcome == BUST:
                out[cards] = out.get(cards, Fraction(0)) + p
        return out

    def bust_with_at_least(self, cards: int) -> Fraction:
        return sum(
            (p for (o, n), p in self.by_outcome_and_cards.items() if o == BUST and n >= cards),
            Fraction(0),
        )

    def given_no_blackjack(self) -> DealerFinal:
        """The distribution after the dealer has peeked and has no natural."""
        bj = sum(
            (p for (o, _n), p in self.by_outcome_and_cards.items() if o == BLACKJACK), Fraction(0)
        )
        if bj == 1:
            raise ValueError("the dealer always has a natural with this composition")
        return DealerFinal(
            {k: p / (1 - bj) for k, p in self.by_outcome_and_cards.items() if k[0] != BLACKJACK}
        )

    @staticmethod
    def mix(parts: Iterable[tuple[Fraction, DealerFinal]]) -> DealerFinal:
        """Weighted sum of distributions (e.g. over the upcards)."""
        acc: dict[tuple[str, int], Fraction] = {}
        for weight, part in parts:
            for key, p in part.by_outcome_and_cards.items():
                acc[key] = acc.get(key, Fraction(0)) + weight * p
        return DealerFinal(acc)


def dealer_final(
    composition: Sequence[int], known: Sequence[int] = (), *, h17: bool = True
) -> DealerFinal:
    """The dealer's final hand drawing from ``composition`` (counts by rank index).

    ``known`` are the rank indices the dealer already holds (e.g. ``(upcard,)``), already
    taken out of ``composition``. With ``known=()`` it is the dealer's whole hand from the
    shoe. The dealer always plays the hand out (no player hand ends the round early).
    """
    if len(composition) != 10 or any(c < 0 for c in composition):
        raise ValueError("a composition is ten non-negative counts, Ace to ten-value")
    return _dealer_final(tuple(composition), tuple(sorted(known)), bool(h17))


def _final(hard: int, ace: bool, cards: int, h17: bool) -> str | None:
    """The outcome if the dealer must stop with this hand, else None (he draws)."""
    if hard > 21:
        return BUST
    best, soft = soft_total(hard, ace)
    if not dealer_must_draw(best, soft, h17):
        return BLACKJACK if cards == 2 and best == 21 else str(best)
    return None


@lru_cache(maxsize=4096)
def _dealer_final(composition: tuple[int, ...], known: tuple[int, ...], h17: bool) -> DealerFinal:
    total = sum(composition)
    start_hard = sum(RANK_POINTS[r] for r in known)
    start_ace = ACE_INDEX in known
    first = len(known)
    done = _final(start_hard, start_ace, first, h17)
    if done is not None:  # the known cards already finish the hand
        return DealerFinal({(done, first): Fraction(1)})
    # drawn multiset -> [numerator, hard total, holds an Ace]
    level: dict[tuple[int, ...], list] = {(0,) * 10: [1, start_hard, start_ace]}
    denominator = 1
    acc: dict[tuple[str, int], Fraction] = {}
    depth = 0
    while level:
        denominator *= total - depth
        depth += 1
        cards = first + depth
        finals: dict[tuple[str, int], int] = {}
        nxt: dict[tuple[int, ...], list] = {}
        for drawn, (num, hard, ace) in level.items():
            for r in range(10):
                left = composition[r] - drawn[r]
                if left <= 0:
                    continue
                weight = num * left
                h = hard + RANK_POINTS[r]
                a = ace or r == ACE_INDEX
                if h > 21:
                    key = (BUST, cards)
                    finals[key] = finals.get(key, 0) + weight
                    continue
                best, soft = soft_total(h, a)
                if not dealer_must_draw(best, soft, h17):
                    outcome = BLACKJACK if cards == 2 and best == 21 else str(best)
                    key = (outcome, cards)
                    finals[key] = finals.get(key, 0) + weight
                    continue
                state = drawn[:r] + (drawn[r] + 1,) + drawn[r + 1 :]
                entry = nxt.get(state)
                if entry is None:
                    nxt[state] = [weight, h, a]
                else:
                    entry[0] += weight
        for key, num in finals.items():
            acc[key] = acc.get(key, Fraction(0)) + Fraction(num, denominator)
        level = nxt
    return DealerFinal(acc)


def dealer_outcomes(
    decks: int, *, h17: bool = True, removed: Iterable[int] = ()
) -> dict[str, DealerFinal]:
    """The dealer's final hand by upcard label ("A", "2", ..., "T"), before any peek.

    The dealer draws from the shoe less his upcard and the ``removed`` card ints (for the
    plain table: nothing else). An upcard the shoe no longer holds is left out.
    """
    base = shoe_composition(decks, removed)
    out: dict[str, DealerFinal] = {}
    for r, label in enumerate(RANK_LABELS):
        if base[r] == 0:
            continue
        comp = base[:r] + (base[r] - 1,) + base[r + 1 :]
        out[label] = dealer_final(comp, (r,), h17=h17)
    return out


def dealer_overall(decks: int, *, h17: bool = True, removed: Iterable[int] = ()) -> DealerFinal:
    """The dealer's whole hand from the shoe less ``removed``: what "always playing out the hand" means."""
    return dealer_final(shoe_composition(decks, removed), (), h17=h17)
