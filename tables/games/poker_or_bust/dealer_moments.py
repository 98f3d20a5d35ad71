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

Speed: the build walks the suit draws by a C recursion over flat arrays and adds each improving
draw to an open-addressing table of C numbers (:class:`_SuitDraws`, :class:`_Cells`), and a
hand's terms are read by integer codes (:class:`_Sized`); the build's rank table, its suit
draws and a hand's reads enumerate sub-multisets by the one walk, :class:`_Walk`:
an Ace up at six decks builds in about 106 s, a King in about 2 s, and a hand is read in
microseconds.

Values are floats summed from exact rational weights (error a few units of the last place); the
tests hold the full expansion to :func:`.dealer.dealer_outcome` with the player's cards removed,
and the truncated one to it within the bound.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations
from math import comb

from .dealer import DealerOutcome, Final, _best, _fall, _splits, finals, outcome, rank_draws

#: The value key of a bust (below every poker value).
BUST = -1
#: Shared cards kept by default: the error bound is then a few 1e-8 per hand at six decks.
ORDER = 3


#: Above every poker value (8 categories of 12 bits): a term's last value, whose reads are those of
#: a player above all its dealer values.
_ABOVE_ALL = 1 << 15
#: Copies of an item the walk's factors hold (``factor[STRIDE * p + t]``, t = 0 .. STRIDE - 1).
_STRIDE = 12


class _Walk:
    """Every sub-multiset of at most ``most`` items of a multiset, each with the product of its
    items' factors, handed to :meth:`_visit` by its code (one digit per item, item + 1, in
    ``base``, items increasing) with its size: the one enumeration the tables' build and a
    hand's reads share, a C recursion when compiled. Item p (``item[p]``, increasing) has
    ``copies[p]`` copies and factor ``factor[_STRIDE * p + t]`` for t of them (t = 0 reads 1).
    The tables' moments (fall(d, t) / fall(M, t)) and a hand's coefficients ((-1)^t C(h, t))
    are both walked this way."""

    def __init__(self, base: int) -> None:
        self.base = base
        self.item = array("q", [0]) * 64
        self.copies = array("q", [0]) * 64
        self.factor = array("d", [0.0]) * (64 * _STRIDE)
        self.items = 0

    def load(self, parts: Sequence[tuple[int, Sequence[float]]]) -> None:
        """The multiset as (item, f) per distinct item, items increasing, f[t] the factor of t
        copies (f[0] = 1, len(f) - 1 copies at most)."""
        p = 0
        for x, f in parts:
            self.item[p] = x
            self.copies[p] = len(f) - 1
            for t in range(len(f)):
                self.factor[_STRIDE * p + t] = f[t]
            p += 1
        self.items = p

    def walk(self, start: int, code: int, size: int, w: float, most: int) -> None:
        """Visit ``code`` (``size`` items, weight ``w``), then every sub-multiset that grows it
        from item ``start`` on by at most ``most`` items."""
        self._visit(code, size, w)
        for p in range(start, self.items):
            digit = self.item[p] + 1
            k = self.copies[p]
            grown = code
            t = 1
            while t <= k and t <= most:
                grown = grown * self.base + digit
                self.walk(p + 1, grown, size + t, w * self.factor[_STRIDE * p + t], most - t)
                t += 1

    def _visit(self, code: int, size: int, w: float) -> None:
        raise NotImplementedError


