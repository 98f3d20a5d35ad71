"""The dealer's final hand at Poker or Bust against any player hand, from tables built once per
upcard and shoe: inclusion-exclusion over the cards the player and the dealer could share.

Why: :func:`.dealer.dealer_outcome` prices one composition of the shoe exactly, but a six-deck
stand costs it seconds to minutes, and the solve needs one per player hand it stands with. Here
the dealer is enumerated once, from the shoe less the upcard only, and each player hand is then
a few dozen table reads (tables/games/README.md, "Poker or Bust: the dealer against any hand").

The identity. S is the shoe less the upcard (N cards, M_x of card x, m_r of rank r); the dealer
draws a final multiset D of n cards (the upcard apart); the player holds H (h cards, h_x of card
x). Drawing from S less H is drawing from S with none of H's physical cards among the dealer's:

    P_{S-H}(D) = fall(N, n) / fall(N - h, n) * P_S(D) * prod_x C(M_x - h_x, d_x) / C(M_x, d_x)

and, card by card, C(M - h, d) / C(M, d) = sum_t (-1)^t C(h, t) fall(d, t) / fall(M, t). So

    P_{S-H}(E, n) = c(h, n) * sum over sub-multisets t of H of (-1)^|t| prod_x C(h_x, t_x) * T[t][n][E]
    T[t][n][E] = sum over final D of n cards in E of P_S(D) prod_x fall(d_x, t_x) / fall(M_x, t_x)

(c(h, n) = fall(N, n) / fall(N - h, n)): exact when every t is kept. Kept to ``|t| <= order``
(Bonferroni), the error of any event's probability is at most c(h, n) E_S[C(k, order + 1); n], k
the number of H's cards the dealer holds: :meth:`DealerMoments.ante` returns that bound with the
figures. It is about C(h, 4) E[fall(n, 4)] / fall(N, 4) at the default order 3 (a few 1e-8 for a
five-card hand at six decks).

Two tables, because the suits only matter where a suited three beats the ranks' best plain value:

* *ranks*: every final rank multiset R at its plain value V0 (or bust). Its moments sum over the
  suits in closed form (the suits of each rank are a multivariate hypergeometric draw:
  E[prod_s fall(d_rs, t_rs) / fall(M_rs, t_rs) | R] = fall(k_r, t_r) / fall(m_r, t_r)), and
  sum_{t of rank profile p} prod_x C(h_x, t_x) = prod_r C(h_r, p_r) (Vandermonde), so this table is
  kept per rank multiset p, and the bound's moments of order + 1 come from it too;
* *suits*: each suit draw whose suited three beats V0 moves its probability from V0 to its value,
  kept per card multiset t.

Values are floats summed from exact rational weights (error a few units of the last place); the
tests hold the full expansion to :func:`.dealer.dealer_outcome` with the player's cards removed,
and the truncated one to it within the bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations
from math import comb, factorial

from .dealer import DealerOutcome, _fall, _splits, drawn_value, finals, outcome, rank_draws

#: The value key of a bust (below every poker value).
BUST = -1
#: Shared cards kept by default: the error bound is then a few 1e-8 per hand at six decks.
ORDER = 3


def sub_multisets(parts: Sequence[tuple[int, Sequence[float]]], most: int) -> list[tuple[tuple[int, ...], float]]:
    """Every sub-multiset of at most ``most`` items of a multiset with its weight, the product of
    its items' factors: ``parts`` is (item, f) per distinct item, items increasing, f[t] the
    factor of taking t copies (f[0] = 1; len(f) - 1 copies at most). The empty one comes first.
    The tables' moments (f[t] = fall(d, t) / fall(M, t)) and a hand's coefficients
    (f[t] = (-1)^t C(h, t)) are both read this way."""
    out: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
    for item, f in parts:
        grown = []
        for key, w in out:
            grown.append((key, w))
            for t in range(1, min(most - len(key), len(f) - 1) + 1):
                grown.append((key + (item,) * t, w * f[t]))
        out = grown
    return out


@lru_cache(maxsize=4096)
def _moments(have: int, of: int, most: int) -> tuple[float, ...]:
    """fall(have, t) / fall(of, t) for t = 0 .. min(have, most): the chance that t given cards
    of ``of`` alike are all among the ``have`` drawn."""
    return tuple(_fall(have, t) / _fall(of, t) for t in range(min(have, most) + 1))


@lru_cache(maxsize=256)
def _signed(have: int, most: int) -> tuple[float, ...]:
    """(-1)^t C(have, t) for t = 0 .. min(have, most)."""
    return tuple(-comb(have, t) if t & 1 else comb(have, t) for t in range(min(have, most) + 1))


@lru_cache(maxsize=4096)
def _orbit(split: tuple[int, ...], blocks: tuple[tuple[int, ...], ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """For a rank's suit counts ``split`` when the suits of each of ``blocks`` are still
    interchangeable: (0, ()) unless ``split`` is its orbit's representative (counts not
    increasing within each block), else (the orbit's size, the blocks left interchangeable:
    each block cut into its runs of equal counts)."""
    size = 1
    finer: list[tuple[int, ...]] = []
    for block in blocks:
        counts = [split[s] for s in block]
        if any(a < b for a, b in zip(counts, counts[1:], strict=False)):
            return 0, ()
        start = 0
        arrangements = factorial(len(block))
        for j in range(1, len(block) + 1):
            if j == len(block) or counts[j] != counts[start]:
                finer.append(block[start:j])
                arrangements //= factorial(j - start)
                start = j
        size *= arrangements
    return size, tuple(finer)


def _class_means(table: dict, suits: tuple[int, ...]) -> dict:
    """``table`` (card multiset -> n -> value -> mass) with each key's entry the mean over the
    key's images under every permutation of ``suits`` (the table of one draw per orbit, each
    weighted by its orbit's size, holds the sum of a class's entries under every key of it)."""
    out: dict = {}
    for key in table:
        if key in out:
            continue
        images = set()
        for perm in permutations(suits):
            move = dict(zip(suits, perm, strict=True))
            images.add(tuple(sorted(4 * (c >> 2) + move.get(c & 3, c & 3) for c in key)))
        mean: dict[int, dict[int, float]] = {}
        for image in images:
            for n, cell in table.get(image, {}).items():
                got = mean.setdefault(n, {})
                for v, w in cell.items():
                    got[v] = got.get(v, 0.0) + w / len(images)
        for image in images:
            out[image] = mean
    return out


def _outcome(cell: dict[int, float]) -> DealerOutcome:
    return outcome(cell.pop(BUST, 0.0), cell)


def _less_upcard(shoe: Sequence[int], upcard: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The shoe S the dealer draws from (``shoe`` less the upcard): its counts of the 52 cards
    and of the 13 ranks."""
    left = list(shoe)
    left[upcard] -= 1
    if left[upcard] < 0:
        raise ValueError("the upcard is not in the shoe")
    return tuple(left), tuple(sum(left[4 * r : 4 * r + 4]) for r in range(13))


