"""Blackjack Tie's bonuses: exact house edges of LS, RS and each total's bonus under the 21 bet's best play.

**The player's strategy.** The first hand is played as the 21 bet's own best play, optimal
composition-dependent (:mod:`.strategy_math`'s table: its first-decision values, splits
included, and its hit-or-stand at every later state), whatever tie bonuses ride on it
(RULINGS.md: "the player's hand is played for the 21 bet (its own best play)").

**What ties** is the engine's ``tie_of`` (a natural ties only a natural; a non-natural 21,
split Aces + ten included, only a non-natural 21; a busted hand never ties; totals 17 to 21),
and each bonus is settled by the engine's ``_settle_bonus`` with the ruleset's pay table, once
per tie name. After a split only the first hand counts (RULINGS.md).

**Method: exact enumeration** (10 ranks: a ten-value's face never matters here). For each upcard
and first two cards, every way the first hand can end is enumerated with its probability from
the shoe; the dealer's final hand comes from strategy_math's exact dealer distribution for the
shoe left after the upcard and those cards. Every card order is equally likely, so with the peek
the natural's probability comes from the shoe after the first two cards and each drawing path
is weighted with the dealer's non-natural outcomes from the shoe after it.

**Splits.** The first hand of a split is played to its end first (the usual dealing order):
it takes its second card; a card of the pair's rank is split off to a new hand while the rules
allow (strategy_math's split always resplits, up to ``max_split_hands``; Aces only with
``resplit_aces``), and the hand takes another. The dealer's hand then comes from the shoe less
the upcard, the pair cards split off and the first hand's cards. The other split hands' draws
are not removed, and need not be: they stop on what they have seen, and the cards dealt after
a stopping time have the law they had before (optional stopping; Ante Up 21's tests check the
same fact numerically). Under that dealing order the figures are exact for the strategy
stated.

**Precision.** Floats, no cancellation; the tests check against a brute force over every card
order of a small shoe to 1e-12.
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from typing import Any

from ..vocabulary.catalogue import W21
from ..vocabulary.hands import best_total, soft_total
from . import blackjack_tie as game
from .rounds import Dealer, Hand, Seat
from .strategy_math import (
    ACE_INDEX,
    BUST,
    DOUBLE,
    NATURAL,
    PTS,
    RANKS,
    SPLIT,
    STAND,
    TEN_INDEX,
    ZERO,
    Rules,
    _plus,
    _Table,
    shoe_composition,
)

METHOD = "exact"
STRATEGY = "the first hand played as the 21 bet's optimal composition-dependent strategy (splits: first hand only)"
ONE = Decimal(1)


def _hand(hard: int, ace: bool, *, natural: bool = False) -> Hand:
    best, soft = soft_total(hard, ace)
    total = 21 if natural else best
    return Hand((), (), total, soft, total > 21, natural, False, 0)


def _dealer(up: int, slot: int) -> Dealer:
    total = {NATURAL: 21, BUST: 22}.get(slot, 17 + slot)
    return Dealer((), up, total, False, slot == BUST, slot == NATURAL, False, False, f"dealer slot {slot}")


class _Upcard:
    """Tie probabilities against one upcard (rank index): {tie name or None: P}."""

    def __init__(self, r: Rules, up: int):
        full = shoe_composition(r.decks)
        self.shoe = full[:up] + (full[up] - 1,) + full[up + 1:]
        self.r = r
        self.up = up
        self.t = _Table(r, self.shoe, up)
        self.dealers = [_dealer(up, slot) for slot in range(7)]
        self.ties: dict[str | None, float] = {}
        self.examples: dict[str | None, tuple[Hand, Dealer]] = {}

    def add(self, hand: Hand, slot: int, p: float) -> None:
        dealer = self.dealers[slot]
        tie = game.tie_of(hand, dealer)
        if tie not in self.ties:
            self.ties[tie] = 0.0
            self.examples[tie] = (hand, dealer)
        self.ties[tie] += p

    def settle_path(self, removed: tuple[int, ...], hard: int, ace: bool, p: float) -> None:
        """A first hand that ended on ``removed`` (its cards and any split off): every dealer hand."""
        hand = _hand(hard, ace)
        d = self.t.dealer(removed)
        for slot in range(7):
            if slot == NATURAL and self.t.peeked:
                continue  # found before any draw: counted from the first two cards
            if d[slot]:
                self.add(hand, slot, p * d[slot])

    def play(self, removed: tuple[int, ...], hard: int, ace: bool, action: str, p: float) -> None:
        if action == STAND:
            self.settle_path(removed, hard, ace, p)
            return
        self.draw(removed, hard, ace, p, once=action == DOUBLE)

    def draw(self, removed: tuple[int, ...], hard: int, ace: bool, p: float, *, once: bool) -> None:
        comp = self.t.comp(removed)
        n = sum(comp)
        for r in RANKS:
            if not comp[r]:
                continue
            q = p * comp[r] / n
            child = _plus(removed, r)
            h = hard + PTS[r]
            a = ace or r == ACE_INDEX
            if h > 21 or once or best_total(h, a) >= 21 or not self.t.hs(child, h, a)[2]:
                self.settle_path(child, h, a, q)
            else:
                self.draw(child, h, a, q, once=False)

    def first_hand_of_split(self, removed: tuple[int, ...], pair: int, hands: int, p: float) -> None:
        r = self.r
        aces = pair == ACE_INDEX
        may_resplit = r.max_split_hands > 2 and (not aces or r.resplit_aces)
        comp = self.t.comp(removed)
        n = sum(comp)
        for c in RANKS:
            if not comp[c]:
                continue
            q = p * comp[c] / n
            child = _plus(removed, c)
            if c == pair and may_resplit and hands < r.max_split_hands:
                self.first_hand_of_split(child, pair, hands + 1, q)  # the card starts a new hand
                continue
            hard = PTS[pair] + PTS[c]
            ace = aces or c == ACE_INDEX
            plays = self.t.two_card(child, hard, ace, after_split=True, split_aces=aces)
            self.play(child, hard, ace, max(plays, key=lambda k: plays[k][0]), q)

    def deal(self, c1: int, c2: int, p: float) -> None:
        t, r = self.t, self.r
        removed = _plus(_plus(ZERO, c1), c2)
        hard = PTS[c1] + PTS[c2]
        ace = ACE_INDEX in (c1, c2)
        p_nat = t.p_natural(removed)
        if {c1, c2} == {ACE_INDEX, TEN_INDEX}:
            hand = _hand(hard, ace, natural=True)
            if p_nat:
                self.add(hand, NATURAL, p * p_nat)
            d = t.dealer(removed)
            for slot in range(7):
                if slot != NATURAL and d[slot]:
                    self.add(hand, slot, p * d[slot])
            return
        if t.peeked and p_nat:
            self.add(_hand(hard, ace), NATURAL, p * p_nat)
        plays = t.two_card(removed, hard, ace, after_split=False)
        if c1 == c2 and r.max_split_hands >= 2 and (c1 != TEN_INDEX or r.split_any_ten_values):
            plays[SPLIT] = t.split(removed, c1)
        action = max(plays, key=lambda k: plays[k][0])
        if action == SPLIT:
            self.first_hand_of_split(removed, c1, 2, p)
        else:
            self.play(removed, hard, ace, action, p)


def tie_probabilities(rules: Any) -> dict[str | None, float]:
    """P(the first hand ties the dealer on each tie name), None for no tie, over every deal."""
    return _ties(Rules.of(rules))[0]


@lru_cache(maxsize=16)
def _ties(r: Rules) -> tuple[dict[str | None, float], dict[str | None, tuple[Hand, Dealer]]]:
    full = shoe_composition(r.decks)
    n = sum(full)
    out: dict[str | None, float] = {}
    examples: dict[str | None, tuple[Hand, Dealer]] = {}
    for up in RANKS:
        u = _Upcard(r, up)
        shoe = u.shoe
        n1 = n - 1
        for c1 in RANKS:
            for c2 in range(c1, 10):
                ways = shoe[c1] * (shoe[c2] - (c1 == c2)) * (1 if c1 == c2 else 2)
                if ways > 0:
                    u.deal(c1, c2, ways / (n1 * (n1 - 1)))
        p_up = full[up] / n
        for k, v in u.ties.items():
            out[k] = out.get(k, 0.0) + p_up * v
        for k, ex in u.examples.items():
            examples.setdefault(k, ex)
    return out, examples


def bonus_edges(rules: Any) -> dict[str, dict[str, float]]:
    """Each tie bonus wager's house edge and variance per unit, settled by the engine's
    settlement (``_settle``, every bonus on the seat) of a hand and dealer ending in each tie
    name (and in no tie)."""
    ties, examples = _ties(Rules.of(rules))
    seat = Seat(1, None, {W21: ONE, **dict.fromkeys(game.WAGERS, ONE)}, False, (), (), (0, 0), 0, False)
    nets: dict[str | None, dict[str, float]] = {}
    for tie, (hand, dealer) in examples.items():
        settled: list = []
        game._settle(seat._replace(hands=(hand,)), dealer, rules, None, settled)
        nets[tie] = {s.wager: float(s.net) for s in settled}
    out = {}
    for key in game.WAGERS:
        ev = sum(p * nets[tie][key] for tie, p in ties.items())
        m2 = sum(p * nets[tie][key] ** 2 for tie, p in ties.items())
        out[key] = {"house_edge": -ev, "variance": m2 - ev * ev, "p_win": sum(
            p for tie, p in ties.items() if nets[tie][key] > 0)}
    return out




def edge_wagers(rules: Any) -> dict[str, dict]:
    """The ``gamemath edge`` entries of the tie bonuses (the shape of strategy_math.edge_wagers')."""
    out = {}
    for key, e in bonus_edges(rules).items():
        out[key] = {
            "house_edge": float(f"{e['house_edge']:.10g}"),
            "variance": float(f"{e['variance']:.10g}"),
            "method": METHOD,
            "strategy": STRATEGY,
            "exact": {"house_edge": repr(e["house_edge"]), "variance": repr(e["variance"]),
                      "p_win": repr(e["p_win"]),
                      "precision": "float, 1e-9"},
        }
    return out


__all__ = ["bonus_edges", "edge_wagers", "tie_probabilities"]