class _RankMoments(_Walk):
    """The build's rank table and the bound: each final rank multiset's moments (R's ranks with
    fall(k_r, t) / fall(m_r, t)) added to the rank keys of up to ``order`` ranks at V0 and to
    the bound's of ``order`` + 1, by n."""

    def __init__(self, order: int) -> None:
        super().__init__(14)
        self.order = order
        self.ranks: dict[int, dict[int, dict[int, float]]] = {}  # code -> n -> value -> mass
        self.bound: dict[int, dict[int, float]] = {}  # code -> n -> mass
        self.n = self.plain = 0

    def add(self, final: Final, m: Sequence[int], p: float) -> None:
        self.n = final.n
        self.plain = BUST if final.bust else final.plain
        self.load([(r, _moments(k, m[r], self.order + 1)) for r, k in final.ranks])
        self.walk(0, 0, 0, p, self.order + 1)

    def _visit(self, code: int, size: int, w: float) -> None:
        if size <= self.order:
            cell = self.ranks.setdefault(code, {}).setdefault(self.n, {})
            cell[self.plain] = cell.get(self.plain, 0.0) + w
        else:
            per_n = self.bound.setdefault(code, {})
            per_n[self.n] = per_n.get(self.n, 0.0) + w


@lru_cache(maxsize=4096)
def _moments(have: int, of: int, most: int) -> tuple[float, ...]:
    """fall(have, t) / fall(of, t) for t = 0 .. min(have, most): the chance that t given cards
    of ``of`` alike are all among the ``have`` drawn."""
    return tuple(_fall(have, t) / _fall(of, t) for t in range(min(have, most) + 1))


@lru_cache(maxsize=256)
def _signed(have: int, most: int) -> tuple[float, ...]:
    """(-1)^t C(have, t) for t = 0 .. min(have, most)."""
    return tuple(-comb(have, t) if t & 1 else comb(have, t) for t in range(min(have, most) + 1))


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


def _weighted(per_n: dict[int, DealerOutcome], weight: dict[int, float]) -> DealerOutcome:
    """sum over n of weight[n] x per_n[n], as one term."""
    bust = 0.0
    dist: dict[int, float] = {}
    for n, term in per_n.items():
        c = weight[n]
        if not c:
            continue
        bust += c * term.bust
        values, below = term.values, term.below
        last = len(values) - 1
        for i, v in enumerate(values):
            upto = below[i + 1] if i < last else term.standing
            dist[v] = dist.get(v, 0.0) + c * (upto - below[i])
    return outcome(bust, dist)


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


#: Copies of a card a key may name (``DealerMoments`` order): a key is the sorted card
#: multiset written in base 53, (card + 1) per digit, so it fits 64 bits up to ten cards.
MOST_SHARED = 10
#: Where the dense index of card keys of at most three cards (:meth:`_Sized.dense`) puts a
#: key: three cards a <= b <= c at a * 2704 + b * 52 + c, two at _PAIRS + a * 52 + b, one at
#: _SINGLES + a, none at _EMPTY.
_PAIRS = 52 * 52 * 52
_SINGLES = _PAIRS + 52 * 52
_EMPTY = _SINGLES + 52
#: Reads of a term at a value remembered by a hand-size reader (:meth:`_Sized._read`): 65,536.
_MEMO_MASK = (1 << 16) - 1
#: A suit's rank counts packed two bits a rank (0 to 3 copies: a fourth adds nothing to
#: three of one suit): what the suited value of that suit's cards reads.
_RANK_BITS = 2


