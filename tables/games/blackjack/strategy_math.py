"""The 21 bet's house edge under optimal composition-dependent play, and the price of a decision.

Finance books the 21 bet's theoretical win from its house edge, and surveillance prices a
player's decision (how much a stand on 16 against a ten gives away). Both come from one
combinatorial analysis of the shoe, the way published blackjack combinatorial analyzers
compute it; nothing is simulated.

**Strategy class: composition-dependent (CD), fixed per deal.** At every decision the player
knows his own cards (as a multiset of ranks), the dealer's upcard and, after a split, only the
cards of the hand being played. He picks the action with the highest expected value given
exactly that: 2 + 4 differs from 3 + 3 against the same upcard. No card of other hands or
other players is counted.

**Method.** For each upcard and each first two cards (all ten-values are one rank: a ten's
suit and face never matter to the 21 bet):

* the shoe is the full shoe less the upcard and the player's cards;
* *stand*: the dealer's final hand is computed exactly from the remaining shoe (hole card
  included), one distribution per (remaining-shoe composition, upcard), memoised by the ten
  rank counts (:meth:`_Table.dealer`);
* *hit*: every next card with its probability from the remaining shoe, then the better of
  stand and hit again, recursively (each state keyed by the removed ranks);
* *double*: one card, then stand, at twice the stake;
* *split*: see below.

**The dealer's peek.** Where the dealer peeks (an Ace or ten-value up), the player decides
knowing the dealer has no natural, which also tilts the cards he draws (the hole card is not
a ten, or not an Ace). Every value is carried as ``P(no dealer natural) x EV given no natural``
for the current shoe: a stand then just leaves the natural out of the dealer's distribution,
a bust costs ``P(no natural | shoe after the card)``, and values at one state compare as the
conditional ones do. The round's EV adds ``-P(dealer natural)`` for a non-natural player hand.
Without the peek (``dealer_peeks`` off, the engine's European rule) a dealer natural takes
doubles and split hands too, and it is in every distribution as a loss.

**Splits (the standard CA approximation; Wizard of Odds' Appendix 9 method).** Each split hand
is played with its own post-split CD strategy from the shoe less the upcard and the pair
cards the splits have taken out so far, ignoring every other card of the other split hands
("only how many hands the player had already split, not the other cards drawn in those
hands"). A hand's value given it takes a non-pair second card after k resplits (X_k: best of
stand, hit and, with DAS, double), and given it takes a pair card it may not split (Y_k, at
the split limit) are weighted by the expected number of hands that end each way, counted
exactly over the order in which the hands take their second cards, for resplits up to
``max_split_hands`` with pair and non-pair cards depleting the shoe (:func:`_split_counts`):
``EV(split) = sum_k E[hands X at k] X_k + E[hands Y at k] Y_k``. Split Aces take one card each
unless ``hit_split_aces``; they are resplit only with ``resplit_aces``. A split hand's Ace +
ten is 21, not a natural. ``split_any_ten_values`` off: ten-value pairs are not split in the
table (a pair of equal tens could be, but splitting tens is never the better play there);
:func:`decision_evs` checks equal ranks from the card text. A hand that is itself a split
hand is priced without a further split.

**Precision.** Floats: every figure is a sum of products of probabilities with no
cancellation beyond ~1e-12; results agree with an exact :class:`~fractions.Fraction` brute
force to 1e-9 (tests). Insurance is exact (:class:`~fractions.Fraction`).

**Variance** is that of the 21 bet's net per unit of the initial 21 bet, under the same
strategy. Hands that are not split are exact. For a split, each hand's own second moment is
exact and the covariance of the split hands is approximated by treating them as independent
given the dealer's final outcome (the same dealer hand settles them all).

Anchors (Wizard of Odds' house edge calculator, CD play) are in tables/games/README.md, "The
21 bet's exact edge", with the figures this module computes beside them.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..vocabulary.base import Errors
from ..vocabulary.cards import RANK, CardError, parse_card
from ..vocabulary.catalogue import INSURANCE, W21
from ..vocabulary.hands import best_total
from .dealer_odds import ACE_INDEX, TEN_INDEX, check_decks, rank_index, shoe_composition
from .dealer_pass import BUST, NATURAL, RANKS, ZERO, dealer_distribution
from .game_math import wager_odds_for_rules

METHOD = "exact"
STRATEGY = "optimal composition-dependent (post-split CD, resplit approximation)"

PTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
DOUBLE_TOTALS = {"9_10_11": frozenset({9, 10, 11}), "10_11": frozenset({10, 11})}

STAND, HIT, DOUBLE, SPLIT, EVEN_MONEY = "stand", "hit", "double", "split", "even_money"


@dataclass(frozen=True, slots=True)
class Rules:
    """The settings of the shared blackjack that move the 21 bet's edge (a ruleset reads into it)."""

    decks: int = 6
    h17: bool = True
    peek: bool = True
    natural_pays: Fraction = Fraction(3, 2)
    double_on: str = "any_two"
    das: bool = True
    split_any_ten_values: bool = True
    max_split_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    insurance: bool = True

    @classmethod
    def of(cls, rules: Any) -> Rules:
        """A configured ruleset (any of the three games) or a :class:`Rules` as is."""
        if isinstance(rules, Rules):
            return rules
        return cls(
            decks=rules.decks,
            h17=bool(rules.dealer_hits_soft_17),
            peek=bool(rules.dealer_peeks),
            natural_pays=Fraction(rules.natural_odds),
            double_on=rules.double_on,
            das=bool(rules.double_after_split),
            split_any_ten_values=bool(rules.split_any_ten_values),
            max_split_hands=int(rules.max_split_hands),
            resplit_aces=bool(rules.resplit_aces),
            hit_split_aces=bool(rules.hit_split_aces),
            insurance=bool(rules.insurance),
        )

    def may_double(self, hard: int, ace: bool, after_split: bool) -> bool:
        if after_split and not self.das:
            return False
        if self.double_on == "any_two":
            return True
        return best_total(hard, ace) == hard and hard in DOUBLE_TOTALS[self.double_on]