def build_size(shoe: Sequence[int], upcard: int) -> int:
    """How many suit draws the tables of ``upcard`` and ``shoe`` enumerate at most (the dealer's
    final card multisets whose suits can matter), counted in under a second: what a caller
    weighs before building them (2.3 million with a ten-value up at six decks, 272 million
    with an Ace)."""
    left, m = _less_upcard(shoe, upcard)
    size = 0
    for final in finals(upcard // 4, m):
        if final.bust or not final.suited_matters:
            continue
        ways = 1
        for r, k in final.ranks:
            ways *= len(_splits(k, left[4 * r : 4 * r + 4]))
        size += ways
    return size


class DealerMoments:
    """The tables of one upcard and shoe (the shoe's counts of the 52 cards, upcard included)."""

    def __init__(self, shoe: Sequence[int], upcard: int, order: int = ORDER, *, suit_orbits: bool = True) -> None:
        self.left, self.rank_counts = _less_upcard(shoe, upcard)
        self.upcard = upcard
        self.order = order
        self.suit_orbits = suit_orbits  # False: every suit draw, the reference the tests hold orbits to
        self.size = sum(self.left)
        # key -> n -> the term's (signed) masses by the dealer's value
        self.ranks: dict[tuple[int, ...], dict[int, DealerOutcome]] = {}
        self.suits: dict[tuple[int, ...], dict[int, DealerOutcome]] = {}
        self.bound: dict[tuple[int, ...], dict[int, float]] = {}
        self._build()

    def _build(self) -> None:
        left, m, order = self.left, self.rank_counts, self.order
        up_rank, up_suit = divmod(self.upcard, 4)
        # The suits other than the upcard's are interchangeable when every rank has as many
        # cards left of each (a whole shoe): a suit draw and its images give the same value.
        others = tuple(s for s in range(4) if s != up_suit)
        if self.suit_orbits and all(len({left[4 * r + s] for s in others}) == 1 for r in range(13)):
            self._alike: tuple[tuple[int, ...], ...] = (others,)
        else:
            self._alike = tuple((s,) for s in others)
        ranks: dict[tuple[int, ...], dict[int, dict[int, float]]] = {}
        suits: dict[tuple[int, ...], dict[int, dict[int, float]]] = {}
        bound: dict[tuple[int, ...], dict[int, float]] = {}
        for final, p in rank_draws(up_rank, m):
            n = final.n
            v0 = BUST if final.bust else final.plain
            for key, w in sub_multisets([(r, _moments(k, m[r], order + 1)) for r, k in final.ranks], order + 1):
                w *= p
                if len(key) <= order:
                    cell = ranks.setdefault(key, {}).setdefault(n, {})
                    cell[v0] = cell.get(v0, 0.0) + w
                else:
                    per_n = bound.setdefault(key, {})
                    per_n[n] = per_n.get(n, 0.0) + w
            if final.bust or not final.suited_matters:
                continue
            # the suit draws of R whose suited three beats V0: their mass moves from V0; one
            # draw per orbit of the interchangeable suits, weighted by the orbit's size
            per_rank = [(4 * r, _splits(k, left[4 * r : 4 * r + 4])) for r, k in final.ranks]
            start: list[tuple[int, ...]] = [(), (), (), ()]
            start[up_suit] = (self.upcard,)
            stack = [(0, p, start, (), self._alike)]
            depth = len(per_rank)
            # cards still to come after rank i: a suit that cannot reach three cards makes nothing
            to_come = [sum(k for _r, k in final.ranks[i:]) for i in range(depth + 1)]
            while stack:
                i, q, by_suit, drawn, blocks = stack.pop()
                if max(len(cards) for cards in by_suit) + to_come[i] < 3:
                    continue
                if i < depth:
                    base, splits = per_rank[i]
                    for split, w in splits:
                        orbit, finer = _orbit(split, blocks)
                        if not orbit:
                            continue
                        grown = list(by_suit)
                        parts = drawn
                        for s in range(4):
                            j = split[s]
                            if j:
                                grown[s] = (*grown[s], *((base + s,) * j))
                                parts = (*parts, (base + s, j))
                        stack.append((i + 1, q * w * orbit, grown, parts, finer))
                    continue
                best = drawn_value(by_suit, v0)
                if best == v0:
                    continue
                for key, w in sub_multisets([(x, _moments(j, left[x], order)) for x, j in sorted(drawn)], order):
                    w *= q
                    cell = suits.setdefault(key, {}).setdefault(n, {})
                    cell[best] = cell.get(best, 0.0) + w
                    cell[v0] = cell.get(v0, 0.0) - w
        if self._alike[0][1:]:
            suits = _class_means(suits, self._alike[0])
        self.ranks = {key: {n: _outcome(cell) for n, cell in per_n.items()} for key, per_n in ranks.items()}
        self.suits = {key: {n: _outcome(cell) for n, cell in per_n.items()} for key, per_n in suits.items()}
        self.bound = bound
        self._counts = tuple(sorted(self.ranks[()]))  # every n the dealer can end with

    def _removal(self, h: int) -> dict[int, float]:
        """c(h, n) for every n the tables hold (0 where the dealer could not draw n cards)."""
        ns = self._counts
        return {n: _fall(self.size, n) / _fall(self.size - h, n) if self.size - h >= n else 0.0 for n in ns}

    def ante(self, hand: Sequence[int], value: int) -> tuple[float, float, float]:
        """(mean Ante net, P(not a push), error bound of each) for a player standing with
        ``hand`` (card indices, none of them the upcard's physical card) at poker ``value``."""
        by_card: dict[int, int] = {}
        for c in hand:
            by_card[c] = by_card.get(c, 0) + 1
        by_rank: dict[int, int] = {}
        for c, k in by_card.items():
            by_rank[c >> 2] = by_rank.get(c >> 2, 0) + k
        removal = self._removal(len(hand))
        mean = nonzero = 0.0
        for table, counts in ((self.ranks, by_rank), (self.suits, by_card)):
            for key, coef in sub_multisets([(x, _signed(k, self.order)) for x, k in sorted(counts.items())],
                                           self.order):
                per_n = table.get(key)
                if per_n is None:
                    continue
                for n, term in per_n.items():
                    w = coef * removal[n]
                    if w:
                        m, nz = term.ante(value)
                        mean += w * m
                        nonzero += w * nz
        error = 0.0
        for key, coef in sub_multisets([(r, _signed(k, self.order + 1)) for r, k in sorted(by_rank.items())],
                                       self.order + 1):
            if len(key) <= self.order:
                continue
            per_n = self.bound.get(key)
            if per_n is None:
                continue
            error += abs(coef) * sum(removal.get(n, 0.0) * q for n, q in per_n.items())
        return mean, nonzero, error
