"""Poker or Bust's whole game, solved a card count at a time: the optimal value of every player
hand at 22 to 31 points from the longest hands down, and the Ante and Odds house edge from them
without visiting the hands at 21 or less one by one.

Why: :class:`.exact.Solver` memoises every hand it meets by a Python tuple, a few dozen
microseconds and a few hundred bytes a hand; a six-deck shoe deals the player hundreds of
millions of hands per upcard (tables/games/README.md, "Poker or Bust's exact math").

The player's path to 22. Under an Odds table that pays no less for a better hand the player
draws at 21 or less (:meth:`.exact.Solver.best` gives the proof), so from three cards his path
is forced until he first holds 22 or more. He first holds the n-card hand H (n >= 4, total T >= 22)
exactly when his first n cards are H and the last of them is one of H's cards of T - 21 points or
more (the cards before it then total 21 or less), so, the orders of H being equally likely,

    P(first reaches H) = P(the first n cards are H) * (H's cards of T - 21 points or more) / n

and a start of three cards at 22 or more is reached with P(the first three are H). The game's
value is the sum of those weights times the best value of H; only hands at 22 or more are
solved: best(H) = max(stand, draw), a draw reading the hands one card longer, ties to standing.
Under a table that pays a worse hand more, every hand is solved that way and only the starts
carry weight. Stands read the dealer's tables of the upcard (:class:`.dealer_moments.DealerMoments`),
each within the bound it reports; a decision's bound is the larger of its actions', a draw's the
mean of its cards', the game's the weighted sum.

The hands of a level. A hand is stored under its rank multiset R (13 counts) and the index of
its suits in mixed radix, one digit per rank: which of that rank's suit splits (four counts
summing to R's count) it holds. A card drawn changes one digit, so a draw's hands are found by
arithmetic, with no hashing. Where the three suits other than the upcard's are interchangeable
(a whole shoe), the hands that differ by relabelling them have one value: the member with the
smallest index is priced and the others point at it (``slot``). Two levels are held at once.

What a round's pricing keeps (``keep``). The hands the player can hold when he decides, up to
``keep`` cards, each with both actions' values (per unit of the Ante, Ante + Odds): the stand and
the draw, the draw being the optimal continuation. Those at 21 or less are solved too (their
draw is read from the hands one card longer, all the way down to 22: about one hand in a hundred
more), though their weight in the game is nil, the player's first decision at 22 being weighed
where he reaches it. One hand per relabelling orbit is kept, under the orbit's first member's
cards (:func:`hand_key`); :mod:`.draw_prices` finds a dealt hand's orbit by relabelling it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from itertools import permutations
from math import comb

from .dealer import POINTS, _best, _plain
from .dealer_moments import DealerMoments
from .game import BUST_ABOVE

_NAN = float("nan")
#: What float sums of exact probabilities are held to (a few units of the last place, summed).
FLOAT_ERROR = 1e-12
#: The player's first total the drawing rule does not decide (he draws at 21 or less).
DECIDES_FROM = 22
#: Moments kept per hand: Ante mean, Odds mean, Ante second moment, Odds second moment, their
#: cross moment, the error bound of the Ante mean.
_WIDTH = 6
BUSTED = (-1.0, -1.0, 1.0, 1.0, 1.0, 0.0)
#: Bits a card takes in :func:`hand_key` (card + 1: 0 is no card), and the most cards a key holds.
KEY_BITS = 6
KEY_CARDS = 10


def hand_key(cards: Sequence[int]) -> int:
    """A hand of at most :data:`KEY_CARDS` cards as one integer: its cards sorted, each + 1 in
    :data:`KEY_BITS` bits, the lowest card in the lowest bits (the solve writes the same key from
    its counts, :meth:`LevelSolver._values`)."""
    key = 0
    for i, c in enumerate(sorted(cards)):
        key |= (c + 1) << (KEY_BITS * i)
    return key


def default_read_order(n: int) -> int:
    """The shared cards a stand with n cards is read to (:meth:`.DealerMoments.sized`): the
    long hands are many (most of the hands at six decks have eight cards or more) and rarely
    dealt, so fewer terms are read for them, each stand within the bound it reports."""
    return 3 if n <= 8 else 2 if n <= 11 else 1


def stands(stand: float, draw: float) -> bool:
    """Whether the player stands, given the two actions' values: the larger, ties to standing.
    A tie is within the float sums' error: two float sums of one exact value can differ in the
    last places, and a short shoe has exact ties (both actions lose whatever comes), so the
    decision would otherwise turn on the order of the additions."""
    return stand >= draw - FLOAT_ERROR


class _Splits:
    """The splits of k cards of one rank among the four suits (at most ``left`` of each): ``flat``
    four counts a split, ``ways`` prod_s C(left_s, a_s) (the hypergeometric numerator), ``perm``
    the split each relabelling makes of each (``count`` a relabelling), ``up`` the split of k + 1
    cards a card of each suit makes of each (-1: the shoe has no more of that card)."""

    def __init__(self, left: Sequence[int], k: int, perms: Sequence[tuple[int, ...]]) -> None:
        self.k = k
        self.splits = [s for s in _compositions(k, 4) if all(a <= b for a, b in zip(s, left, strict=True))]
        self.count = len(self.splits)
        self.index = {s: i for i, s in enumerate(self.splits)}
        self.flat = array("q", [a for s in self.splits for a in s])
        self.ways = array("d", [float(_prod(comb(b, a) for a, b in zip(s, left, strict=True))) for s in self.splits])
        # a relabelling moves suit t's cards to suit perm[t]
        self.perm = array("q", [self.index[tuple(s[p.index(u)] for u in range(4))] for p in perms for s in self.splits])
        self.up = array("q")

    def link(self, upper: _Splits | None) -> None:
        grown = []
        for split in self.splits:
            for s in range(4):
                g = list(split)
                g[s] += 1
                grown.append(-1 if upper is None else upper.index.get(tuple(g), -1))
        self.up = array("q", grown)


def _suited_value(code: int) -> int:
    """The suited value of one suit's cards given as two bits a rank (copies, at most 3)."""
    return _best(tuple(4 * r for r in range(13) for _ in range((code >> (2 * r)) & 3)))


