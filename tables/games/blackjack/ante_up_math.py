"""Ante Up 21's ANTE and BET: exact house edges under the optimal fold rule, and the price of the fold.

**What is priced.** Per unit of the ANTE (the BET equals it): the ANTE's and the BET's expected
net, the chance the player bets, and the price of the fold decision (:func:`fold_decision_evs`).

**The player's strategy.**

* *Fold or bet*: the player sees his first two cards (rank by rank: a King is not a ten here)
  and the dealer's upcard, and bets when the BET's expected value, ANTE and BET together, is at
  least the fold's (-1, the ANTE lost). Nothing else is known (no other seat's cards).
* *The blackjack hand*: played as the 21 bet's own best play, optimal composition-dependent
  (:mod:`.strategy_math`'s table: its first-decision values and its hit-or-stand at every
  later state), whatever the poker wagers ride on it (RULINGS.md: the side wagers are priced
  under the play that is best for the main wager). Folded hands are played the same way but do
  not matter to the ANTE.

**The player's own blackjack draws count.** The player's poker hand is the best two of all the
cards of his hand, busted or not, doubled or not (RULINGS.md; the engine's
``player_poker_cards``); a player who split plays his first two cards, a pair. With the dealer's
peek (Ace or ten-value up) a dealer natural is found before any draw, so the player's poker hand
is then his first two cards; without the peek he plays his hand out first.

**The dealer.** He completes his blackjack hand whenever a BET is live (the card and
RULINGS.md), drawing by the soft-17 rule from the shoe left after the upcard and the player's
cards, and plays the best two of all his cards (upcard and hole card included). Queen-high
qualifies; a natural pushes the BET and settles the ANTE by comparing hands.

**Method: exact enumeration.** For each upcard and first two cards (13 ranks: the poker ranking
tells a ten from a King), every way the player's hand can end is enumerated with its
probability from the shoe, as 13-rank multisets (paths that end on the same cards merge). For
each final multiset the dealer's final cards are enumerated exactly from the shoe left: the
dealer's final hands are the 21 bet's own (``dealer_pass.final_hands``: every multiset of cards the
soft-17 rule can end on, with its legal orderings), each ten-value drawn split among 10, J, Q,
K hypergeometrically from the shoe. Each dealer hand's poker value is the engine's
``poker_value`` of his cards, and each (player hand, dealer hand) pair is settled by the
engine's own ``_settle_seat`` (so the qualifier, the natural rule and the split rule are the
engine's), once per (player value, dealer value, natural) and remembered. Every card order
is equally likely, so the player's draws and the dealer's hole card and draws can be taken in
any order: with the peek, the natural's probability comes from the shoe after the first two
cards, and every drawing path is weighted with the dealer's non-natural hands from the shoe
after it.

**Splits are exact too.** A split hand's poker hand is its first two cards (a pair); the dealer's
cards are drawn from the shoe less the upcard and the two pair cards, and the cards the split
hands draw are not removed. That is not an approximation: each split hand stops drawing on
what it has seen (a stopping time), and the cards dealt after a stopping time are distributed
as if nothing had been drawn (optional stopping for the shoe's composition, a martingale), so
the dealer's hand, and with it the pair's ANTE and BET, have the same law. The tests check it:
removing the first split hand's cards as well changes nothing (to 1e-12).

**Precision.** Floats: sums of products of probabilities, no cancellation; agrees with a
brute force over every card order of a small shoe to 1e-12 (tests), well inside 1e-6.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache
from math import factorial
from typing import Any

from ..vocabulary.base import Errors, remember
from ..vocabulary.cards import RANK, CardError, make_card, parse_card
from ..vocabulary.catalogue import ANTE, BET, W21
from ..vocabulary.hands import best_total
from . import ante_up_21 as game
from .dealer_pass import falling_factorials, final_hands
from .hole_card import TIE, HoleTest
from .rounds import Dealer, Hand, Seat, compiled
from .strategy_math import (
    ACE_INDEX,
    DOUBLE,
    NATURAL,
    PTS,
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
STRATEGY = ("bet when ANTE + BET is worth at least the fold (-1), seeing the first two cards and the upcard; "
            "the hand played as the 21 bet's optimal composition-dependent strategy")
TENS = (10, 11, 12, 13)  # the ranks of the ten-values (engine rank numbers)
ONE = Decimal(1)


def _r10(rank: int) -> int:
    """The 21 bet's rank index (Ace 0, 2..9, ten-value 9) of an engine rank 1..13."""
    return min(rank, 10) - 1