class _Cells:
    """(key, slot) -> float, open addressing over flat arrays: the build's accumulator (a
    key is a card multiset in base 53, a slot the dealer's cards drawn and value)."""

    def __init__(self) -> None:
        self._alloc(1 << 16)
        self.used = 0

    def _alloc(self, size: int) -> None:
        self.keys = array("q", [-1]) * size
        self.slots = array("q", [0]) * size
        self.vals = array("d", [0.0]) * size
        self.touched = array("q", [0]) * (size // 2 + 1)  # the cells in use, in order of use
        self.mask = size - 1

    def add(self, key: int, slot: int, x: float) -> None:
        mask = self.mask
        h = key * 31 + slot
        h = (h ^ (h >> 29)) * 0x7FEB352D  # wraps when compiled: only the low bits are read
        i = (h ^ (h >> 32)) & mask
        while True:
            k = self.keys[i]
            if k == -1:
                self.keys[i] = key
                self.slots[i] = slot
                self.vals[i] = x
                self.touched[self.used] = i
                self.used += 1
                if 2 * self.used > mask:
                    self._grow()
                return
            if k == key and self.slots[i] == slot:
                self.vals[i] += x
                return
            i = (i + 1) & mask

    def _grow(self) -> None:
        keys, slots, vals = self.keys, self.slots, self.vals
        self._alloc(2 * (self.mask + 1))
        self.used = 0
        for i in range(len(keys)):
            if keys[i] != -1:
                self.add(keys[i], slots[i], vals[i])

    def drain(self, into: _Cells) -> None:
        """Add every cell to ``into`` and empty this table (only the cells in use are read)."""
        for n in range(self.used):
            i = self.touched[n]
            into.add(self.keys[i], self.slots[i], self.vals[i])
            self.keys[i] = -1
        self.used = 0

    def items(self):
        """(key, slot, value) of every cell."""
        keys = self.keys
        for i in range(len(keys)):
            if keys[i] != -1:
                yield keys[i], self.slots[i], self.vals[i]


def _decode(code: int, base: int) -> tuple[int, ...]:
    """The key a code names (its digits, item + 1 each, in order): a card multiset in base 53,
    a rank multiset in base 14."""
    items = []
    while code:
        code, digit = divmod(code, base)
        items.append(digit - 1)
    return tuple(reversed(items))


class _SuitDraws(_Walk):
    """The suit draws of the dealer's final rank multisets, one R at a time, each improving
    one added to the cells of its sub-multisets of up to ``order`` cards (the walk's items are
    the cards drawn so far): flat arrays and C recursion when compiled, the same code as plain
    Python."""

    def __init__(self, left: Sequence[int], upcard: int, alike: bool, order: int) -> None:
        super().__init__(53)
        self.cells = _Cells()
        # one R's cells gathered in a table that stays in the cache, then drained into cells
        self.local = _Cells()
        self.left = array("q", left)
        self.order = order
        self.upcard = upcard
        # a suit's rank-count code -> the best value of three of its cards all of one suit
        self.suited: dict[int, int] = {}
        # per rank level i: each suit's rank-count code and cards so far (upcard included)
        self.code = array("q", [0]) * (4 * 17)
        self.count = array("q", [0]) * (4 * 17)
        # labels[4 * i + s]: suits with one label are still interchangeable before rank i
        # (a whole shoe: the three other than the upcard's; else every suit its own)
        self.labels = array("q", [0]) * (4 * 16)
        up_suit = upcard & 3
        for s in range(4):
            self.labels[s] = s if (s == up_suit or not alike) else (1 if up_suit == 0 else 0)
        self.rank_base = array("q", [0]) * 16
        self.to_come = array("q", [0]) * 17
        self.first = array("q", [0]) * 17  # rank i's splits: first .. first[i + 1] - 1
        self.split = array("q")  # four suit counts per split
        self.weight = array("d")
        self.slot_best = self.slot_plain = self.plain = self.n = self.depth = 0

    def draw(self, final: Final, p: float) -> None:
        """Every suit draw of ``final`` (probability ``p`` for R) whose suited three beats V0."""
        left = self.left
        self.depth = len(final.ranks)
        self.n = final.n
        self.plain = final.plain
        split = array("q")
        weight = array("d")
        i = 0
        for r, k in final.ranks:
            self.rank_base[i] = 4 * r
            self.first[i] = len(weight)
            for counts, w in _splits(k, (left[4 * r], left[4 * r + 1], left[4 * r + 2], left[4 * r + 3])):
                split.extend(counts)
                weight.append(w)
            i += 1
        self.first[i] = len(weight)
        self.split = split
        self.weight = weight
        come = 0
        for j in range(self.depth, -1, -1):
            self.to_come[j] = come
            if j:
                come += final.ranks[j - 1][1]
        for s in range(4):
            self.code[s] = 0
            self.count[s] = 0
        up_rank, up_suit = self.upcard >> 2, self.upcard & 3
        self.code[up_suit] = 1 << (_RANK_BITS * up_rank)
        self.count[up_suit] = 1
        self.items = 0
        self._descend(0, p)
        self.local.drain(self.cells)

    def _descend(self, i: int, q: float) -> None:
        at = 4 * i
        most = self.count[at]
        for s in range(1, 4):
            if self.count[at + s] > most:
                most = self.count[at + s]
        if most + self.to_come[i] < 3:  # no suit can reach three cards
            return
        if i == self.depth:
            self._leaf(at, q)
            return
        labels = self.labels
        lab = 4 * i
        base = self.rank_base[i]
        r = base >> 2
        shift = _RANK_BITS * r
        for k in range(self.first[i], self.first[i + 1]):
            sp = 4 * k
            # one draw per orbit of the interchangeable suits: counts not increasing within a
            # label, weighted by the orbit's size (the label's arrangements of its counts)
            orbit = 1
            ok = True
            for s in range(4):
                same = 0  # suits before s with s's label
                equal = 0  # ... and s's count
                for t in range(s):
                    if labels[lab + t] == labels[lab + s]:
                        same += 1
                        if self.split[sp + t] < self.split[sp + s]:
                            ok = False
                        elif self.split[sp + t] == self.split[sp + s]:
                            equal += 1
                orbit = orbit * (same + 1) // (equal + 1)
            if not ok:
                continue
            for s in range(4):
                # the finer label: the first suit with the same label and the same count
                t = 0
                while labels[lab + t] != labels[lab + s] or self.split[sp + t] != self.split[sp + s]:
                    t += 1
                labels[lab + 4 + s] = t
            saved = self.items
            for s in range(4):
                j = self.split[sp + s]
                code = self.code[at + s]
                self.count[at + 4 + s] = self.count[at + s] + j
                if j:
                    have = (code >> shift) & 3
                    now = have + j if have + j < 3 else 3
                    code += (now - have) << shift
                    self.item[self.items] = base + s
                    self.copies[self.items] = j
                    self.items += 1
                self.code[at + 4 + s] = code
            self._descend(i + 1, q * self.weight[k] * orbit)
            self.items = saved

    def _leaf(self, at: int, q: float) -> None:
        # the dealer's value as :func:`.dealer.drawn_value` gives it, read from the suits' codes
        best = self.plain
        for s in range(4):
            if self.count[at + s] >= 3:
                v = self._suited(self.code[at + s])
                if v > best:
                    best = v
        if best == self.plain:
            return
        self.slot_best = (self.n << 16) | best
        self.slot_plain = (self.n << 16) | self.plain
        for p in range(self.items):  # fall(d, t) / fall(M, t) for t of the d copies drawn
            d = self.copies[p]
            m = self.left[self.item[p]]
            f = 1.0
            self.factor[_STRIDE * p] = f
            t = 1
            while t <= d and t <= self.order:
                f = f * (d - t + 1) / (m - t + 1)
                self.factor[_STRIDE * p + t] = f
                t += 1
        self.walk(0, 0, 0, q, self.order)

    def _suited(self, code: int) -> int:
        v = self.suited.get(code)
        if v is None:
            cards = []
            for r in range(13):
                cards.extend([4 * r] * ((code >> (_RANK_BITS * r)) & 3))
            v = self.suited[code] = _best(tuple(cards))
        return v

    def _visit(self, code: int, size: int, w: float) -> None:
        # the draw's mass moves from V0 to its suited value
        self.local.add(code, self.slot_best, w)
        self.local.add(code, self.slot_plain, -w)


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
        self._sized: dict[int, _Sized] = {}  # the tables as hands of each size read them
        self._build()

    def _build(self) -> None:
        left, m, order = self.left, self.rank_counts, self.order
        if order > MOST_SHARED:
            raise ValueError(f"the tables keep at most {MOST_SHARED} shared cards")
        up_rank, up_suit = divmod(self.upcard, 4)
        # The suits other than the upcard's are interchangeable when every rank has as many
        # cards left of each (a whole shoe): a suit draw and its images give the same value.
        others = tuple(s for s in range(4) if s != up_suit)
        if self.suit_orbits and all(len({left[4 * r + s] for s in others}) == 1 for r in range(13)):
            self._alike: tuple[tuple[int, ...], ...] = (others,)
        else:
            self._alike = tuple((s,) for s in others)
        by_ranks = _RankMoments(order)
        draws = _SuitDraws(left, self.upcard, len(self._alike) == 1, order)
        for final, p in rank_draws(up_rank, m):
            by_ranks.add(final, m, p)
            if not final.bust and final.suited_matters:
                draws.draw(final, p)
        suits: dict[tuple[int, ...], dict[int, dict[int, float]]] = {}
        for key, slot, w in draws.cells.items():
            cell = suits.setdefault(_decode(key, 53), {}).setdefault(slot >> 16, {})
            cell[slot & 0xFFFF] = w
        if self._alike[0][1:]:
            suits = _class_means(suits, self._alike[0])
        self.ranks = {_decode(code, 14): {n: _outcome(cell) for n, cell in per_n.items()}
                      for code, per_n in by_ranks.ranks.items()}
        self.suits = {key: {n: _outcome(cell) for n, cell in per_n.items()} for key, per_n in suits.items()}
        self.bound = {_decode(code, 14): per_n for code, per_n in by_ranks.bound.items()}
        self._counts = tuple(sorted(self.ranks[()]))  # every n the dealer can end with

    def _removal(self, h: int) -> dict[int, float]:
        """c(h, n) for every n the tables hold (0 where the dealer could not draw n cards)."""
        ns = self._counts
        return {n: _fall(self.size, n) / _fall(self.size - h, n) if self.size - h >= n else 0.0 for n in ns}

    def sized(self, h: int, order: int | None = None) -> _Sized:
        """The tables as hands of ``h`` cards read them (:meth:`_Sized.ante`), to ``order``
        shared cards (the tables' by default; fewer read fewer terms, within a larger bound)."""
        order = self.order if order is None else order
        if order > self.order:
            raise ValueError(f"the tables keep {self.order} shared cards, not {order}")
        sized = self._sized.get((h, order))
        if sized is None:
            sized = self._sized[(h, order)] = _Sized(self, h, order)
        return sized

    def ante(self, hand: Sequence[int], value: int) -> tuple[float, float, float]:
        """(mean Ante net, P(not a push), error bound of each) for a player standing with
        ``hand`` (card indices, none of them the upcard's physical card) at poker ``value``."""
        by_rank, by_card = counted(hand)
        return self.sized(len(hand)).ante(by_rank, by_card, value)


def counted(hand: Sequence[int]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """A hand as the readers take it: (rank, copies) and (card, copies), each increasing."""
    by_card: dict[int, int] = {}
    for c in hand:
        by_card[c] = by_card.get(c, 0) + 1
    by_rank: dict[int, int] = {}
    for c, k in by_card.items():
        by_rank[c >> 2] = by_rank.get(c >> 2, 0) + k
    return sorted(by_rank.items()), sorted(by_card.items())


class _Sized(_Walk):
    """The tables as hands of one size h read them: each key's terms summed over n with weight
    c(h, n) (the Ante's mean and chance of not pushing are linear in the masses), made as hands
    first read them and found by an integer code (one digit per item, item + 1, base 14 for
    rank keys and 53 for card keys), from a walk of the hand's sub-multisets in C when compiled.

    A term is kept as what :meth:`DealerOutcome.ante` gives a player's value against it, by
    where the value falls among the term's dealer values: below each of them or equal to it,
    four reads a value, and a last value above every poker value whose reads are the term's
    above them all (flat arrays, a term's ``first`` value and their number), so a read is a
    binary search in C and the Ante's rule stays in its one definition."""

    def __init__(self, moments: DealerMoments, h: int, order: int) -> None:
        super().__init__(14)
        self.moments = moments
        # read to this order (at most the tables'): fewer terms, a larger bound
        self.order = order
        self.removal = moments._removal(h)
        self.ranks: dict[int, int] = {}  # code -> term (-1: no such key)
        self.suits: dict[int, int] = {}
        self.bound: dict[int, float] = {}
        # per term: its first value and how many (the last one above every poker value); per
        # value: the Ante's mean and chance of not pushing for a player just below it, then equal
        self._first, self._size, self._values, self._reads = array("q"), array("q"), array("q"), array("d")
        self._expose()
        self.by_ranks: dict[tuple, tuple[float, float, float]] = {}
        self.value = 0
        self.mean = self.nonzero = self.error = 0.0
        self.index = array("i")  # the dense index of card keys, once made
        self.memo_key = array("q", [-1]) * (_MEMO_MASK + 1)  # (term, value) -> read position
        self.memo_at = array("q", [0]) * (_MEMO_MASK + 1)

    def rank_part(self, by_rank: Sequence[tuple[int, int]], value: int) -> tuple[float, float, float]:
        """The rank keys' share of :meth:`ante` (mean, chance of not pushing) and the error
        bound, for a hand of these (rank, copies) at ``value``: hands that differ only in suits
        share it."""
        ranks = (tuple(by_rank), value)
        got = self.by_ranks.get(ranks)
        if got is None:
            self.value = value
            self.mean = self.nonzero = self.error = 0.0
            self.base = 14  # rank keys, and the bound's of order + 1
            self.load([(r, _signed(k, self.order + 1)) for r, k in by_rank])
            self.walk(0, 0, 0, 1.0, self.order + 1)
            got = self.by_ranks[ranks] = (self.mean, self.nonzero, self.error)
        return got

    def ante(self, by_rank: Sequence[tuple[int, int]], by_card: Sequence[tuple[int, int]],
             value: int) -> tuple[float, float, float]:
        """:meth:`DealerMoments.ante` of a hand of h cards, given as (rank, copies) and (card,
        copies), each increasing."""
        self.mean, self.nonzero, self.error = self.rank_part(by_rank, value)
        self.value = value
        self.base = 53
        self.load([(c, _signed(k, self.order)) for c, k in by_card])
        self.walk(0, 0, 0, 1.0, self.order)
        return self.mean, self.nonzero, self.error

    def _visit(self, code: int, size: int, coef: float) -> None:
        """Read the key ``code`` (``size`` items) with its coefficient prod (-1)^t C(h_x, t)."""
        cards = self.base == 53
        if size > self.order:  # a rank key of the bound: c(h, n) E_S[C(k, order + 1); n]
            q = self.bound.get(code)
            if q is None:
                q = 0.0
                key = _decode(code, 14)
                if self.order == self.moments.order:
                    per_n = self.moments.bound.get(key, {})
                else:  # the rank key's moments over every outcome, kept in the rank table
                    per_n = {n: t.bust + t.standing for n, t in self.moments.ranks.get(key, {}).items()}
                for n, w in per_n.items():
                    q += self.removal.get(n, 0.0) * w
                self.bound[code] = q
            self.error += abs(coef) * q
            return
        sized = self.suits if cards else self.ranks
        term = sized.get(code)
        if term is None:
            per_n = (self.moments.suits if cards else self.moments.ranks).get(_decode(code, 53 if cards else 14))
            term = sized[code] = -1 if per_n is None else self._keep(_weighted(per_n, self.removal))
        self._read(term, coef)

    def _read(self, t: int, coef: float) -> None:
        """Add term ``t`` read at the player's value, times ``coef``, to the mean and the chance
        of not pushing (a term below 0: no such key)."""
        if t < 0:
            return
        value = self.value
        # where a term is read at a value, remembered: a hand's neighbours read the same terms
        # at the same values (the search's memory reads are what a stand's read costs)
        key = (t << 16) | value
        h = key  # unsigned when compiled: the product wraps, and only bits 7 to 22 are read
        h = ((h * 0x5BD1E995) >> 7) & _MEMO_MASK
        if self.memo_key[h] == key:
            at = self.memo_at[h]
        else:
            first = self.first[t]
            lo = 0
            hi = self.size[t] - 1  # the last value is above the player's
            while lo < hi:  # the first of the term's values at or above the player's
                mid = (lo + hi) >> 1
                if self.values[first + mid] < value:
                    lo = mid + 1
                else:
                    hi = mid
            at = 4 * (first + lo) + (2 if self.values[first + lo] == value else 0)
            self.memo_key[h] = key
            self.memo_at[h] = at
        self.mean += coef * self.reads[at]
        self.nonzero += coef * self.reads[at + 1]

    def dense(self) -> None:
        """Index every card key of at most three cards by its cards (``index``, -1 where the
        tables have no such key), each key's term made now: a hand's card keys are then read
        by :meth:`card_part` without hashing. Only for reads of order 3 or less."""
        if len(self.index) or self.order > 3:
            return
        index = array("i", [-1]) * (_EMPTY + 1)
        for key, per_n in self.moments.suits.items():
            if len(key) > self.order:
                continue
            a = key[0] if key else 0
            if len(key) == 3:
                at = a * 2704 + key[1] * 52 + key[2]
            elif len(key) == 2:
                at = _PAIRS + a * 52 + key[1]
            elif len(key) == 1:
                at = _SINGLES + a
            else:
                at = _EMPTY
            index[at] = self._keep(_weighted(per_n, self.removal))
        self.index = index

    def card_part(self, cards, copies, d: int, value: int) -> None:
        """Set ``mean`` and ``nonzero`` to the card keys' share of :meth:`ante` for a hand of
        ``d`` distinct cards, ``cards`` (increasing) of ``copies[i]`` copies each, at
        ``value``: the sub-multisets of at most three cards, with their signs and binomials
        (-1)^|t| prod C(h_x, t_x), read through :meth:`dense`'s index."""
        index = self.index
        self.value = value
        self.mean = self.nonzero = 0.0
        self._read(index[_EMPTY], 1.0)
        for i in range(d):
            a = cards[i]
            ha = copies[i]
            two_a = ha * (ha - 1) * 0.5
            self._read(index[_SINGLES + a], -ha)
            if self.order < 2:
                continue
            if ha >= 2:
                self._read(index[_PAIRS + a * 53], two_a)
                if ha >= 3:
                    self._read(index[a * 2757], -two_a * (ha - 2) / 3.0)
            for j in range(i + 1, d):
                b = cards[j]
                hb = copies[j]
                self._read(index[_PAIRS + a * 52 + b], ha * hb)
                if ha >= 2:
                    self._read(index[a * 2756 + b], -two_a * hb)
                if hb >= 2:
                    self._read(index[a * 2704 + b * 53], -ha * hb * (hb - 1) * 0.5)
                if self.order < 3:
                    continue
                for k in range(j + 1, d):
                    self._read(index[a * 2704 + b * 52 + cards[k]], -ha * hb * copies[k])

    def _keep(self, term: DealerOutcome) -> int:
        """Store ``term`` read at every place a player's value can fall; returns its index."""
        self._hide()
        self._first.append(len(self._values))
        self._size.append(len(term.values) + 1)
        for v in (*term.values, _ABOVE_ALL):
            self._values.append(v)
            self._reads.extend(term.ante(v - 1))  # any value between this and the one before alike
            self._reads.extend(term.ante(v))
        self._expose()
        return len(self._first) - 1

    def _hide(self) -> None:
        """Release the compiled views of the arrays (an array with a view cannot grow)."""
        self.first = self.size = self.values = self.reads = None

    def _expose(self) -> None:
        self.first, self.size, self.values, self.reads = self._first, self._size, self._values, self._reads