def _plus(counts: tuple[int, ...], r: int, n: int = 1) -> tuple[int, ...]:
    """``counts`` (by rank index) with ``n`` more of rank ``r`` (fewer when ``n`` is negative)."""
    return counts[:r] + (counts[r] + n,) + counts[r + 1 :]


def rank_counts(ranks: Iterable[int]) -> tuple[int, ...]:
    """How many of each rank index ``ranks`` hold."""
    out = list(ZERO)
    for r in ranks:
        out[r] += 1
    return tuple(out)


# --- insurance --------------------------------------------------------------------------------


def insurance_edge(decks: int, removed: Iterable[int] = ()) -> Fraction:
    """House edge of insurance (and of even money) with an Ace up: ``1 - 3 P(hole is a ten)``.

    The hole card comes from the shoe less the upcard Ace and ``removed`` (card ints); with
    nothing else known that is ``1 - 3 x 16d / (52d - 1)``: 7.3955% at 6 decks.
    """
    comp = list(shoe_composition(decks, removed))
    comp[ACE_INDEX] -= 1
    if comp[ACE_INDEX] < 0:
        raise ValueError("no Ace left in the shoe for the upcard")
    p_ten = Fraction(comp[TEN_INDEX], sum(comp))
    return 1 - 3 * p_ten


# --- the analysis of one upcard ---------------------------------------------------------------


