"""Players of the play signals, simulated at the engine's level (no database): rounds dealt from a
real six-deck shoe cut at 75%, the Hi-Lo true count kept as count.py keeps it, and each seat's
decisions priced as audit/decisions prices them (strategy_math.table_values: the upcard-best
and every legal action's value), as :class:`audit.advantage.plays.SeatPlay` rows.

The players:

* ``optimal``: always the upcard-best (composition-dependent) play; never insures.
* ``basic``: the repo's simulator's total-dependent basic strategy (simulate._decide and
  _should_split); never insures, never takes even money.
* ``hole_card``: sees the hole card and takes the best action knowing it
  (hole_card.table_hole_values), insures and takes even money exactly on a ten-value in the hole.
* ``counter``: basic strategy with Hi-Lo index plays (the usual "Illustrious 18" that apply
  here): insurance at +3, 16 v T stand at 0, 15 v T at +4, 16 v 9 at +5, 12 v 2/3 stand at
  +3/+2, 12 v 4/5/6 and 13 v 2/3 hit below 0/-2/-1 and -1/-2, double 11 v A at +1, 10 v T and
  10 v A at +4, 9 v 2 at +1, 9 v 7 at +3.
* ``noisy``: basic strategy, but one decision in ten (insurance included) another legal action
  at random: deviations that owe nothing to the count or the hole card (the null of both signals).
"""

from __future__ import annotations

import random
from types import SimpleNamespace

from audit.advantage.count import HI_LO, true_count
from audit.advantage.plays import SeatPlay
from tables.games.blackjack import simulate as bj_sim
from tables.games.blackjack.dealer_odds import ACE_INDEX, TEN_INDEX, rank_index
from tables.games.blackjack.hole_card import DECLINE, hole_table, table_hole_values
from tables.games.blackjack.strategy_math import (
    DOUBLE,
    EVEN_MONEY,
    HIT,
    PTS,
    SPLIT,
    STAND,
    Rules,
    best_action,
    insurance_edge_of,
    rank_counts,
    table_values,
    upcard_table,
)
from tables.games.vocabulary.catalogue import INSURANCE
from tables.games.vocabulary.hands import dealer_must_draw, soft_total

RULES = Rules(decks=6)
_SIM_RULES = SimpleNamespace(double_after_split=RULES.das)


def _total(ranks) -> tuple[int, bool]:
    return soft_total(sum(PTS[r] for r in ranks), ACE_INDEX in ranks)


def _up_value(up: int) -> int:
    return 11 if up == ACE_INDEX else PTS[up]


# --- the players: (ctx) -> action ---------------------------------------------------------------


def optimal(ctx) -> str:
    return ctx.best


def basic(ctx) -> str:
    if ctx.kind == INSURANCE:
        return DECLINE
    if ctx.kind == EVEN_MONEY:
        return STAND
    if SPLIT in ctx.values and bj_sim._should_split(ctx.cards[0], ctx.upcard, _SIM_RULES):
        return SPLIT
    return bj_sim._decide(list(ctx.cards), ctx.upcard, DOUBLE in ctx.values)


def hole_card(ctx) -> str:
    ten_in_hole = rank_index(ctx.hole) == TEN_INDEX
    if ctx.kind == INSURANCE:
        return INSURANCE if ten_in_hole else DECLINE
    if ctx.kind == EVEN_MONEY:
        return EVEN_MONEY if ten_in_hole else STAND
    known = table_hole_values(hole_table(RULES, ctx.up, rank_index(ctx.hole)), list(ctx.ranks),
                              after_split=ctx.after_split, may_split=SPLIT in ctx.values)
    return max((a for a in ctx.values if a in known), key=lambda a: known[a])


#: Hard-total index plays: (total, upcard value) -> (true count, the play at or above it, the play below).
_INDEX = {
    (16, 10): (0, STAND, HIT), (15, 10): (4, STAND, HIT), (16, 9): (5, STAND, HIT),
    (12, 2): (3, STAND, HIT), (12, 3): (2, STAND, HIT), (12, 4): (0, STAND, HIT), (12, 5): (-2, STAND, HIT),
    (12, 6): (-1, STAND, HIT), (13, 2): (-1, STAND, HIT), (13, 3): (-2, STAND, HIT),
}
_DOUBLE_INDEX = {(11, 11): 1, (10, 10): 4, (10, 11): 4, (9, 2): 1, (9, 7): 3}


def counter(ctx) -> str:
    if ctx.kind == INSURANCE:
        return INSURANCE if ctx.true_count >= 3 else DECLINE
    play = basic(ctx)
    if ctx.kind == EVEN_MONEY or play == SPLIT:
        return play
    total, soft = _total(ctx.ranks)
    u = _up_value(ctx.up)
    if not soft:
        at = _DOUBLE_INDEX.get((total, u))
        if at is not None and DOUBLE in ctx.values:
            return DOUBLE if ctx.true_count >= at else HIT
        index = _INDEX.get((total, u))
        if index is not None:
            return index[1] if ctx.true_count >= index[0] else index[2]
    return play


def noisy(ctx) -> str:
    play = basic(ctx)
    if ctx.rng.random() < 0.1:
        others = [a for a in ctx.values if a != play]
        return ctx.rng.choice(others) if others else play
    return play