def _prod(xs) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


def _compositions(k: int, parts: int):
    if parts == 1:
        yield (k,)
        return
    for first in range(k, -1, -1):
        for rest in _compositions(k - first, parts - 1):
            yield (first, *rest)


class _Level:
    """The solved hands of one rank multiset: hand ``index`` (mixed radix, a digit per rank) is
    row ``slot[index]`` of ``values`` (``_WIDTH`` moments a row); ``drew[row]`` is 1 where
    drawing is best."""

    def __init__(self, radix: Sequence[int]) -> None:
        self.radix = array("q", radix)
        stride, s = [], 1
        for r in radix:
            stride.append(s)
            s *= r
        self.stride = array("q", stride)
        self.count = s
        self.slot = array("i", bytes(4 * s))
        self.rows = 0
        self.values = array("d")
        self.drew = array("b")

    def allocate(self, rows: int) -> None:
        self.rows = rows
        self.values = array("d", bytes(8 * _WIDTH * rows))
        self.drew = array("b", bytes(rows))


class LevelSolver:
    """The optimal values of every player hand at 22 or more (every hand under a table that pays
    a worse hand more) for one shoe (52 counts, upcard included), upcard and Odds (``odds``: the
    net of a poker value), and the game's totals weighted by where the player first decides."""

    def __init__(self, shoe: Sequence[int], upcard: int, odds: Callable[[int], float], *, monotone: bool,
                 tables: DealerMoments | None = None, order: int | None = None,
                 read_order: Callable[[int], int] | None = None, relabel: bool = True,
                 watch: Sequence[Sequence[int]] = (), keep: int = 0) -> None:
        left = list(shoe)
        left[upcard] -= 1
        if left[upcard] < 0:
            raise ValueError("the upcard is not in the shoe")
        self.left = array("q", left)
        self.upcard = upcard
        self.odds = odds
        self._odds: dict[int, float] = {}
        self.monotone = monotone
        if not 0 <= keep <= KEY_CARDS:
            raise ValueError(f"keep: 0 to {KEY_CARDS} cards")
        self.keep = keep
        # the first total a hand is weighed at; the hands solved start lower where some are kept
        self.decides = DECIDES_FROM if monotone else 0
        self.lo = 0 if keep else self.decides
        self.size = sum(left)
        if monotone and sum(POINTS[c >> 2] * n for c, n in enumerate(left)) < DECIDES_FROM:
            raise ValueError("the shoe can run out before the player reaches 22")
        self.rank_left = [sum(left[4 * r: 4 * r + 4]) for r in range(13)]
        if tables is None:
            tables = DealerMoments(shoe, upcard) if order is None else DealerMoments(shoe, upcard, order)
        self.tables = tables
        up_suit = upcard & 3
        others = [s for s in range(4) if s != up_suit]
        alike = relabel and all(len({left[4 * r + s] for s in others}) == 1 for r in range(13))
        # the suit relabellings other than the identity that keep the shoe and the upcard's suit
        self.perms: list[tuple[int, ...]] = []
        for p in permutations(others) if alike else ():
            perm = [0] * 4
            perm[up_suit] = up_suit
            for a, b in zip(others, p, strict=True):
                perm[a] = b
            if perm != list(range(4)):
                self.perms.append(tuple(perm))
        self._splits: dict[tuple[int, int], _Splits] = {}
        self.hands = 0  # hands priced (one per relabelling orbit)
        self.digits = array("q", [0] * 13)
        self.counts = array("q", [0] * 52)
        self.draw = array("d", [0.0] * _WIDTH)
        self.busted = array("d", BUSTED)
        # per rank multiset, its ranks' tables laid end to end (offsets per rank)
        self.flat = self.perm = self.up = array("q")
        self.ways = array("d")
        self.points = array("q", POINTS)
        self.offsets = array("q", [0] * 52)  # flat, ways, perm, up: 13 each
        self.kstride = array("q", [0] * 169)  # the strides of the hand one card of rank r longer
        self.others = array("q", [0] * 6)  # the hand's index under each relabelling
        self.cards = array("q", [0] * 52)  # a hand's distinct cards, and their copies
        self.copies = array("q", [0] * 52)
        self._rank_part: dict[int, tuple[float, float, float]] = {}  # per poker value, for one rank multiset
        self._plain = 0  # the rank multiset's best plain value
        self._suited: dict[int, int] = {}  # a suit's ranks (two bits a rank) -> their suited value
        self.read_order = read_order or self._read_order
        # hands (at 22 or more) whose best moments and decision the solve keeps as it passes them
        self.watch: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for hand in watch:
            rm = [0] * 13
            for c in hand:
                rm[c >> 2] += 1
            self.watch.setdefault(tuple(rm), []).append(tuple(sorted(hand)))
        self.watched: dict[tuple[int, ...], tuple[tuple[float, ...], bool]] = {}
        # the kept hands (keep): key, the stand's and the draw's value (nan: the shoe is empty)
        self.kept_keys = array("Q")
        self.kept_stand = array("d")
        self.kept_draw = array("d")
        self.kept_bound = array("d")  # each kept hand's bound (the larger of its two actions')
        self.stand_value = self.draw_value = 0.0  # the last hand priced (_price)

    def _read_order(self, n: int) -> int:
        return min(self.tables.order, default_read_order(n))

    def splits(self, r: int, k: int) -> _Splits:
        got = self._splits.get((r, k))
        if got is None:
            got = self._splits[(r, k)] = _Splits(self.left[4 * r: 4 * r + 4], k, self.perms)
            got.link(self.splits(r, k + 1) if k < self.rank_left[r] else None)
        return got

    def rank_multisets(self) -> list[tuple[int, ...]]:
        """Every rank multiset of three cards or more at 31 or less the shoe can give, at
        ``lo`` points or more."""
        out: list[tuple[int, ...]] = []
        counts = [0] * 13

        def walk(r: int, n: int, total: int) -> None:
            if r == 13:
                if n >= 3 and total >= self.lo:
                    out.append(tuple(counts))
                return
            k = 0
            while k <= self.rank_left[r] and total + k * POINTS[r] <= BUST_ABOVE:
                counts[r] = k
                walk(r + 1, n + k, total + k * POINTS[r])
                k += 1
            counts[r] = 0

        walk(0, 0, 0)
        return out

    def hands_to_solve(self) -> int:
        """The card multisets the solve stores (each rank multiset's suit splits, before
        relabelling), counted from the rank multisets alone in about a second: what a caller
        weighs before solving (about 1.1 billion with a King up at six decks)."""
        out = 0
        for rm in self.rank_multisets():
            ways = 1
            for r in range(13):
                if rm[r]:
                    ways *= self.splits(r, rm[r]).count
            out += ways
        return out

    def solve(self, progress: Callable[[int, int, float], None] | None = None) -> dict:
        """The game's totals for this upcard: ``{"moments": (ante, odds, ante2, odds2, cross,
        error), "draw_on_three": p, "hands": priced}``, each hand's best moments weighted by the
        chance the player first decides there (the upcard given). ``progress(n, hands, error)`` is
        told each card count done, the hands priced so far and the bound summed so far."""
        by_level: dict[int, list[tuple[int, ...]]] = {}
        for rm in self.rank_multisets():
            by_level.setdefault(sum(rm), []).append(rm)
        total = array("d", [0.0] * _WIDTH)
        draw_on_three = 0.0
        if self.monotone:  # every start at 21 or less draws
            denom = comb(self.size, 3)
            for rm in self._starts_below():
                draw_on_three += _prod(comb(self.rank_left[r], k) for r, k in enumerate(rm) if k) / denom
        above: dict[tuple[int, ...], _Level] = {}
        for n in sorted(by_level, reverse=True):
            here: dict[tuple[int, ...], _Level] = {}
            for rm in by_level[n]:
                here[rm], drew = self._rank_multiset(rm, above, total)
                if n == 3:
                    draw_on_three += drew
            above = here
            if progress is not None:
                progress(n, self.hands, total[_WIDTH - 1])
        out = {"moments": tuple(total), "draw_on_three": draw_on_three, "hands": self.hands}
        if self.keep:
            out["kept"] = {"keys": self.kept_keys, "stand": self.kept_stand, "draw": self.kept_draw,
                           "bound": self.kept_bound, "perms": list(self.perms)}
        return out

    def _starts_below(self) -> list[tuple[int, ...]]:
        out = []
        for a in range(13):
            for b in range(a, 13):
                for c in range(b, 13):
                    rm = [0] * 13
                    for r in (a, b, c):
                        rm[r] += 1
                    if POINTS[a] + POINTS[b] + POINTS[c] < self.decides and all(
                            rm[r] <= self.rank_left[r] for r in range(13)):
                        out.append(tuple(rm))
        return out

    def _rank_multiset(self, rm: tuple[int, ...], above: dict, total) -> tuple[_Level, float]:
        """Solve every hand of rank multiset ``rm`` and add each one's best moments times its weight
        to ``total``: the level, and the weight of the hands where drawing is best."""
        n = sum(rm)
        points = sum(POINTS[r] * k for r, k in enumerate(rm))
        ranks = array("q", [r for r in range(13) if rm[r]])
        per_rank = [self.splits(r, rm[r]) for r in range(13)]
        level = _Level([sp.count for sp in per_rank])
        kids: list[_Level | None] = []
        for r in range(13):
            kid = None
            if POINTS[r] <= BUST_ABOVE - points and rm[r] < self.rank_left[r]:
                child = list(rm)
                child[r] += 1
                kid = above[tuple(child)]
                for q in range(13):
                    self.kstride[13 * r + q] = kid.stride[q]
            kids.append(kid)
        # the ranks' tables end to end
        flat, ways, perm, up = array("q"), array("d"), array("q"), array("q")
        for r, sp in enumerate(per_rank):
            self.offsets[r] = len(flat)
            self.offsets[13 + r] = len(ways)
            self.offsets[26 + r] = len(perm)
            self.offsets[39 + r] = len(up)
            flat.extend(sp.flat)
            ways.extend(sp.ways)
            perm.extend(sp.perm)
            up.extend(sp.up)
        self.flat, self.ways, self.perm, self.up = flat, ways, perm, up
        forced = self.monotone and points < DECIDES_FROM  # he draws: the hand's weight is its kids'
        if forced:
            frac = 0.0
        elif n == 3:
            frac = 1.0
        elif self.monotone:
            frac = sum(k for r, k in enumerate(rm) if POINTS[r] >= points - (DECIDES_FROM - 1)) / n
        else:
            frac = 0.0
        level.allocate(self._canon(level, ranks))
        sized = self.tables.sized(n, self.read_order(n))
        sized.dense()
        self._plain = _plain(tuple(r for r in ranks for _ in range(min(rm[r], 3))))
        self._rank_part = {}
        by_rank = [(r, rm[r]) for r in ranks]
        drew = self._values(level, ranks, kids, sized, by_rank, BUST_ABOVE - points, n,
                            frac / float(comb(self.size, n)), total, forced)
        for hand in self.watch.get(rm, ()):
            index = 0
            for r in ranks:
                split = tuple(sum(1 for c in hand if c == 4 * r + s) for s in range(4))
                index += level.stride[r] * self.splits(r, rm[r]).index[split]
            row = level.slot[index]
            self.watched[hand] = (tuple(level.values[_WIDTH * row + m] for m in range(_WIDTH)), bool(level.drew[row]))
        return level, drew

    def _canon(self, level: _Level, ranks) -> int:
        """Point each hand at its orbit's first member (the identity where the suits are not
        interchangeable); the number of orbits."""
        digits = self.digits
        perm = self.perm
        offsets = self.offsets
        slot = level.slot
        stride = level.stride
        radix = level.radix
        others = self.others
        nr = len(ranks)
        relabellings = len(self.perms)
        for j in range(13):
            digits[j] = 0
        # each relabelling's index of the hand, kept up to date as the digits turn
        for p in range(relabellings):
            other = 0
            for j in range(nr):
                r = ranks[j]
                other += stride[r] * perm[offsets[26 + r] + p * radix[r]]
            others[p] = other
        rows = 0
        for i in range(level.count):
            if i:
                j = 0
                while digits[ranks[j]] + 1 == radix[ranks[j]]:
                    r = ranks[j]
                    for p in range(relabellings):
                        at = offsets[26 + r] + p * radix[r]
                        others[p] += stride[r] * (perm[at] - perm[at + digits[r]])
                    digits[r] = 0
                    j += 1
                r = ranks[j]
                for p in range(relabellings):
                    at = offsets[26 + r] + p * radix[r] + digits[r]
                    others[p] += stride[r] * (perm[at + 1] - perm[at])
                digits[r] += 1
            canon = i
            for p in range(relabellings):
                if others[p] < canon:
                    canon = others[p]
            if canon < i:
                slot[i] = slot[canon]
            else:
                slot[i] = rows
                rows += 1
        return rows

    def _values(self, level: _Level, ranks, kids: list, sized, by_rank: list, room: int, n: int,
                weight: float, total, forced: bool) -> float:
        digits, counts, flat, ways, offsets = self.digits, self.counts, self.flat, self.ways, self.offsets
        slot, values, drew, radix = level.slot, level.values, level.drew, level.radix
        nr = len(ranks)
        cards_left = self.size - n
        for j in range(13):
            digits[j] = 0
        for c in range(52):
            counts[c] = 0
        for j in range(nr):
            r = ranks[j]
            for s in range(4):
                counts[4 * r + s] = flat[offsets[r] + s]
        rows = 0
        drawn = 0.0
        for i in range(level.count):
            if i:
                j = 0
                while digits[ranks[j]] + 1 == radix[ranks[j]]:
                    r = ranks[j]
                    digits[r] = 0
                    for s in range(4):
                        counts[4 * r + s] = flat[offsets[r] + s]
                    j += 1
                r = ranks[j]
                digits[r] += 1
                for s in range(4):
                    counts[4 * r + s] = flat[offsets[r] + 4 * digits[r] + s]
            row = slot[i]
            if row == rows:  # the first of its orbit: price it
                rows += 1
                self._price(row, level, ranks, kids, sized, by_rank, room, cards_left, forced)
                if n <= self.keep:
                    key = 0
                    pos = 0
                    bits = KEY_BITS
                    for j in range(nr):
                        r = ranks[j]
                        for s in range(4):
                            copies = counts[4 * r + s]
                            while copies:
                                key |= (4 * r + s + 1) << (bits * pos)
                                pos += 1
                                copies -= 1
                    self.kept_keys.append(key)
                    self.kept_stand.append(self.stand_value)
                    self.kept_draw.append(self.draw_value)
                    self.kept_bound.append(values[_WIDTH * row + _WIDTH - 1])
            if weight > 0.0:
                w = weight
                for j in range(nr):
                    r = ranks[j]
                    w *= ways[offsets[13 + r] + digits[r]]
                at = _WIDTH * row
                for m in range(_WIDTH):
                    total[m] += w * values[at + m]
                if drew[row]:
                    drawn += w
        self.hands += rows
        return drawn

    def _price(self, row: int, level: _Level, ranks, kids: list, sized, by_rank: list, room: int,
               cards_left: int, forced: bool) -> None:
        """Price the hand the digits and counts hold: its stand, its draw from the hands one
        card longer, the better of the two (ties to standing; the draw where ``forced``) in row
        ``row``; the two actions' values (Ante + Odds) in ``stand_value`` and ``draw_value``."""
        digits, counts, left, draw, busted = self.digits, self.counts, self.left, self.draw, self.busted
        up, offsets, kstride, points = self.up, self.offsets, self.kstride, self.points
        values = level.values
        nr = len(ranks)
        cards, copies = self.cards, self.copies
        d = 0
        for j in range(nr):
            r = ranks[j]
            for s in range(4):
                c = 4 * r + s
                k = counts[c]
                if k:
                    cards[d] = c
                    copies[d] = k
                    d += 1
        # the hand's value as the dealer's is drawn (.dealer.drawn_value): the best of the ranks'
        # plain value and of each suit's cards that make three
        value = self._plain
        for s in range(4):
            code = 0
            k = 0
            for j in range(nr):
                r = ranks[j]
                m = counts[4 * r + s]
                if m:
                    m = 3 if m > 3 else m
                    code |= m << (2 * r)
                    k += m
            if k >= 3:
                v = self._suited.get(code, -1)
                if v < 0:
                    v = self._suited[code] = _suited_value(code)
                if v > value:
                    value = v
        if value not in self._rank_part:
            self._rank_part[value] = sized.rank_part(by_rank, value)
        mean, nonzero, error = self._rank_part[value]
        if len(sized.index):
            sized.card_part(cards, copies, d, value)
            mean += sized.mean
            nonzero += sized.nonzero
        else:  # tables of another order: the card keys by the walk
            mean, nonzero, error = sized.ante(by_rank, [(cards[j], copies[j]) for j in range(d)], value)
        if value not in self._odds:
            self._odds[value] = self.odds(value)
        o = self._odds[value]
        at = _WIDTH * row
        self.stand_value = mean + o
        if cards_left == 0:
            self.draw_value = _NAN
            values[at] = mean
            values[at + 1] = o
            values[at + 2] = nonzero
            values[at + 3] = o * o
            values[at + 4] = o * mean
            values[at + 5] = error
            return
        for m in range(_WIDTH):
            draw[m] = 0.0
        for r in range(13):
            kid = kids[r]
            if kid is None:
                if points[r] > room:
                    for s in range(4):
                        k = left[4 * r + s] - counts[4 * r + s]
                        if k > 0:
                            w = k / cards_left
                            for m in range(_WIDTH):
                                draw[m] += w * busted[m]
                continue
            base = 0
            for j in range(nr):
                q = ranks[j]
                if q != r:
                    base += digits[q] * kstride[13 * r + q]
            kv = kid.values
            for s in range(4):
                k = left[4 * r + s] - counts[4 * r + s]
                if k <= 0:
                    continue
                w = k / cards_left
                child = kid.slot[base + up[offsets[39 + r] + 4 * digits[r] + s] * kstride[13 * r + r]]
                kat = _WIDTH * child
                for m in range(_WIDTH):
                    draw[m] += w * kv[kat + m]
        self.draw_value = draw[0] + draw[1]
        if not forced and stands(mean + o, draw[0] + draw[1]):
            values[at] = mean
            values[at + 1] = o
            values[at + 2] = nonzero
            values[at + 3] = o * o
            values[at + 4] = o * mean
        else:
            for m in range(_WIDTH - 1):
                values[at + m] = draw[m]
            level.drew[row] = 1
        values[at + 5] = error if error > draw[5] else draw[5]