def _card(rank: int) -> int:
    return make_card(rank, 0)  # suits never matter: no flushes (the card)


def _cards(counts: Sequence[int]) -> tuple[int, ...]:
    """Card ints for a 13-rank multiset (index 0 = rank 1, Ace)."""
    return tuple(_card(i + 1) for i, n in enumerate(counts) for _ in range(n))


def _add(counts: tuple[int, ...], rank: int, n: int = 1) -> tuple[int, ...]:
    i = rank - 1
    return counts[:i] + (counts[i] + n,) + counts[i + 1:]


EMPTY13 = (0,) * 13


def full_shoe13(decks: int) -> tuple[int, ...]:
    return (4 * decks,) * 13


# --- the dealer's poker hand ------------------------------------------------------------------


def _ten_splits(t: int) -> list[tuple[tuple[int, int, int, int], int]]:
    """Every way ``t`` ten-values fall among 10, J, Q, K, with its multinomial count."""
    out = []
    for a in range(t + 1):
        for b in range(t + 1 - a):
            for c in range(t + 1 - a - b):
                d = t - a - b - c
                out.append(((a, b, c, d), factorial(t) // (factorial(a) * factorial(b) * factorial(c) * factorial(d))))
    return out


class _DealerPoker:
    """The dealer's final poker hand from upcard ``up`` (engine rank), or from ``up`` and a known
    ``hole`` card: a distribution over classes ``(poker value, natural)`` for any shoe (13 rank
    counts) the hole card (when not known) and the draws come from."""

    def __init__(self, up: int, h17: bool, hole: int | None = None):
        self.up = up
        if hole is None:
            stride, groups = final_hands(PTS[_r10(up)], _r10(up) == ACE_INDEX, 1, h17)
            known = [_card(up)]
        else:  # the draws after two known cards
            u, h = _r10(up), _r10(hole)
            stride, groups = final_hands(PTS[u] + PTS[h], ACE_INDEX in (u, h), 2, h17)
            known = [_card(up), _card(hole)]
        self.stride = stride
        self.classes: list[tuple[int, bool]] = []
        self.class_cards: list[tuple[int, ...]] = []
        index: dict[tuple[int, bool], int] = {}
        self.max_t = 0
        entries = []
        for slot, k, terms in groups:
            natural = slot == NATURAL
            for count, idxs in terms:
                drawn10 = [0] * 10
                for i in idxs:
                    r, copies = divmod(i, stride)
                    drawn10[r] = copies
                t = drawn10[TEN_INDEX]
                self.max_t = max(self.max_t, t)
                base = known + [_card(r + 1) for r in range(9) for _ in range(drawn10[r])]
                outs = []
                for split_id, (split, _mult) in enumerate(_ten_splits(t)):
                    cards = tuple(base + [_card(TENS[j]) for j in range(4) for _ in range(split[j])])
                    key = (game.poker_value(cards), natural)
                    cid = index.get(key)
                    if cid is None:
                        cid = index[key] = len(self.classes)
                        self.classes.append(key)
                        self.class_cards.append(cards)
                    outs.append((split_id, cid))
                entries.append((k, count, idxs, t, tuple(outs)))
        self.entries = entries
        self.max_k = max(e[0] for e in entries)
        self.splits = [_ten_splits(t) for t in range(self.max_t + 1)]

    def distribution(self, shoe: Sequence[int]) -> list[float]:
        """P(each class) with the hole card and draws from ``shoe`` (13 rank counts)."""
        stride = self.stride
        n10 = [shoe[r] for r in range(9)] + [sum(shoe[9:13])]
        f = falling_factorials(n10, stride)
        total = sum(n10)
        inv = [1.0]
        x = 1.0
        for j in range(self.max_k):
            x *= total - j
            inv.append(1.0 / x if x > 0 else 0.0)
        tens = shoe[9:13]
        q: list[list[float]] = []
        for t in range(self.max_t + 1):
            ff_t = 1.0
            for j in range(t):
                ff_t *= n10[TEN_INDEX] - j
            row = []
            for split, mult in self.splits[t]:
                if ff_t <= 0:
                    row.append(0.0)
                    continue
                p = float(mult)
                for j in range(4):
                    for i in range(split[j]):
                        p *= tens[j] - i
                row.append(p / ff_t if p > 0 else 0.0)
            q.append(row)
        out = [0.0] * len(self.classes)
        for k, count, idxs, t, outs in self.entries:
            p = count
            for i in idxs:
                p *= f[i]
            if not p:
                continue
            p *= inv[k]
            qt = q[t]
            for split_id, cid in outs:
                out[cid] += p * qt[split_id]
        return out


@lru_cache(maxsize=32)
def _dealer_poker(up: int, h17: bool) -> _DealerPoker:
    return _DealerPoker(up, h17)


@lru_cache(maxsize=64)
def _dealer_poker_hole(up: int, hole: int, h17: bool) -> _DealerPoker:
    return _DealerPoker(up, h17, hole)


# --- settling through the engine --------------------------------------------------------------


class _Settler:
    """ANTE and BET nets per unit, from the engine's ``_settle_seat``, remembered by (player value,
    dealer class)."""

    def __init__(self, rules: Any, dealer: _DealerPoker):
        self.rules = rules
        self.dp = dealer
        self.memo: dict[tuple[int, int], tuple[float, float]] = {}
        self.dealers = [self._dealer(cards, natural) for (_v, natural), cards in zip(dealer.classes, dealer.class_cards,
                                                                                       strict=True)]

    def _dealer(self, cards: tuple[int, ...], natural: bool) -> Dealer:
        return Dealer(cards, cards[0], 0, False, False, natural, False, False, "")

    def player_value(self, seat: Seat) -> int:
        return game.poker_value(game.player_poker_cards(seat))

    def nets(self, seat: Seat, p: int, cid: int) -> tuple[float, float]:
        key = (p, cid)
        out = self.memo.get(key)
        if out is None:
            dealer = self.dealers[cid]
            settled: list = []
            game._settle_seat(seat, dealer, self.rules, settled, game._round_facts(dealer, self.rules))
            by = {s.wager: float(s.net) for s in settled}
            out = self.memo[key] = (by.get(ANTE, 0.0), by.get(BET, 0.0))
        return out


def _seat(cards: tuple[int, ...], first_two: tuple[int, int], split: bool, bet: bool = True) -> Seat:
    wagers = {W21: ONE, ANTE: ONE, **({BET: ONE} if bet else {})}
    hand = Hand(cards, (), 0, False, False, False, False, 0)
    hands = (hand, Hand(cards[1:2], (), 0, False, False, False, False, 0)) if split else (hand,)
    return Seat(1, None, wagers, False, hands, (), first_two, 0, False)


# --- the player's hand ------------------------------------------------------------------------


class _Game:
    """Every first two cards against one upcard (engine rank ``up``)."""

    def __init__(self, rules: Any, r: Rules, up: int, *, draws_count: bool = True, hole: int | None = None):
        self.rules = rules
        self.r = r
        self.up = up
        self.draws_count = draws_count
        shoe13 = _add(full_shoe13(r.decks), up, -1)
        if hole is not None:  # known: out of the shoe the player's draws come from too
            shoe13 = _add(shoe13, hole, -1)
        self.shoe13 = shoe13
        # The player's play is the 21 bet's upcard-only strategy whether or not the hole is known.
        self.table = _table(r, _r10(up))
        self.peeked = self.table.peeked
        self.dp = _dealer_poker(up, r.h17) if hole is None else _dealer_poker_hole(up, hole, r.h17)
        self.settler = _Settler(rules, self.dp)
        self.natural_classes = [i for i, (_v, nat) in enumerate(self.dp.classes) if nat]
        self.dist_memo: dict[tuple[int, ...], list[float]] = {}

    def dealer(self, removed13: tuple[int, ...]) -> list[float]:
        out = self.dist_memo.get(removed13)
        if out is None:
            shoe = tuple(s - x for s, x in zip(self.shoe13, removed13, strict=True))
            out = self.dist_memo[removed13] = self.dp.distribution(shoe)
        return out

    def first_action(self, a: int, b: int) -> str:
        """The 21 bet's best play of the first two cards (strategy_math's values, its order)."""
        t, r = self.table, self.r
        c1, c2 = _r10(a), _r10(b)
        removed = _plus(_plus(ZERO, c1), c2)
        hard = PTS[c1] + PTS[c2]
        ace = ACE_INDEX in (c1, c2)
        plays = t.two_card(removed, hard, ace, after_split=False)
        if c1 == c2 and r.max_split_hands >= 2 and (c1 != TEN_INDEX or r.split_any_ten_values):
            plays[SPLIT] = t.split(removed, c1)
        return max(plays, key=lambda k: plays[k][0])

    def finals(self, a: int, b: int) -> dict[tuple[tuple[int, ...], bool], float]:
        """How the hand of first cards ``a``, ``b`` ends: {(13-rank multiset, split): P}."""
        start = _add(_add(EMPTY13, a), b)
        if not self.draws_count:
            return {(start, False): 1.0}
        action = self.first_action(a, b)
        if action == STAND:
            return {(start, False): 1.0}
        if action == SPLIT:
            return {(start, True): 1.0}
        out: dict[tuple[tuple[int, ...], bool], float] = {}
        c1, c2 = _r10(a), _r10(b)
        removed = _plus(_plus(ZERO, c1), c2)
        self._draw(out, start, removed, PTS[c1] + PTS[c2], ACE_INDEX in (c1, c2), 1.0, once=action == DOUBLE)
        return out

    def _draw(self, out: dict, cards: tuple[int, ...], removed: tuple[int, ...], hard: int, ace: bool, p: float, *,
              once: bool) -> None:
        shoe = self.shoe13
        left = [s - c for s, c in zip(shoe, cards, strict=True)]
        n = sum(left)
        for rank in range(1, 14):
            k = left[rank - 1]
            if not k:
                continue
            q = p * k / n
            r = _r10(rank)
            nxt = _add(cards, rank)
            h = hard + PTS[r]
            a = ace or r == ACE_INDEX
            child = _plus(removed, r)
            if h > 21 or once or best_total(h, a) >= 21 or not self.table.hs(child, h, a)[2]:
                key = (nxt, False)
                out[key] = out.get(key, 0.0) + q
            else:
                self._draw(out, nxt, child, h, a, q, once=False)

    def bet_value(self, a: int, b: int) -> tuple[float, float, float, float]:
        """(E ante, E bet, E ante^2, E bet^2) per unit, the player betting with first cards a, b."""
        start = _add(_add(EMPTY13, a), b)
        first_two = (_card(a), _card(b))
        natural_player = {_r10(a), _r10(b)} == {ACE_INDEX, TEN_INDEX}
        acc = [0.0, 0.0, 0.0, 0.0]
        settler = self.settler
        separate_natural = self.peeked and not natural_player and self.draws_count
        if separate_natural:  # the natural is found before any draw: the first two cards play
            seat = _seat(_cards(start), first_two, False)
            pv = settler.player_value(seat)
            dist = self.dealer(start)
            for cid in self.natural_classes:
                w = dist[cid]
                if w:
                    x, y = settler.nets(seat, pv, cid)
                    acc[0] += w * x
                    acc[1] += w * y
                    acc[2] += w * x * x
                    acc[3] += w * y * y
        finals = {(start, False): 1.0} if natural_player else self.finals(a, b)
        for (cards, split), p in finals.items():
            seat = _seat(_cards(cards) if not split else first_two, first_two, split)
            pv = settler.player_value(seat)
            dist = self.dealer(cards)  # a split's key holds the cards the dealer's shoe lacks
            for cid, w in enumerate(dist):
                if not w or (separate_natural and self.dp.classes[cid][1]):
                    continue
                x, y = settler.nets(seat, pv, cid)
                w *= p
                acc[0] += w * x
                acc[1] += w * y
                acc[2] += w * x * x
                acc[3] += w * y * y
        return acc[0], acc[1], acc[2], acc[3]

    def fold_value(self, a: int, b: int) -> float:
        """The fold's ANTE net, settled by the engine (no BET on the seat)."""
        seat = _seat((_card(a), _card(b)), (_card(a), _card(b)), False, bet=False)
        settled: list = []
        dealer = self.settler.dealers[0]
        game._settle_seat(seat, dealer, self.rules, settled, game._round_facts(dealer, self.rules))
        return float(next(s.net for s in settled if s.wager == ANTE))


@lru_cache(maxsize=64)
def _table_cached(r: Rules, up10: int) -> _Table:
    full = shoe_composition(r.decks)
    shoe = full[:up10] + (full[up10] - 1,) + full[up10 + 1:]
    return _Table(r, shoe, up10)


def _table(r: Rules, up10: int) -> _Table:
    return _table_cached(r, up10)


# --- the edges --------------------------------------------------------------------------------


def ante_bet_edges(rules: Any, *, draws_count: bool = True) -> dict[str, Any]:
    """Per unit of the ANTE over every deal from a full shoe under the optimal fold rule:
    ``ante_ev``, ``bet_ev`` (the BET's net per ANTE, folded hands 0), ``p_bet``, their second
    moments, and ``by_upcard`` (13 ranks). ``draws_count`` False prices the player's poker hand
    as his first two cards and deals the dealer from the shoe less them (the simple model)."""
    r = Rules.of(rules)
    full = full_shoe13(r.decks)
    n = sum(full)
    tot = {"ante_ev": 0.0, "bet_ev": 0.0, "ante_m2": 0.0, "bet_m2": 0.0, "p_bet": 0.0}
    by_up = {}
    for up in range(1, 14):
        g = _Game(rules, r, up, draws_count=draws_count)
        p_up = full[up - 1] / n
        shoe = g.shoe13
        n1 = n - 1
        part = dict.fromkeys(tot, 0.0)
        for a in range(1, 14):
            for b in range(a, 14):
                ways = shoe[a - 1] * (shoe[b - 1] - (a == b)) * (1 if a == b else 2)
                if ways <= 0:
                    continue
                p = ways / (n1 * (n1 - 1))
                ea, eb, ma, mb = g.bet_value(a, b)
                fold = g.fold_value(a, b)
                if ea + eb >= fold:
                    part["ante_ev"] += p * ea
                    part["bet_ev"] += p * eb
                    part["ante_m2"] += p * ma
                    part["bet_m2"] += p * mb
                    part["p_bet"] += p
                else:
                    part["ante_ev"] += p * fold
                    part["ante_m2"] += p * fold * fold
        by_up["A23456789TJQK"[up - 1]] = part["ante_ev"] + part["bet_ev"]
        for k in tot:
            tot[k] += p_up * part[k]
    tot["by_upcard"] = by_up
    return tot


def fold_decision_evs(rules: Any, player_cards: Sequence[int], upcard: int) -> dict[str, Any]:
    """The fold decision's price per unit of the ANTE: ``{"fold": ev, "bet": ev, "best": "fold"|"bet"}``.

    ``player_cards`` (the first two) and ``upcard`` are card ints; the shoe is the full shoe less
    them. ``bet`` is the expected net of ANTE and BET together, the hand then played as the 21
    bet's best play; ``fold`` is the ANTE lost.
    """
    if len(player_cards) != 2:
        raise ValueError("the fold decision is made on the first two cards")
    up = RANK[upcard]
    a, b = sorted(RANK[c] for c in player_cards)
    # A ruleset's 13 x 91 fold decisions, kept with its compiled form (one per ruleset version and
    # process): each is a dealer pass per hand, and a round's pricing asks for them again and again.
    memo = compiled(rules).cache("ante_up_fold")
    got = memo.get((up, a, b))
    if got is None:
        values = _fold_values(rules, up, a, b)
        got = remember(memo, (up, a, b), {**values, "best": "bet" if values["bet"] >= values["fold"] else "fold"})
    return dict(got)


def _game(rules: Any, up: int, hole: int | None = None) -> _Game:
    """The ruleset's :class:`_Game` against ``up`` (and a known ``hole``), kept with its compiled
    form: its dealer distributions are shared by every hand priced against that start."""
    games = compiled(rules).cache("ante_up_games")
    return games.get((up, hole)) or remember(games, (up, hole), _Game(rules, Rules.of(rules), up, hole=hole))


def _fold_values(rules: Any, up: int, a: int, b: int, hole: int | None = None) -> dict[str, float]:
    """``{"fold": ev, "bet": ev}`` of first cards ``a``, ``b`` against ``up`` (and ``hole``)."""
    g = _game(rules, up, hole)
    if min(_add(_add(g.shoe13, a, -1), b, -1)) < 0:
        raise ValueError("more copies of a card than the shoe holds")
    ea, eb, _ma, _mb = g.bet_value(a, b)
    return {"fold": g.fold_value(a, b), "bet": ea + eb}


def fold_hole_values(rules: Any, up: int, a: int, b: int, hole: int) -> dict[str, float]:
    """The fold decision's two values per unit of the ANTE, ``{"fold": ev, "bet": ev}``, with the
    dealer's ``hole`` card known besides the upcard ``up`` and the first two cards ``a``, ``b``
    (engine ranks 1-13): the dealer's hand is drawn from those two cards, the player's draws and
    the dealer's from the shoe less all five. The hand is played as in
    :func:`fold_decision_evs` (the 21 bet's upcard-only best play), so the two prices differ
    only by what the hole card tells about the dealer's hand."""
    return _fold_values(rules, up, a, b, hole)


def fold_hole_test(rules: Any, first_two: Sequence[int], upcard: int, taken: str, best: str) -> HoleTest:
    """The hole-card test of a fold decision that is not the upcard-best (card ints): for each
    hole card rank (Ace ... King), whether ``taken`` beats ``best`` with it known
    (:func:`fold_hole_values`), and the chance it does with the hole card unknown, from the
    shoe less the upcard and the first two cards. The decision is made before the peek, so no
    hole card is excluded. Kept with the ruleset's compiled form."""
    if {taken, best} != {"fold", "bet"}:
        raise ValueError("the fold decision is fold or bet")
    up = RANK[upcard]
    a, b = sorted(RANK[c] for c in first_two)
    memo = compiled(rules).cache("ante_up_hole_tests")
    got = memo.get((up, a, b, taken))
    if got is None:
        left = _add(_add(_game(rules, up).shoe13, a, -1), b, -1)  # the hole card's shoe
        if min(left) < 0:
            raise ValueError("more copies of a card than the shoe holds")
        n = sum(left)
        beats: list[bool | None] = []
        p = 0.0
        for hole in range(1, 14):
            if not left[hole - 1]:
                beats.append(None)
                continue
            values = fold_hole_values(rules, up, a, b, hole)
            wins = values[taken] > values[best] + TIE
            beats.append(wins)
            p += left[hole - 1] / n * wins
        got = remember(memo, (up, a, b, taken), HoleTest(min(p, 1.0), tuple(beats), poker_ranks=True))
    return got




# --- the gamemath entries ---------------------------------------------------------------------


def _f(x: float) -> float:
    return float(f"{x:.10g}")


def edge_wagers(rules: Any) -> dict[str, dict]:
    """The ``gamemath edge`` entries of the ANTE and the BET (the shape of
    strategy_math.edge_wagers'). The ANTE's edge is per unit of ANTE, the BET's per unit of BET
    actually made (the BET is on the layout only when the player bets); ``exact`` also carries
    both per unit of ANTE, the chance of a bet and the combined figure."""
    e = ante_bet_edges(rules)
    p_bet = e["p_bet"]
    ante_var = e["ante_m2"] - e["ante_ev"] ** 2
    bet_ev = e["bet_ev"] / p_bet
    bet_var = e["bet_m2"] / p_bet - bet_ev**2
    common = {
        "p_bet": repr(p_bet),
        "ante_ev_per_ante": repr(e["ante_ev"]),
        "bet_ev_per_ante": repr(e["bet_ev"]),
        "combined_house_edge_per_ante": repr(-(e["ante_ev"] + e["bet_ev"])),
        "element_of_risk": repr(-(e["ante_ev"] + e["bet_ev"]) / (1 + p_bet)),
        "by_upcard_ante_plus_bet": {k: repr(v) for k, v in e["by_upcard"].items()},
        "precision": "float, 1e-9",
    }
    return {
        ANTE: {"house_edge": _f(-e["ante_ev"]), "variance": _f(ante_var), "method": METHOD, "strategy": STRATEGY,
               "exact": {"house_edge": repr(-e["ante_ev"]), "variance": repr(ante_var), **common}},
        BET: {"house_edge": _f(-bet_ev), "variance": _f(bet_var), "method": METHOD,
              "strategy": STRATEGY + " (per BET made)",
              "exact": {"house_edge": repr(-bet_ev), "variance": repr(bet_var), **common}},
    }


def fold_decision_json(rules: Any, hand: str | Sequence[str], upcard: str) -> dict:
    """``{"actions": {"fold": ev, "bet": ev}, "best": ...}`` per unit of the ANTE, from card text."""
    errors = Errors()
    items = hand.split(",") if isinstance(hand, str) else list(hand)
    cards: list[int] = []
    for i, item in enumerate([*items, upcard]):
        try:
            cards.append(parse_card(str(item).strip()))
        except CardError as exc:
            errors.add("upcard" if i == len(items) else f"hand[{i}]", str(exc))
    errors.raise_if_any()
    evs = fold_decision_evs(rules, cards[:-1], cards[-1])
    return {"actions": {"fold": round(evs["fold"], 12), "bet": round(evs["bet"], 12)}, "best": evs["best"]}


__all__ = ["ante_bet_edges", "edge_wagers", "fold_decision_evs", "fold_decision_json", "fold_hole_test",
           "fold_hole_values"]