class _Table:
    """Every value against one upcard from one shoe (the upcard already out of ``shoe``)."""

    def __init__(self, rules: Rules, shoe: tuple[int, ...], up: int):
        self.rules = rules
        self.shoe = shoe
        self.up = up
        self.peeked = rules.peek and up in (ACE_INDEX, TEN_INDEX)
        self.natural_card = TEN_INDEX if up == ACE_INDEX else ACE_INDEX if up == TEN_INDEX else None
        self._dealer = _dealer_memo(rules.h17, shoe, up)
        self._stand: dict[tuple[int, ...], tuple[tuple[float, float], ...]] = {}
        self._hs: dict[tuple, tuple[float, float, bool]] = {}
        self._j: dict[tuple, tuple[float, ...]] = {}
        self._split: dict[tuple, tuple] = {}

    # the shoe and the dealer

    def comp(self, removed: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(s - r for s, r in zip(self.shoe, removed, strict=True))

    def p_natural(self, removed: tuple[int, ...]) -> float:
        """P(the dealer has a natural) with the hole card from the shoe less ``removed``."""
        if self.natural_card is None:
            return 0.0
        comp = self.comp(removed)
        return comp[self.natural_card] / sum(comp)

    def weight(self, removed: tuple[int, ...]) -> float:
        """What a sure outcome of 1 is worth at this state: P(no natural) where peeked, else 1."""
        return 1.0 - self.p_natural(removed) if self.peeked else 1.0

    def dealer(self, removed: tuple[int, ...]) -> tuple[float, ...]:
        """The dealer's final hand from the shoe less ``removed``: 17..21, natural, bust."""
        out = self._dealer.get(removed)
        if out is None:
            out = self._dealer[removed] = dealer_distribution(self.comp(removed), self.up, self.rules.h17)
        return out

    def stand(self, removed: tuple[int, ...], total: int) -> tuple[float, float]:
        """(value, second moment) of standing on ``total`` (a total under 17 counts as 16)."""
        table = self._stand.get(removed)
        if table is None:
            d = self.dealer(removed)
            natural = 0.0 if self.peeked else d[NATURAL]  # peeked: not in this world
            rows = []
            for t in range(16, 22):
                win = d[BUST] + sum(d[k] for k in range(5) if t > 17 + k)
                lose = natural + sum(d[k] for k in range(5) if t < 17 + k)
                rows.append((win - lose, win + lose))
            table = self._stand[removed] = tuple(rows)
        return table[max(total, 16) - 16]

    def stand_j(self, removed: tuple[int, ...], total: int, stake: float = 1.0) -> tuple[float, ...]:
        """E[net x 1{dealer outcome k}] of a stand, by dealer outcome slot."""
        d = self.dealer(removed)
        out = []
        for k in range(7):
            if k == BUST:
                out.append(stake * d[k])
            elif k == NATURAL:
                out.append(0.0 if self.peeked else -stake * d[k])
            else:
                f = 17 + k
                out.append(stake * d[k] * ((total > f) - (total < f)))
        return tuple(out)

    def bust_j(self, removed: tuple[int, ...], amount: float) -> tuple[float, ...]:
        """A bust's loss (``amount``, already weighted) spread over the dealer's outcomes."""
        d = self.dealer(removed)
        slots = [d[k] if not (self.peeked and k == NATURAL) else 0.0 for k in range(7)]
        total = sum(slots)
        return tuple(-amount * s / total for s in slots)

    # the player

    def hs(self, removed: tuple[int, ...], hard: int, ace: bool) -> tuple[float, float, bool]:
        """(value, second moment, hits?) of the better of stand and hit (no double, no split)."""
        key = (removed, hard, ace)
        out = self._hs.get(key)
        if out is not None:
            return out
        best = best_total(hard, ace)
        s = self.stand(removed, best)
        if best >= 21:
            out = (s[0], s[1], False)
        else:
            h = self.hit(removed, hard, ace)
            out = (h[0], h[1], True) if h[0] > s[0] else (s[0], s[1], False)
        self._hs[key] = out
        return out

    def hit(self, removed: tuple[int, ...], hard: int, ace: bool) -> tuple[float, float]:
        comp = self.comp(removed)
        n = sum(comp)
        v = m2 = 0.0
        for r in RANKS:
            if comp[r] == 0:
                continue
            p = comp[r] / n
            child = _plus(removed, r)
            h = hard + PTS[r]
            if h > 21:
                w = self.weight(child)
                v -= p * w
                m2 += p * w
            else:
                cv, cm, _ = self.hs(child, h, ace or r == ACE_INDEX)
                v += p * cv
                m2 += p * cm
        return v, m2

    def double(self, removed: tuple[int, ...], hard: int, ace: bool) -> tuple[float, float]:
        comp = self.comp(removed)
        n = sum(comp)
        v = m2 = 0.0
        for r in RANKS:
            if comp[r] == 0:
                continue
            p = comp[r] / n
            child = _plus(removed, r)
            h = hard + PTS[r]
            if h > 21:
                w = self.weight(child)
                v -= 2 * p * w
                m2 += 4 * p * w
            else:
                sv, sm = self.stand(child, best_total(h, ace or r == ACE_INDEX))
                v += 2 * p * sv
                m2 += 4 * p * sm
        return v, m2

    def hs_j(self, removed: tuple[int, ...], hard: int, ace: bool) -> tuple[float, ...]:
        """E[net x 1{dealer outcome k}] of :meth:`hs`'s play."""
        key = (removed, hard, ace)
        out = self._j.get(key)
        if out is not None:
            return out
        if not self.hs(removed, hard, ace)[2]:
            out = self.stand_j(removed, best_total(hard, ace))
        else:
            out = self._draw_j(removed, hard, ace, double=False)
        self._j[key] = out
        return out

    def _draw_j(self, removed: tuple[int, ...], hard: int, ace: bool, *, double: bool) -> tuple[float, ...]:
        comp = self.comp(removed)
        n = sum(comp)
        acc = [0.0] * 7
        stake = 2.0 if double else 1.0
        for r in RANKS:
            if comp[r] == 0:
                continue
            p = comp[r] / n
            child = _plus(removed, r)
            h = hard + PTS[r]
            a = ace or r == ACE_INDEX
            if h > 21:
                part = self.bust_j(removed, stake * self.weight(child))
            elif double:
                part = self.stand_j(child, best_total(h, a), stake)
            else:
                part = self.hs_j(child, h, a)
            for k in range(7):
                acc[k] += p * part[k]
        return tuple(acc)

    def two_card(self, removed: tuple[int, ...], hard: int, ace: bool, *, after_split: bool,
                 split_aces: bool = False) -> dict[str, tuple[float, float]]:
        """(value, second moment) of each play of a two-card hand (splitting aside)."""
        if split_aces and not self.rules.hit_split_aces:
            return {STAND: self.stand(removed, best_total(hard, ace))}
        out = {STAND: self.stand(removed, best_total(hard, ace))}
        if best_total(hard, ace) < 21:
            out[HIT] = self.hit(removed, hard, ace)
        if self.rules.may_double(hard, ace, after_split):
            out[DOUBLE] = self.double(removed, hard, ace)
        return out

    def two_card_j(self, removed: tuple[int, ...], hard: int, ace: bool, action: str) -> tuple[float, ...]:
        if action == STAND:
            return self.stand_j(removed, best_total(hard, ace))
        return self._draw_j(removed, hard, ace, double=action == DOUBLE)

    # splits

    def split(self, removed: tuple[int, ...], pair: int) -> tuple[float, float]:
        """(value, second moment) of splitting a pair of rank ``pair``; ``removed`` holds both."""
        rules = self.rules
        comp = self.comp(removed)
        aces = pair == ACE_INDEX
        resplit = rules.max_split_hands > 2 and (not aces or rules.resplit_aces)
        n_x, n_y, pairs = _split_counts(comp[pair], sum(comp), rules.max_split_hands if resplit else 2)
        value = second = 0.0
        g = [0.0] * 7
        for k, weight in n_x.items():
            v, m, j = self._split_hand(_plus(removed, pair, k), pair, ending=False)
            value += weight * v
            second += weight * m
            for slot in range(7):
                g[slot] += weight * j[slot]
        for k, weight in n_y.items():
            v, m, j = self._split_hand(_plus(removed, pair, k + 1), pair, ending=True)
            value += weight * v
            second += weight * m
            for slot in range(7):
                g[slot] += weight * j[slot]
        hands = sum(n_x.values()) + sum(n_y.values())
        # Covariance of the split hands: independent given the dealer's final outcome.
        d = self.dealer(removed)
        for slot in range(7):
            if d[slot] > 0 and not (self.peeked and slot == NATURAL):
                mean = g[slot] / hands
                second += pairs * mean * mean / d[slot]
        return value, second

    def _split_hand(self, removed: tuple[int, ...], pair: int, *, ending: bool) -> tuple[float, float, tuple]:
        """(value, second moment, J) of one split hand from the shoe less ``removed``: given its
        second card is not a ``pair`` (``ending`` False), or holding a second ``pair`` it may not
        split (``ending`` True; ``removed`` then holds that card)."""
        key = (removed, pair, ending)
        out = self._split.get(key)
        if out is not None:
            return out
        aces = pair == ACE_INDEX
        if ending:
            out = self._best_two_card(removed, 2 * PTS[pair], aces, split_aces=aces)
        else:
            comp = self.comp(removed)
            n = sum(comp) - comp[pair]
            v = m = 0.0
            j = [0.0] * 7
            for r in RANKS:
                if comp[r] == 0 or r == pair:
                    continue
                p = comp[r] / n
                cv, cm, cj = self._best_two_card(_plus(removed, r), PTS[pair] + PTS[r], aces or r == ACE_INDEX,
                                                 split_aces=aces)
                v += p * cv
                m += p * cm
                for slot in range(7):
                    j[slot] += p * cj[slot]
            out = (v, m, tuple(j))
        self._split[key] = out
        return out

    def _best_two_card(self, removed: tuple[int, ...], hard: int, ace: bool, *, split_aces: bool) -> tuple:
        plays = self.two_card(removed, hard, ace, after_split=True, split_aces=split_aces)
        action = max(plays, key=lambda a: plays[a][0])
        v, m = plays[action]
        return v, m, self.two_card_j(removed, hard, ace, action)


def _split_counts(pairs_left: int, cards: int, max_hands: int) -> tuple[dict[int, float], dict[int, float], float]:
    """Splitting a pair up to ``max_hands`` hands from a shoe of ``cards`` holding
    ``pairs_left`` more of its rank: by k, the number of resplits so far (hands - 2), the
    expected hands that take a non-pair second card, and those that take a pair card they may
    not split; and E[hands x (hands - 1)]. The draws deplete the shoe by every card taken;
    a hand's value only knows the k + 2 pair cards its splits took out (Appendix 9's method)."""
    # state (hands, waiting for a second card, pair cards drawn, other cards drawn) -> P
    states = {(2, 2, 0, 0): 1.0}
    n_x: dict[int, float] = {}
    n_y: dict[int, float] = {}
    pairs = 0.0
    while states:
        nxt: dict[tuple[int, int, int, int], float] = {}
        for (hands, waiting, k, m), p in states.items():
            if waiting == 0:
                pairs += p * hands * (hands - 1)
                continue
            left = cards - k - m
            p_pair = (pairs_left - k) / left if left else 0.0
            if p_pair < 1:
                q = p * (1 - p_pair)
                n_x[hands - 2] = n_x.get(hands - 2, 0.0) + q
                key = (hands, waiting - 1, k, m + 1)
                nxt[key] = nxt.get(key, 0.0) + q
            if p_pair > 0:
                q = p * p_pair
                if hands < max_hands:
                    key = (hands + 1, waiting + 1, k + 1, m)
                else:
                    n_y[hands - 2] = n_y.get(hands - 2, 0.0) + q
                    key = (hands, waiting - 1, k + 1, m)
                nxt[key] = nxt.get(key, 0.0) + q
        states = nxt
    return n_x, n_y, pairs


#: (h17, shoe, upcard) -> {removed ranks: dealer distribution}, shared by every ruleset that
#: deals from that shoe (peek or not, DAS or not, 3:2 or 6:5 draw the same dealer hands).
_DEALER_MEMOS: OrderedDict[tuple, dict[tuple[int, ...], tuple[float, ...]]] = OrderedDict()
_DEALER_MEMO_LIMIT = 40  # four shoes' ten upcards: ~25 MB at 8 decks


def _dealer_memo(h17: bool, shoe: tuple[int, ...], up: int) -> dict[tuple[int, ...], tuple[float, ...]]:
    key = (h17, shoe, up)
    memo = _DEALER_MEMOS.get(key)
    if memo is None:
        memo = _DEALER_MEMOS[key] = {}
        while len(_DEALER_MEMOS) > _DEALER_MEMO_LIMIT:
            _DEALER_MEMOS.popitem(last=False)
    else:
        _DEALER_MEMOS.move_to_end(key)
    return memo


# --- the 21 bet -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EdgeResult:
    """The 21 bet under optimal CD play: per unit of the initial 21 bet."""

    rules: Rules
    expected: float  # the player's expected net
    second_moment: float
    by_upcard: Mapping[str, float]

    @property
    def house_edge(self) -> float:
        return -self.expected

    @property
    def variance(self) -> float:
        return self.second_moment - self.expected**2


def _starting_hand(t: _Table, removed: tuple[int, ...], c1: int, c2: int) -> tuple[float, float]:
    """(EV, second moment) of the first two cards ``c1``, ``c2`` (rank indices), unconditioned."""
    rules = t.rules
    pays = float(rules.natural_pays)
    if {c1, c2} == {ACE_INDEX, TEN_INDEX}:
        no_natural = 1.0 - t.p_natural(removed)
        return pays * no_natural, pays * pays * no_natural
    hard = PTS[c1] + PTS[c2]
    ace = ACE_INDEX in (c1, c2)
    plays = t.two_card(removed, hard, ace, after_split=False)
    if c1 == c2 and rules.max_split_hands >= 2 and (c1 != TEN_INDEX or rules.split_any_ten_values):
        plays[SPLIT] = t.split(removed, c1)
    v, m2 = max(plays.values(), key=lambda vm: vm[0])
    if t.peeked:
        p_nat = t.p_natural(removed)
        return v - p_nat, m2 + p_nat
    return v, m2


@lru_cache(maxsize=64)
def twenty_one_edge(rules: Rules) -> EdgeResult:
    """The 21 bet's expected net and second moment over every deal from a full shoe."""
    full = shoe_composition(rules.decks)
    n = sum(full)
    ev = m2 = 0.0
    by_up: dict[str, float] = {}
    for up in RANKS:
        p_up = full[up] / n
        shoe = _plus(full, up, -1)
        t = upcard_table(rules, up)  # kept: a round's decisions are priced on the same states
        n1 = n - 1
        up_ev = up_m2 = 0.0
        for c1 in RANKS:
            for c2 in range(c1, 10):
                ways = shoe[c1] * (shoe[c2] - (c1 == c2))
                if ways <= 0:
                    continue
                p = ways * (1 if c1 == c2 else 2) / (n1 * (n1 - 1))
                removed = _plus(_plus(ZERO, c1), c2)
                v, s = _starting_hand(t, removed, c1, c2)
                up_ev += p * v
                up_m2 += p * s
        by_up["A23456789T"[up]] = up_ev
        ev += p_up * up_ev
        m2 += p_up * up_m2
    return EdgeResult(rules, ev, m2, by_up)


# --- the price of a decision ------------------------------------------------------------------


def _cards(text: str | Sequence[str], path: str, errors: Errors) -> list[int]:
    items = text.split(",") if isinstance(text, str) else list(text)
    out = []
    for i, item in enumerate(items):
        try:
            out.append(parse_card(str(item).strip()))
        except CardError as exc:
            errors.add(f"{path}[{i}]", str(exc))
    return out


def decision_evs(rules: Any, player_cards: Sequence[int], upcard: int, *,
                 after_split: bool = False, removed: Iterable[int] = ()) -> dict[str, float]:
    """The expected value of each legal action, per unit of the 21 bet, plus ``"best"``'s key
    under ``"best"`` in :func:`decision_json`.

    ``player_cards`` and ``upcard`` are card ints; the shoe is the full shoe less them and
    ``removed`` (other known cards). Where the dealer peeked (Ace or ten-value up, peek on)
    the values are given no dealer natural, as the player decides after the peek. A natural
    (unsplit Ace + ten) stands; with an Ace up and insurance offered it also has
    ``"even_money"`` (1), both before the peek. ``"insurance"`` (Ace up, first two cards,
    offered) is the value of adding the largest insurance (half the 21 bet) before the peek:
    it is a side decision, never ``"best"``.
    """
    r = Rules.of(rules)
    if len(player_cards) < 2:
        raise ValueError("a hand has at least two cards")
    shoe = shoe_composition(r.decks, [*player_cards, upcard, *removed])
    ranks = [rank_index(c) for c in player_cards]
    equal_ranks = len(ranks) == 2 and RANK[player_cards[0]] == RANK[player_cards[1]]
    t = upcard_table(r, rank_index(upcard))
    out_of_shoe = tuple(a - b for a, b in zip(t.shoe, shoe, strict=True))
    return table_values(t, out_of_shoe, ranks, after_split=after_split,
                        may_split=equal_ranks or r.split_any_ten_values)


def action_values(rules: Rules, shoe: Sequence[int], ranks: Sequence[int], up: int, *,
                  after_split: bool = False, may_split: bool = True) -> dict[str, float]:
    """:func:`decision_evs` from a shoe given as counts by rank index (Ace, 2..9, ten-value),
    the hand and the upcard as rank indices; ``may_split`` False refuses a split of two
    ten-values (unequal ones where only equal ranks split)."""
    return table_values(_Table(rules, tuple(shoe), up), ZERO, ranks, after_split=after_split, may_split=may_split)


@lru_cache(maxsize=40)
def upcard_table(rules: Rules, up: int) -> _Table:
    """The values against upcard ``up`` from the full shoe less it, every state met kept: the 21
    bet's edge and every decision's price (:func:`table_values`) read one table (4 rulesets kept)."""
    return _Table(rules, _plus(shoe_composition(rules.decks), up, -1), up)


def table_values(t: _Table, removed: tuple[int, ...], ranks: Sequence[int], *,
                 after_split: bool = False, may_split: bool = True) -> dict[str, float]:
    """Each legal action's value on table ``t`` for the hand ``ranks``; ``removed``: the known cards."""
    rules = t.rules
    hard = sum(PTS[x] for x in ranks)
    ace = ACE_INDEX in ranks
    if hard > 21:
        raise ValueError("the hand is already bust: there is no decision")
    two = len(ranks) == 2
    out: dict[str, float] = {}
    offered_insurance = two and not after_split and t.up == ACE_INDEX and rules.insurance
    if offered_insurance:
        out[INSURANCE] = float(-insurance_edge_of(t.comp(removed))) / 2
    if two and not after_split and {ranks[0], ranks[1]} == {ACE_INDEX, TEN_INDEX}:
        out[STAND] = float(rules.natural_pays) * (1.0 - t.p_natural(removed))
        if offered_insurance:
            out[EVEN_MONEY] = 1.0
        return out
    scale = 1.0 / t.weight(removed)  # given no dealer natural, where peeked
    split_aces = after_split and ranks[0] == ACE_INDEX
    if two:
        plays = t.two_card(removed, hard, ace, after_split=after_split, split_aces=split_aces)
        pair = ranks[0] == ranks[1] and (ranks[0] != TEN_INDEX or may_split)
        if pair and not after_split and rules.max_split_hands >= 2:
            plays[SPLIT] = t.split(removed, ranks[0])
    elif split_aces and not rules.hit_split_aces:
        raise ValueError("split Aces take one card only: there is no decision")
    else:
        plays = {STAND: t.stand(removed, best_total(hard, ace))}
        if best_total(hard, ace) < 21:
            plays[HIT] = t.hit(removed, hard, ace)
    for action, (v, _m) in plays.items():
        out[action] = v * scale
    return out


def insurance_edge_of(shoe: Sequence[int]) -> Fraction:
    """Insurance's house edge when the hole card comes from ``shoe`` (counts by rank index)."""
    return 1 - 3 * Fraction(shoe[TEN_INDEX], sum(shoe))


def best_action(evs: Mapping[str, float]) -> str:
    """The play with the highest value (insurance is a side decision, never the play)."""
    return max((a for a in evs if a != INSURANCE), key=lambda a: evs[a])


def decision_json(rules: Any, hand: str | Sequence[str], upcard: str, *, after_split: bool = False) -> dict:
    """``{"actions": {action: ev}, "best": action}`` for the ``gamemath decision`` command."""
    errors = Errors()
    cards = _cards(hand, "hand", errors)
    up = _cards([upcard], "upcard", errors)
    errors.raise_if_any()
    evs = decision_evs(rules, cards, up[0], after_split=after_split)
    return {"actions": {a: round(v, 12) for a, v in evs.items()}, "best": best_action(evs)}


# --- every exact wager of a game --------------------------------------------------------------


def _as_float(x: Fraction | float) -> float:
    return float(f"{float(x):.10g}")


def edge_wagers(rules: Any) -> dict[str, dict]:
    """The ``gamemath edge`` entry of each exactly priced wager of a blackjack game's ruleset.

    The 21 bet (optimal CD play), insurance (when offered) and the side bets with no
    decision (:func:`~tables.games.blackjack.game_math.wager_odds_for_rules`). Ante Up 21's
    ANTE/BET and Blackjack Tie's tie bonuses ride on this play: their math is in
    :mod:`.ante_up_math` and :mod:`.tie_math` (``gamemath edge`` joins them).
    """
    r = Rules.of(rules)
    check_decks(r.decks)
    out: dict[str, dict] = {}
    edge = twenty_one_edge(r)
    out[W21] = {
        "house_edge": _as_float(edge.house_edge),
        "variance": _as_float(edge.variance),
        "method": METHOD,
        "strategy": STRATEGY,
        "exact": {"house_edge": repr(edge.house_edge), "variance": repr(edge.variance),
                  "precision": "float, 1e-9", "by_upcard": {k: repr(v) for k, v in edge.by_upcard.items()}},
    }
    if r.insurance:
        he = insurance_edge(r.decks)
        p_ten = (1 - he) / 3
        variance = 9 * p_ten * (1 - p_ten)  # net +2 or -1: (2 - (-1))^2 p (1 - p)
        out[INSURANCE] = {
            "house_edge": _as_float(he),
            "variance": _as_float(variance),
            "method": METHOD,
            "strategy": "taken with an Ace up and nothing else known (even money has the same edge)",
            "exact": {"house_edge": str(he), "variance": str(variance)},
        }
    for wager, odds in wager_odds_for_rules(rules).items():
        out[wager] = {
            "house_edge": _as_float(odds.house_edge),
            "variance": _as_float(odds.variance),
            "method": METHOD,
            "strategy": "none (no player decision)",
            "exact": {"house_edge": str(odds.house_edge), "variance": str(odds.variance)},
        }
    return out


__all__ = [
    "EdgeResult",
    "Rules",
    "action_values",
    "decision_evs",
    "decision_json",
    "dealer_distribution",
    "edge_wagers",
    "insurance_edge",
    "twenty_one_edge",
]

