"""The dealer's exact final hand at Poker or Bust for any composition of the shoe, by rank
multisets and suits per rank (tables/games/README.md, "Poker or Bust's exact math").

1. *Ranks, listed once.* The dealer's drawing rule reads points only, so the final hands are
   listed once per upcard rank as multisets R of drawn ranks, each with W(R), the number of
   orders of R's ranks the rule allows (the hole card and the third card always, then a card
   more while at 22 or less). For any composition the probability of R is
   ``W(R) * prod_r fall(m_r, k_r) / fall(N, |R|)`` (m_r cards of rank r left, k_r of them
   drawn, N cards left): the removal of the player's cards enters exactly through m_r and N,
   and no forward pass over card multisets is made per composition.
2. *Suits per rank.* Given R, the suits of the k_r cards of rank r are a uniform draw from
   the cards of rank r left, independently across ranks. Any three cards are worth either
   their suited value (all one suit) or their ranks' plain value, so the dealer's value is
   ``max(V0, U)``: V0 the best plain value of R's ranks and the upcard, U the best value
   among the cards of one suit. When no suited three of R's ranks beats V0 the suits are
   not drawn at all; otherwise every assignment of suit counts to the ranks is summed with
   its hypergeometric weight. All values are read from the one hand table
   (:mod:`.three_card_poker`).

The outcome is the same :class:`DealerOutcome` the card-by-card pass gave; the tests hold it
to a brute force that deals the hole card first.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from ..vocabulary.cards import BJ_POINTS
from . import three_card_poker as tcp
from .game import BUST_ABOVE, DEALER_STANDS_FROM

#: Points of rank index r (0 = Ace .. 12 = King); card = 4 * r + suit.
POINTS = tuple(BJ_POINTS[4 * r] for r in range(13))


class TooLarge(ValueError):
    """The shoe is too large for exact enumeration within the solver's budget."""


@dataclass(frozen=True)
class DealerOutcome:
    """The dealer's final hand for one composition: bust probability and, sorted by poker
    value, the probability of each value the dealer can stand with."""

    bust: float
    values: tuple[int, ...]
    below: tuple[float, ...]  # below[i]: P(standing with a value < values[i])
    standing: float

    def ante(self, value: int) -> tuple[float, float]:
        """(mean, P(not a push)) of the Ante net for a standing player's ``value``."""
        vals = self.values
        lo = bisect_left(vals, value)
        hi = bisect_right(vals, value)
        p_below = self.below[lo] if lo < len(vals) else self.standing
        p_upto = self.below[hi] if hi < len(vals) else self.standing
        p_above = self.standing - p_upto
        win = self.bust + p_below
        return win - p_above, win + p_above


def _plain(ranks: Sequence[int]) -> int:
    """V0: the best plain (not all one suit) value of three of ``ranks`` (rank indices,
    sorted, repeats allowed), from the one table: suits 0, 1, 2 make three cards unsuited."""
    best = 0
    n = len(ranks)
    value3 = tcp.value3
    for i in range(n - 2):
        for j in range(i + 1, n - 1):
            for k in range(j + 1, n):
                v = value3(4 * ranks[i], 4 * ranks[j] + 1, 4 * ranks[k] + 2)
                if v > best:
                    best = v
    return best


@dataclass(frozen=True)
class Final:
    """One final rank multiset R of the dealer's draws (the upcard apart)."""

    ranks: tuple[tuple[int, int], ...]  # (rank index, k_r) for each rank drawn
    n: int  # cards drawn
    ways: int  # W(R)
    bust: bool
    plain: int  # V0: the best plain value with the upcard's rank
    suited: int  # the best value of three of these ranks all of one suit
    suited_matters: bool  # some suited three of these ranks beats V0


