"""The dealer's final hand as floats, for any shoe: the pass the exact strategy tables run
once per composition they meet (hundreds of thousands of times for a ruleset's 21 bet).

The dealer's final hands are listed once per upcard (:func:`final_hands`: every multiset of
draws the drawing rule can end with, counted by its legal orderings), and a shoe brings only
the falling factorials of its rank counts (:func:`final_sums`): ``dealer_odds``' exact sum in
floats. The compiled build walks the listing's tuples in C and multiplies on C doubles, the
factorials an array of doubles (``dealer_pass.pxd``). A six-deck pass, mean over the ten
upcards, on the 2-core VM (reference loop 8.3 us): 27 us compiled (72 us before the types);
the plain-Python reference build 144 us (111 us with the factorials in a list, which the
compiled build would read at 54 us; flat arrays of terms made it 23.5 us compiled but 315 us
plain). One definition serves both builds.

Imports: ``dealer_odds`` (rank indices and points) and the vocabulary's totals and dealer rule.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache

from ..vocabulary.hands import dealer_must_draw, soft_total
from .dealer_odds import ACE_INDEX, RANK_POINTS

RANKS = range(10)
ZERO = (0,) * 10
# Dealer outcome slots: 0..4 = final 17..21, 5 = natural, 6 = bust.
NATURAL, BUST = 5, 6


def falling_factorials(counts: Sequence[int], stride: int) -> array:
    """Per rank count n, n(n-1)...(n-k+1) for k < stride, flattened: the ordered draws of k cards
    (an array of doubles: the compiled build reads it as one)."""
    f = array("d")
    for n in counts:
        x = 1.0
        f.append(1.0)
        for k in range(stride - 1):
            x *= n - k
            f.append(x if x > 0 else 0.0)
    return f


def dealer_distribution(comp: Sequence[int], up: int, h17: bool) -> tuple[float, ...]:
    """The dealer's final hand, upcard ``up`` (rank index) held, drawing from ``comp``.

    ``(P17, P18, P19, P20, P21, P(natural), P(bust))`` as floats: a sum over the multisets the
    dealer can end with, each counted by its legal orderings (:func:`final_hands`, once per
    upcard and soft-17 rule), a shoe bringing only the falling factorials (:func:`final_sums`):
    ``dealer_odds.dealer_final``'s sum in floats, a few times faster than walking the hands."""
    stride, terms = final_hands(RANK_POINTS[up], up == ACE_INDEX, 1, bool(h17))
    return final_sums(comp, stride, terms, 7)


def final_sums(comp: Sequence[int], stride: int, terms: tuple, slots: int) -> tuple[float, ...]:
    """Each final multiset's orderings x its falling factorials / the ordered draws of its size
    (``terms``: ``((slot, cards drawn, ((orderings, (index, ...)), ...)), ...)``, all tuples, the
    orderings as floats: the compiled build walks them in C); shared with :mod:`.hole_card`."""
    f = falling_factorials(comp, stride)
    total = sum(comp)
    out = [0.0] * slots
    for slot, k, group in terms:
        acc = 0.0
        for count, factors in group:
            p = count
            for i in factors:
                p *= f[i]
            acc += p
        if acc:
            x = 1.0
            for j in range(k):
                x *= total - j
            out[slot] += acc / x
    return tuple(out)


@lru_cache(maxsize=160)
def final_hands(hard: int, ace: bool, cards: int, h17: bool) -> tuple[int, tuple]:
    """The dealer's final hands from a start of ``cards`` cards worth ``hard`` (Aces counted 1),
    an Ace among them or not: the upcard alone, or the upcard and a known hole card. The one
    listing of the dealer's draws (the 21 bet's strategy, the hole-card values, Ante Up 21's
    dealer poker hands): ``(stride, ((slot, cards drawn, terms), ...))``, slots 0..4 = final
    17..21, 5 = natural (a two-card 21), 6 = bust; a term is ``(legal orderings, (index of
    (rank, copies), ...))`` with index ``rank x stride + copies`` into the shoe's falling
    factorials (:func:`final_sums`). A start that already stands draws nothing."""
    finals: dict[tuple[tuple[int, ...], int], int] = {}
    level = {ZERO: (1, hard, ace)}
    while level:
        nxt: dict[tuple[int, ...], tuple[int, int, bool]] = {}
        for drawn, (count, h, a) in level.items():
            n = cards + sum(drawn)
            best, soft = soft_total(h, a)
            if h > 21:
                slot = BUST
            elif dealer_must_draw(best, soft, h17):
                for r in RANKS:
                    state = drawn[:r] + (drawn[r] + 1,) + drawn[r + 1 :]
                    entry = nxt.get(state)
                    nxt[state] = (count if entry is None else entry[0] + count, h + RANK_POINTS[r],
                                  a or r == ACE_INDEX)
                continue
            else:
                slot = NATURAL if n == 2 and best == 21 else best - 17
            finals[(drawn, slot)] = finals.get((drawn, slot), 0) + count
        level = nxt
    stride = 1 + max(max(state) for state, _slot in finals)
    groups: dict[tuple[int, int], list[tuple[float, tuple[int, ...]]]] = {}
    for (state, slot), count in finals.items():
        term = (float(count), tuple(r * stride + d for r, d in enumerate(state) if d))
        groups.setdefault((slot, sum(state)), []).append(term)
    return stride, tuple((slot, k, tuple(terms)) for (slot, k), terms in sorted(groups.items()))
