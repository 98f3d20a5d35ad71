"""What each decision of the 21 bet is worth when the dealer's hole card is known, and how often a
play that loses against the upcard wins against the hole card by chance: the engine of the
hole-card signal (audit/advantage).

**The values.** The dealer's two cards (upcard and hole) are known; the shoe is the ruleset's
full shoe less both and less the player's cards. Everything else is as in :mod:`.strategy_math`:
the same rules (:class:`~.strategy_math.Rules`), per unit of the 21 bet, all ten-values one rank.

* *stand*: the dealer draws from the remaining shoe to his final hand, starting from his two
  known cards; every final hand is a multiset of drawn cards counted by its legal orderings
  (:func:`.dealer_pass.final_hands`, once per start and soft-17 rule) and weighed by falling factorials of
  the shoe (exact, as :func:`.dealer_pass.dealer_distribution`);
* *hit*: every next card with its probability, then the better of stand and hit again;
* *double*: one card, then stand, at twice the stake;
* *split*: :mod:`.strategy_math`'s method (Appendix 9: each split hand from the shoe less the
  pair cards the splits took out, weighted by the expected hands that end each way,
  :func:`~.strategy_math._split_counts`), each hand played as below.

**The continuation (decided): optimal knowing the hole card.** After a hit (a split, a double's
card) the hand is played on by the best play knowing the dealer's two cards, at every later
decision. A player who sees the hole card plays on with it, so this is the value his choice
is made on: the hole-card player of the tests, who takes the best action given the hole card,
then always "beats the upcard-best given the hole card" whenever he deviates. The upcard-only
values of a priced decision (:mod:`.decisions`) keep the upcard-only continuation; the two are
never mixed in one comparison.

**The dealer's natural.** Where the dealer peeks (Ace or ten-value up, peek on), a natural ends
the round before any play: such a hole card leaves no play decision (no play values), and
the chance of the hole card is given no natural. Without the peek a natural takes every stake
(stand -1, hit -1, double -2, a split -1 a hand). Insurance and even money are decided before
the peek: per unit of the insurance stake, insurance is worth +2 with a ten-value in the hole
and -1 otherwise (decline 0); even money is 1, the natural's stand 0 against a dealer natural
and the natural's pay otherwise.

**Precision.** Floats (sums of products of probabilities): checked against a
:class:`~fractions.Fraction` brute force of the dealer's draws in the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..vocabulary.cards import RANK
from ..vocabulary.catalogue import INSURANCE
from ..vocabulary.hands import best_total
from .dealer_odds import ACE_INDEX, TEN_INDEX, rank_index, shoe_composition
from .dealer_pass import BUST, final_hands, final_sums
from .strategy_math import (
    DOUBLE,
    EVEN_MONEY,
    HIT,
    PTS,
    RANKS,
    SPLIT,
    STAND,
    Rules,
    _plus,
    _split_counts,
    rank_counts,
)

STRATEGY = "optimal knowing the dealer's two cards, at this decision and every later one of the hand"
DECLINE = "decline"
#: Two values closer than this are a tie: neither beats the other.
TIE = 1e-12


def dealer_final(comp: Sequence[int], hard: int, ace: bool, h17: bool) -> tuple[float, ...]:
    """The dealer's final hand drawing from ``comp`` (counts by rank index) from a two-card start:
    ``(P17, P18, P19, P20, P21, P(natural), P(bust))``, :func:`.dealer_pass.final_hands`'s slots
    (a natural only where the two cards are one)."""
    stride, groups = final_hands(hard, ace, 2, bool(h17))
    return final_sums(comp, stride, groups, 7)


class HoleTable:
    """Every value against the dealer's known ``up`` and ``hole`` (rank indices) from the shoe
    less both; states keyed by the ranks removed besides them (the player's cards included)."""

    def __init__(self, rules: Rules, up: int, hole: int):
        self.rules = rules
        self.up, self.hole = up, hole
        full = shoe_composition(rules.decks)
        shoe = list(full)
        for r in (up, hole):
            shoe[r] -= 1
        if min(shoe) < 0:
            raise ValueError("the dealer's cards are not in the shoe")
        self.shoe = tuple(shoe)
        self.natural = {up, hole} == {ACE_INDEX, TEN_INDEX}
        self.dealer_hard = PTS[up] + PTS[hole]
        self.dealer_ace = ACE_INDEX in (up, hole)
        self._dealer: dict[tuple[int, ...], tuple[float, ...]] = {}
        self._stand: dict[tuple[int, ...], tuple[float, ...]] = {}
        self._hs: dict[tuple, float] = {}

    def comp(self, removed: tuple[int, ...]) -> tuple[int, ...]:
        out = tuple(s - r for s, r in zip(self.shoe, removed, strict=True))
        if min(out) < 0:
            raise ValueError("more cards of a rank than the shoe holds")
        return out

    def stand(self, removed: tuple[int, ...], total: int) -> float:
        """Standing on ``total`` (a total under 17 counts as 16); a dealer natural takes it."""
        if self.natural:
            return -1.0
        table = self._stand.get(removed)
        if table is None:
            d = self._dealer.get(removed)
            if d is None:
                d = self._dealer[removed] = dealer_final(self.comp(removed), self.dealer_hard, self.dealer_ace,
                                                         self.rules.h17)
            table = self._stand[removed] = tuple(
                d[BUST] + sum(d[k] for k in range(5) if t > 17 + k) - sum(d[k] for k in range(5) if t < 17 + k)
                for t in range(16, 22))
        return table[max(total, 16) - 16]

    def hit(self, removed: tuple[int, ...], hard: int, ace: bool) -> float:
        comp = self.comp(removed)
        n = sum(comp)
        v = 0.0
        for r in RANKS:
            if comp[r]:
                h = hard + PTS[r]
                v += comp[r] / n * (-1.0 if h > 21 else self.hs(_plus(removed, r), h, ace or r == ACE_INDEX))
        return v

    def hs(self, removed: tuple[int, ...], hard: int, ace: bool) -> float:
        """The better of stand and hit (the continuation: optimal knowing the hole card)."""
        key = (removed, hard, ace)
        out = self._hs.get(key)
        if out is None:
            best = best_total(hard, ace)
            out = self.stand(removed, best)
            if best < 21:
                # A hit is worth at most 1 - 2 P(bust on the next card) (every other card at most
                # wins the stake): a stand worth that much needs no hit tree (exact, only faster).
                comp = self.comp(removed)
                busts = sum(comp[r] for r in RANKS if hard + PTS[r] > 21)
                if out < 1.0 - 2.0 * busts / sum(comp):
                    out = max(out, self.hit(removed, hard, ace))
            self._hs[key] = out
        return out

    def double(self, removed: tuple[int, ...], hard: int, ace: bool) -> float:
        comp = self.comp(removed)
        n = sum(comp)
        v = 0.0
        for r in RANKS:
            if comp[r]:
                h = hard + PTS[r]
                v += comp[r] / n * (-2.0 if h > 21 else 2.0 * self.stand(_plus(removed, r), best_total(h, ace or r == ACE_INDEX)))
        return v

    def two_card(self, removed: tuple[int, ...], hard: int, ace: bool, *, after_split: bool,
                 split_aces: bool = False, only: frozenset[str] | None = None) -> dict[str, float]:
        """Each play of a two-card hand (splitting aside); ``only``: just these (the others unvalued)."""
        def wanted(action: str) -> bool:
            return only is None or action in only

        out = {STAND: self.stand(removed, best_total(hard, ace))} if wanted(STAND) else {}
        if split_aces and not self.rules.hit_split_aces:
            return out
        if best_total(hard, ace) < 21 and wanted(HIT):
            out[HIT] = self.hit(removed, hard, ace)
        if self.rules.may_double(hard, ace, after_split) and wanted(DOUBLE):
            out[DOUBLE] = self.double(removed, hard, ace)
        return out

    def split(self, removed: tuple[int, ...], pair: int) -> float:
        """Splitting a pair of rank ``pair`` (``removed`` holds both), as strategy_math splits."""
        rules = self.rules
        comp = self.comp(removed)
        aces = pair == ACE_INDEX
        resplit = rules.max_split_hands > 2 and (not aces or rules.resplit_aces)
        n_x, n_y, _pairs = _split_counts(comp[pair], sum(comp), rules.max_split_hands if resplit else 2)
        value = 0.0
        for k, weight in n_x.items():
            value += weight * self._split_hand(_plus(removed, pair, k), pair)
        for k, weight in n_y.items():
            held = _plus(removed, pair, k + 1)
            value += weight * max(self.two_card(held, 2 * PTS[pair], aces, after_split=True, split_aces=aces).values())
        return value

    def _split_hand(self, removed: tuple[int, ...], pair: int) -> float:
        """One split hand given its second card is not a ``pair``: the best play of the two cards."""
        comp = self.comp(removed)
        n = sum(comp) - comp[pair]
        aces = pair == ACE_INDEX
        v = 0.0
        for r in RANKS:
            if comp[r] and r != pair:
                plays = self.two_card(_plus(removed, r), PTS[pair] + PTS[r], aces or r == ACE_INDEX,
                                      after_split=True, split_aces=aces)
                v += comp[r] / n * max(plays.values())
        return v


@lru_cache(maxsize=220)
def hole_table(rules: Rules, up: int, hole: int) -> HoleTable:
    """The table of one ruleset, upcard and hole card (rank indices), its states kept (two rulesets' 100)."""
    return HoleTable(rules, up, hole)


def peeked(rules: Rules, up: int) -> bool:
    return rules.peek and up in (ACE_INDEX, TEN_INDEX)


def table_hole_values(t: HoleTable, ranks: Sequence[int], *, after_split: bool = False,
                      may_split: bool = True, only: frozenset[str] | None = None) -> dict[str, float]:
    """Each legal action's value for the hand ``ranks`` (rank indices) on the hole table ``t``:
    stand, hit, double, split, and even money for a natural against an Ace (per unit of the 21
    bet); insurance and decline with an Ace up on two cards (per unit of the insurance stake).
    Against a dealer natural where the dealer peeks only the decisions before the peek are there.
    ``only``: value just these actions (a legal one not named is left out: its tree is not walked)."""
    rules = t.rules
    hard = sum(PTS[r] for r in ranks)
    ace = ACE_INDEX in ranks
    if hard > 21:
        raise ValueError("the hand is already bust: there is no decision")
    two = len(ranks) == 2
    removed = rank_counts(ranks)
    out: dict[str, float] = {}
    if two and not after_split and t.up == ACE_INDEX and rules.insurance:
        out[INSURANCE] = 2.0 if t.hole == TEN_INDEX else -1.0
        out[DECLINE] = 0.0
    if two and not after_split and {ranks[0], ranks[1]} == {ACE_INDEX, TEN_INDEX}:
        out[STAND] = 0.0 if t.natural else float(rules.natural_pays)
        if INSURANCE in out:
            out[EVEN_MONEY] = 1.0
        return out
    if t.natural and peeked(rules, t.up):
        return out  # the natural ends the round at the peek: no play decision, only insurance's
    split_aces = after_split and ranks[0] == ACE_INDEX
    if two:
        out.update(t.two_card(removed, hard, ace, after_split=after_split, split_aces=split_aces, only=only))
        pair = ranks[0] == ranks[1] and (ranks[0] != TEN_INDEX or may_split)
        if pair and not after_split and rules.max_split_hands >= 2 and (only is None or SPLIT in only):
            out[SPLIT] = t.split(removed, ranks[0])
    elif split_aces and not rules.hit_split_aces:
        raise ValueError("split Aces take one card only: there is no decision")
    else:
        out[STAND] = t.stand(removed, best_total(hard, ace))
        if best_total(hard, ace) < 21 and (only is None or HIT in only):
            out[HIT] = t.hit(removed, hard, ace)
    return out


def hole_card_values(rules: Any, player_cards: Sequence[int], upcard: int, hole: int, *,
                     after_split: bool = False, may_split: bool = True) -> dict[str, float]:
    """Each legal action's value given the player's cards, the upcard and the hole card (card
    ints); see :func:`table_hole_values`."""
    r = Rules.of(rules)
    return table_hole_values(hole_table(r, rank_index(upcard), rank_index(hole)),
                             [rank_index(c) for c in player_cards], after_split=after_split, may_split=may_split)


def hole_chances(rules: Rules, up: int, ranks: Sequence[int], *, before_peek: bool) -> tuple[float, ...]:
    """P(hole card = each rank index) from the full shoe less the upcard and the player's
    ``ranks``; a play decision (``before_peek`` False) where the dealer peeked is given no natural."""
    comp = list(shoe_composition(rules.decks))
    for r in (up, *ranks):
        comp[r] -= 1
    if not before_peek and peeked(rules, up):
        comp[TEN_INDEX if up == ACE_INDEX else ACE_INDEX] = 0
    n = sum(comp)
    return tuple(c / n for c in comp)


#: The decisions a player makes before the peek (their hole card is never "given no natural").
BEFORE_PEEK = frozenset({INSURANCE, DECLINE, EVEN_MONEY})


@dataclass(frozen=True, slots=True)
class HoleTest:
    """One deviation against every hole card: ``beats[h]`` whether the action taken beats the
    upcard-best given hole card rank ``h`` (None: a hole card the decision cannot have), and ``p``
    the chance it does with the hole card unknown (the null: the player does not see it).
    ``h`` is the 21 bet's rank index (ten-values one rank), or with ``poker_ranks`` the card's
    rank less one (Ace 0 ... King 12: Ante Up 21's poker hands tell a ten from a King)."""

    p: float
    beats: tuple[bool | None, ...]
    poker_ranks: bool = False

    def beats_hole(self, hole: int) -> bool | None:
        """Whether the taken action beats the best given the actual ``hole`` (a card int)."""
        return self.beats[RANK[hole] - 1 if self.poker_ranks else rank_index(hole)]


@lru_cache(maxsize=20_000)
def deviation_test(rules: Rules, up: int, ranks: tuple[int, ...], taken: str, best: str, *,
                   after_split: bool = False) -> HoleTest:
    """:class:`HoleTest` of taking ``taken`` instead of the upcard-best ``best`` with the hand
    ``ranks`` (rank indices, sorted or not: the values depend on the multiset) against upcard
    ``up``; both actions valued with the hole card known (:func:`table_hole_values`)."""
    before_peek = taken in BEFORE_PEEK or best in BEFORE_PEEK
    chances = hole_chances(rules, up, ranks, before_peek=before_peek)
    may_split = SPLIT in (taken, best)
    beats: list[bool | None] = []
    p = 0.0
    for h, chance in enumerate(chances):
        if chance <= 0:
            beats.append(None)
            continue
        values = table_hole_values(hole_table(rules, up, h), list(ranks), after_split=after_split,
                                   may_split=may_split, only=frozenset((taken, best)))
        if taken not in values or best not in values:
            raise ValueError(f"{taken} or {best} is not a legal action of this hand")
        wins = values[taken] > values[best] + TIE
        beats.append(wins)
        p += chance * wins
    return HoleTest(min(p, 1.0), tuple(beats))


__all__ = ["BEFORE_PEEK", "DECLINE", "STRATEGY", "HoleTable", "HoleTest", "dealer_final", "deviation_test",
           "hole_card_values", "hole_chances", "hole_table", "table_hole_values"]