@lru_cache(maxsize=64)
def finals(up_rank: int, caps: tuple[int, ...]) -> tuple[Final, ...]:
    """Every final rank multiset of the dealer's draws with an upcard of rank index
    ``up_rank`` and at most ``caps[r]`` cards of rank r drawn, with W(R): one forward pass
    over the drawing (intermediate) rank multisets, counting orders."""
    level: dict[tuple[int, ...], int] = {(): 1}
    totals = {(): POINTS[up_rank]}
    done: dict[tuple[int, ...], int] = {}
    while level:
        nxt: dict[tuple[int, ...], int] = {}
        for drawn, ways in level.items():
            total = totals[drawn]
            for r in range(13):
                if drawn.count(r) >= caps[r]:
                    continue
                grown = tuple(sorted((*drawn, r)))
                t = total + POINTS[r]
                if len(grown) >= 2 and t >= DEALER_STANDS_FROM:
                    done[grown] = done.get(grown, 0) + ways
                    totals[grown] = t
                else:
                    nxt[grown] = nxt.get(grown, 0) + ways
                    totals[grown] = t
        level = nxt
    out = []
    for drawn, ways in done.items():
        counts: dict[int, int] = {}
        for r in drawn:
            counts[r] = counts.get(r, 0) + 1
        bust = totals[drawn] > BUST_ABOVE
        allr = tuple(sorted((up_rank, *drawn)))
        plain = 0 if bust else _plain(allr)
        # the best suited value of any three of these ranks (one card each time, all spades)
        suited = 0 if bust else tcp.best_value([4 * r for r in allr])
        out.append(Final(tuple(sorted(counts.items())), len(drawn), ways, bust, plain, suited, suited > plain))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _splits(k: int, left: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every way k cards of one rank fall into the four suits, drawn from ``left`` (the
    cards of that rank left, by suit), with its probability (multivariate hypergeometric)."""
    total = comb(sum(left), k)
    out = []
    for a in range(min(k, left[0]) + 1):
        for b in range(min(k - a, left[1]) + 1):
            for c in range(min(k - a - b, left[2]) + 1):
                d = k - a - b - c
                if d > left[3]:
                    continue
                ways = comb(left[0], a) * comb(left[1], b) * comb(left[2], c) * comb(left[3], d)
                out.append(((a, b, c, d), ways / total))
    return tuple(out)


@lru_cache(maxsize=1 << 18)
def _best(cards: tuple[int, ...]) -> int:
    """The best value of three of ``cards`` (0 below three), memoised."""
    return tcp.best_value(cards) if len(cards) >= 3 else 0


def drawn_value(by_suit: Sequence[tuple[int, ...]], plain: int) -> int:
    """The dealer's value once his suits are drawn: the best of V0 (``plain``) and of each
    suit's cards (``by_suit``: the cards of each suit, repeats included) that make three."""
    best = plain
    for cards in by_suit:
        if len(cards) >= 3:
            v = _best(cards)
            if v > best:
                best = v
    return best


#: Poker order of the rank indices, best first (the Ace high): A, K, Q, ..., 2.
_DESCENDING = (0, *range(12, 0, -1))
_HIGH = (14, *range(2, 14))  # the Ace-high rank (2..14) of rank index r


#: Up to this many suit assignments an R's suit draw is summed assignment by assignment
#: (cheaper there than the pass below: a six-deck pass with a ten-value or a 7 up takes 20%
#: less CPU than with the pass alone, measured 2026-11-29).
ENUMERATE_UP_TO = 4096


def _suit_draw(final: Final, left: Sequence[int], upcard: int, p: float, dist: dict[int, float]) -> int:
    """Add to ``dist`` the dealer's value over the suit draws of ``final`` (probability
    ``p`` for R), by :func:`_suit_enumerate` or :func:`_suit_pass`, whichever is cheaper:
    returns the work done."""
    per_rank = []
    count = 1
    for r, k in final.ranks:
        base = 4 * r
        splits = _splits(k, (left[base], left[base + 1], left[base + 2], left[base + 3]))
        per_rank.append((base, splits))
        count *= len(splits)
    if count <= ENUMERATE_UP_TO:
        return _suit_enumerate(final, per_rank, upcard, p, dist)
    return _suit_pass(final, left, upcard, p, dist)


def _suit_enumerate(final: Final, per_rank, upcard: int, p: float, dist: dict[int, float]) -> int:
    """Every assignment of suit counts to R's ranks (``per_rank``: each rank's first card
    and its splits), weighted, each suit's cards valued by the one table."""
    start: list[tuple[int, ...]] = [(), (), (), ()]
    start[upcard % 4] = (upcard,)
    plain = final.plain
    work = 0
    stack = [(0, p, start)]
    depth = len(per_rank)
    while stack:
        i, q, suits = stack.pop()
        if i == depth:
            work += 1
            best = drawn_value(suits, plain)
            dist[best] = dist.get(best, 0.0) + q
            continue
        base, splits = per_rank[i]
        for counts, w in splits:
            grown = list(suits)
            for s in range(4):
                j = counts[s]
                if j:
                    grown[s] = (*grown[s], *((base + s,) * j))
            stack.append((i + 1, q * w, grown))
    return work


def _suit_pass(final: Final, left: Sequence[int], upcard: int, p: float, dist: dict[int, float]) -> int:
    """Add to ``dist`` the dealer's value over the suit draws of ``final`` (probability
    ``p`` for R). A pass over R's ranks from the Ace down keeps, per suit, only what that
    suit's cards can still become, and the best value found so far (at least V0):

    * a suit with fewer than three distinct ranks keeps them (one card each): its flush is
      made of them and a lower card;
    * a suit with three or more has its flush already counted (a lower card makes a lower
      flush), and keeps only the ranks a lower card can still make a straight flush with:
      the next two ranks up, and the Ace when R holds a 3 or a 2 (A-2-3);
    * a suit that cannot reach three ranks keeps nothing, and once the best value found
      is the best any suited three of R's ranks can make, the suits are not drawn further;
    * a second copy of a card makes only a pair with it (a plain value, at most V0); a
      third makes suited three of a kind, priced when the rank is drawn.

    Each new rank's suited threes are priced by the one table on the kept cards plus the
    new ones; equal states merge. Returns the number of states visited (the work)."""
    up_rank, up_suit = divmod(upcard, 4)
    drawn = dict(final.ranks)
    order = [r for r in _DESCENDING if r in drawn or r == up_rank]
    empty = (0, ())
    states: dict[tuple, float] = {((empty, empty, empty, empty), final.plain): p}
    work = 0
    ace_low = _HIGH[order[-1]] <= 3  # a 3 or a 2 is still to come: A-2-3 may be made
    top = final.suited
    for i, r in enumerate(order):
        rest = len(order) - i  # ranks still to come, this one included
        h = _HIGH[r]
        keep = {h + 1, h + 2}
        if ace_low:
            keep.add(14)
        k = drawn.get(r, 0)
        base = 4 * r
        splits = _splits(k, (left[base], left[base + 1], left[base + 2], left[base + 3])) if k else (((0, 0, 0, 0), 1.0),)
        nxt: dict[tuple, float] = {}
        for (suits, best), q in states.items():
            if best >= top:  # nothing of one suit can beat it any more
                nxt[(suits, best)] = nxt.get((suits, best), 0.0) + q
                continue
            # prune what no card of this rank or lower can use
            pruned = []
            for distinct, cards in suits:
                if distinct + rest < 3:  # never three ranks: a third copy alone can count
                    distinct, cards = 3, ()
                if distinct >= 3:
                    cards = tuple(c for c in cards if _HIGH[c >> 2] in keep)
                pruned.append((distinct, cards))
            for counts, w in splits:
                grown = []
                b = best
                for s in range(4):
                    j = counts[s] + (1 if r == up_rank and s == up_suit else 0)
                    distinct, cards = pruned[s]
                    if j:
                        v = _best(cards + (base + s,) * min(j, 3))
                        if v > b:
                            b = v
                        distinct = min(distinct + 1, 3)
                        cards = (*cards, base + s)
                    grown.append((distinct, cards))
                key = (tuple(grown), b)
                nxt[key] = nxt.get(key, 0.0) + q * w
                work += 1
        states = nxt
    for (_suits, best), q in states.items():
        dist[best] = dist.get(best, 0.0) + q
    return work


def _fall(m: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= m - i
    return out


def rank_draws(up_rank: int, m: Sequence[int], caps: tuple[int, ...] | None = None):
    """(final, P(R)) for every final rank multiset R the dealer can draw with an upcard of rank
    index ``up_rank`` from ``m[r]`` cards of each rank left (``caps``: the listing to read, by
    default ``m``'s own): ``W(R) * prod_r fall(m_r, k_r) / fall(N, |R|)``, the ones with no
    chance left out."""
    size = sum(m)
    falls: dict[int, int] = {}
    for final in finals(up_rank, tuple(m) if caps is None else caps):
        num = final.ways
        for r, k in final.ranks:
            if k > m[r]:
                num = 0
                break
            num *= _fall(m[r], k)
        if not num:
            continue
        den = falls.get(final.n)
        if den is None:
            den = falls[final.n] = _fall(size, final.n)
            if den == 0:
                raise ValueError("the shoe ran out before the dealer finished")
        yield final, num / den


def dealer_outcome(left: Sequence[int], upcard: int, caps: tuple[int, ...] | None = None,
                   budget: list[int] | None = None,
                   suit_memo: dict[tuple, tuple[tuple[int, float], ...]] | None = None) -> DealerOutcome:
    """The dealer's exact distribution from ``left`` (counts of the 52 cards left after the
    upcard and the player's cards). ``caps[r]``: the most cards of rank r the dealer could
    draw (the listing is shared by every composition with the same caps; by default the
    counts left). ``budget`` is ``[used, limit]`` of suit assignments summed, shared by the
    passes of one solve: beyond it :class:`TooLarge`. ``suit_memo``, shared by the passes of
    one solve with one upcard, keeps each R's suit draw by the cards left of R's ranks (the
    player's cards of other ranks do not change it), as (value, probability given R)."""
    m = [left[4 * r] + left[4 * r + 1] + left[4 * r + 2] + left[4 * r + 3] for r in range(13)]
    up_rank = upcard // 4
    bust = 0.0
    dist: dict[int, float] = {}
    work = 0
    for final, p in rank_draws(up_rank, m, caps):
        if final.bust:
            bust += p
        elif not final.suited_matters:
            dist[final.plain] = dist.get(final.plain, 0.0) + p
        elif suit_memo is None:
            work += _suit_draw(final, left, upcard, p, dist)
        else:
            key = (final, *(tuple(left[4 * r : 4 * r + 4]) for r, _k in final.ranks))
            given = suit_memo.get(key)
            if given is None:
                cond: dict[int, float] = {}
                work += _suit_draw(final, left, upcard, 1.0, cond)
                given = suit_memo[key] = tuple(cond.items())
            for v, q in given:
                dist[v] = dist.get(v, 0.0) + p * q
        work += 1
    if budget is not None:
        budget[0] += work
        if budget[0] > budget[1]:
            raise TooLarge(
                f"pricing this shoe takes more than {budget[1]:,} dealer hands and suit draws: the "
                "shoe is too large for exact enumeration"
            )
    if abs(bust + sum(dist.values()) - 1.0) > 1e-9:
        # some draw sequence found no card left before the dealer reached 23
        raise ValueError("the shoe ran out before the dealer finished")
    return outcome(bust, dist)


def outcome(bust: float, dist: dict[int, float]) -> DealerOutcome:
    """The :class:`DealerOutcome` of a bust mass and masses by standing value (signed masses
    too: the dealer tables' terms, :mod:`.dealer_moments`)."""
    values = tuple(sorted(dist))
    below = []
    acc = 0.0
    for v in values:
        below.append(acc)
        acc += dist[v]
    return DealerOutcome(bust, values, tuple(below), acc)