PLAYERS = {"optimal": optimal, "basic": basic, "hole_card": hole_card, "counter": counter, "noisy": noisy}


# --- the table ------------------------------------------------------------------------------------


class _Shoe:
    def __init__(self, rng: random.Random, decks: int):
        self.rng, self.decks = rng, decks
        self.shuffle()

    def shuffle(self) -> None:
        self.cards = [c for c in range(52) for _ in range(self.decks)]
        self.rng.shuffle(self.cards)
        self.dealt = 0
        self.running = 0

    def draw(self) -> int:
        card = self.cards[self.dealt]
        self.dealt += 1
        self.running += HI_LO[card]
        return card


def _decision(rules: Rules, t, cards: list[int], *, after_split: bool, may_split: bool) -> dict:
    ranks = [rank_index(c) for c in cards]
    values = table_values(t, rank_counts(ranks), ranks, after_split=after_split, may_split=may_split)
    values.pop(INSURANCE, None)
    values.pop(EVEN_MONEY, None)
    return values


def play_rounds(player: str, rounds: int, *, seed: int, rules: Rules = RULES) -> list[tuple[SeatPlay, float]]:
    """``rounds`` rounds of one seat played by ``player``: (seat, true count before the round)."""
    decide = PLAYERS[player]
    rng = random.Random(seed)
    shoe = _Shoe(rng, rules.decks)
    out = []
    for round_id in range(1, rounds + 1):
        if shoe.dealt >= 0.75 * 52 * rules.decks:
            shoe.shuffle()
        tc = true_count(shoe.running, rules.decks, shoe.dealt)
        c1, c2, upcard, hole = shoe.draw(), shoe.draw(), shoe.draw(), shoe.draw()
        up = rank_index(upcard)
        t = upcard_table(rules, up)
        decisions: list[dict] = []
        ask = _asker(decide, decisions, SimpleNamespace(upcard=upcard, up=up, hole=hole, true_count=tc, rng=rng))
        first = [c1, c2]
        ranks = sorted(rank_index(c) for c in first)
        natural = ranks == [ACE_INDEX, TEN_INDEX]
        dealer_natural = {up, rank_index(hole)} == {ACE_INDEX, TEN_INDEX}
        if up == ACE_INDEX and rules.insurance:
            if natural:
                values = table_values(t, rank_counts(ranks), ranks)
                values.pop(INSURANCE, None)
                ask(EVEN_MONEY, first, values)
            else:
                edge = float(insurance_edge_of(t.comp(rank_counts(ranks))))
                values = {INSURANCE: -edge, DECLINE: 0.0}
                if decide(SimpleNamespace(kind=INSURANCE, cards=tuple(first), ranks=tuple(ranks), upcard=upcard,
                                          up=up, hole=hole, true_count=tc, values=values, best=DECLINE,
                                          after_split=False, rng=rng)) == INSURANCE:
                    decisions.append({"hand": 0, "cards": list(first), "action": INSURANCE, "best": best_action(values),
                                      "values": values})
        peek_ends = dealer_natural and rules.peek and up in (ACE_INDEX, TEN_INDEX)
        if not natural and not peek_ends:
            _play(rules, t, first, shoe, ask)
        # The dealer draws to 17 (the cards count for the next rounds).
        dealer = [upcard, hole]
        while True:
            if not dealer_must_draw(*_total([rank_index(c) for c in dealer]), rules.h17):
                break
            dealer.append(shoe.draw())
        out.append((SeatPlay(round_id, player, rules, upcard, hole, decisions), tc))
    return out


def _asker(decide, decisions: list[dict], seen: SimpleNamespace):
    """``ask(kind, cards, values, after_split, hand)``: the player's action, recorded as priced."""

    def ask(kind, cards, values, after_split=False, hand=0):
        best = best_action(values)
        ctx = SimpleNamespace(**vars(seen), kind=kind, cards=tuple(cards), ranks=tuple(rank_index(c) for c in cards),
                              values=values, best=best, after_split=after_split)
        action = decide(ctx)
        decisions.append({"hand": hand, "cards": list(cards), "action": action, "best": best, "values": values})
        return action

    return ask


def _play(rules: Rules, t, first: list[int], shoe: _Shoe, ask) -> None:
    values = _decision(rules, t, first, after_split=False, may_split=rank_index(first[0]) == rank_index(first[1]))
    action = ask("play", first, values)
    if action == SPLIT:
        for hand, pair in enumerate(first):
            cards = [pair, shoe.draw()]
            if rank_index(pair) == ACE_INDEX and not rules.hit_split_aces:
                continue  # split Aces take one card: no decision
            _hand(rules, t, cards, shoe, ask, after_split=True, hand=hand)
        return
    _hand(rules, t, first, shoe, ask, after_split=False, hand=0, action=action)


def _hand(rules: Rules, t, cards: list[int], shoe: _Shoe, ask, *, after_split: bool, hand: int,
          action: str | None = None) -> None:
    """Play one hand on; ``action``: its first decision, when already asked."""
    while True:
        if action is None:
            if _total([rank_index(c) for c in cards])[0] >= 21:
                return
            values = _decision(rules, t, cards, after_split=after_split, may_split=False)
            action = ask("play", cards, values, after_split, hand)
        if action == STAND:
            return
        cards.append(shoe.draw())
        if action == DOUBLE:
            return
        action = None
