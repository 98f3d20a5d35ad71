"""The price of every decision a blackjack round records: what each legal action was worth, and
what the one taken cost against the best.

For each decision of each seat (split, hit, stand, double, and even money or insurance with an
Ace up) the value of every legal action is the 21 bet's expected net per unit of the 21 bet,
from the player's cards and the dealer's upcard only, under the optimal composition-dependent
play of :mod:`.strategy_math` (the strategy the 21 bet's exact edge assumes), given no dealer
natural where the dealer peeked. A decision's cost is the best value less the taken one, never
negative; in money, times the seat's 21 bet. Insurance is priced on its own stake: taking it
costs its house edge from the shoe less the player's cards and the upcard.

The values come from the one table of a ruleset and upcard (``strategy_math.upcard_table``), the
hand's cards taken out of its shoe: every state the edge's computation met is read, not
recomputed, and a state new to the process is computed once.

Ante Up 21's fold decision (fold, or place the BET) is priced per unit of the ANTE by
:func:`.ante_up_math.fold_decision_evs` (the optimal fold rule the ANTE's and BET's edge assume:
``bet`` is the expected net of ANTE and BET with the hand then played as the 21 bet's best play,
``fold`` the ANTE lost).

Not priced (returned in :attr:`RoundPrices.unpriced` with the reason): a resplit (the strategy
prices a split hand without splitting it again), an action the rules do not allow (the audit
flags it), a Hold'em Blackjack round (player against player).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any

from ..vocabulary.cards import RANK, make_card
from ..vocabulary.catalogue import ANTE, ANTE_UP_21, BET, INSURANCE, W21
from ..vocabulary.prices import Decision, RoundPrices
from .ante_up_math import fold_decision_evs
from .dealer_odds import ACE_INDEX, TEN_INDEX, rank_index
from .rounds import Round, Seat, compiled
from .strategy_math import (
    DOUBLE,
    EVEN_MONEY,
    SPLIT,
    STAND,
    Rules,
    best_action,
    insurance_edge_of,
    rank_counts,
    table_values,
    upcard_table,
)

DECLINE = "decline"
FOLD = "fold"


def _removed(cards: Sequence[int]) -> tuple[tuple[int, ...], list[int]]:
    ranks = [rank_index(c) for c in cards]
    return rank_counts(ranks), ranks


def _decision(seat: Seat, hand: int, cards: tuple[int, ...], action: str, values: dict[str, float],
              stake: Decimal) -> Decision:
    best = best_action(values)
    return Decision(seat.seat, hand, cards, action, values, best, max(0.0, values[best] - values[action]), stake)


@lru_cache(maxsize=1 << 16)
def _hand_values(t, removed: tuple[int, ...], ranks: tuple[int, ...], after_split: bool,
                 may_split: bool) -> tuple[tuple[str, float], ...]:
    """``table_values`` of a hand's state with the side decisions left out: a floor meets the
    same few thousand states all day, so each is read from the table once per process."""
    values = table_values(t, removed, ranks, after_split=after_split, may_split=may_split)
    return tuple((a, v) for a, v in values.items() if a not in (INSURANCE, EVEN_MONEY))


def _state_values(t, cards: Sequence[int], *, after_split: bool, may_split: bool) -> dict[str, float]:
    """The values of the hand ``cards`` through :func:`_hand_values`, keyed by what they depend on,
    so that 9-7 and 7-9 are one entry: the ranks as a multiset (after a split, the split card
    first: it decides split Aces), and ``may_split`` only for two ten-values (the one pair it
    changes)."""
    removed, ranks = _removed(cards)
    key = (ranks[0], *sorted(ranks[1:])) if after_split else tuple(sorted(ranks))
    two_tens = len(key) == 2 and key[0] == key[1] == TEN_INDEX
    return dict(_hand_values(t, removed, key, after_split, may_split or not two_tens))


def _may_split(first: Sequence[int], r: Rules) -> bool:
    """Whether the first two cards may split as a pair: equal ranks, or any two ten-values where
    the rules allow it."""
    return RANK[first[0]] == RANK[first[1]] or r.split_any_ten_values


def _hand(t, seat: Seat, index: int, cards: tuple[int, ...], actions: Sequence[str], *,
          after_split: bool, may_split: bool, out: list, unpriced: list) -> None:
    """The decisions of one hand after its splits: each hit, stand and double in order."""
    stake = seat.wagers[W21]
    held = 2
    for action in actions:
        try:
            values = _state_values(t, cards[:held], after_split=after_split, may_split=may_split)
        except ValueError as exc:  # bust, or a split Ace's card: no decision to price
            unpriced.append((seat.seat, index, action, str(exc)))
            return
        if action not in values:
            unpriced.append((seat.seat, index, action, "not a legal action under the rules (the audit flags it)"))
            return
        out.append(_decision(seat, index, cards[:held], action, values, stake))
        if action in (STAND, DOUBLE):
            return
        held += 1


def _table(rules: Any, up: int) -> tuple[Rules, Any]:
    """The ruleset's :class:`Rules` and its table against upcard ``up`` (a rank index), both kept
    with the ruleset's compiled form: a :class:`Rules` made per seat was hashed, Fractions and
    all, and compared field by field at every table lookup (a fifth of a pricing pass), and the
    warm-up fills the very tables the pricing reads, whatever ``upcard_table``'s cache evicts."""
    if isinstance(rules, Rules):
        return rules, upcard_table(rules, up)
    r, tables = compiled(rules).cache("strategy_tables", lambda: (Rules.of(rules), [None] * 10))
    t = tables[up]
    if t is None:
        t = tables[up] = upcard_table(r, up)
    return r, t


def seat_prices(rules: Any, seat: Seat, upcard: int) -> RoundPrices:
    """Every decision of ``seat`` (parsed by the game) against the dealer's ``upcard`` (a card)."""
    up = rank_index(upcard)
    r, t = _table(rules, up)
    out: list[Decision] = []
    unpriced: list[tuple[int, int, str, str]] = []
    stake = seat.wagers.get(W21, Decimal(0))
    if stake <= 0:  # no 21 bet in play at this seat: no decision of the 21 bet to price
        return RoundPrices((), ())
    first = tuple(seat.first_two)
    removed, ranks = _removed(first)
    may_split = _may_split(first, r)
    hands = seat.hands
    if up == ACE_INDEX and r.insurance:
        insurance = seat.wagers.get(INSURANCE, Decimal(0))
        if insurance > 0:
            edge = float(insurance_edge_of(t.comp(removed)))
            values = {INSURANCE: -edge, DECLINE: 0.0}
            out.append(Decision(seat.seat, 0, first, INSURANCE, values, DECLINE, max(0.0, edge), insurance))
        natural = len(hands) == 1 and hands[0].natural
        if natural:
            values = table_values(t, removed, ranks)
            values.pop(INSURANCE, None)
            out.append(_decision(seat, 0, first, EVEN_MONEY if seat.even_money else STAND, values, stake))
    if len(hands) == 1:
        hand = hands[0]
        if not hand.natural:
            _hand(t, seat, 0, hand.cards, hand.actions, after_split=False, may_split=may_split,
                  out=out, unpriced=unpriced)
        return RoundPrices(tuple(out), tuple(unpriced))
    values = table_values(t, removed, ranks, may_split=may_split)
    values.pop(INSURANCE, None)
    if SPLIT in values:
        out.append(_decision(seat, 0, first, SPLIT, values, stake))
    else:
        unpriced.append((seat.seat, 0, SPLIT, "not a legal action under the rules (the audit flags it)"))
    for index, hand in enumerate(hands):
        resplits = hand.splits - (1 if index == 0 else 0)
        if resplits > 0:
            unpriced.append((seat.seat, index, SPLIT, "a resplit: the strategy plays a split hand without splitting again"))
        _hand(t, seat, index, hand.cards, hand.actions[hand.splits:], after_split=True, may_split=may_split,
              out=out, unpriced=unpriced)
    return RoundPrices(tuple(out), tuple(unpriced))


def fold_price(rules: Any, seat: Seat, upcard: int) -> Decision | None:
    """Ante Up 21's fold decision of ``seat`` (None without an ANTE): ``bet`` when the seat
    placed its BET, else ``fold``; values per unit of the ANTE."""
    ante = seat.wagers.get(ANTE, Decimal(0))
    if ante <= 0:
        return None
    got = fold_decision_evs(rules, seat.first_two, upcard)
    values = {FOLD: got[FOLD], BET: got[BET]}
    action = BET if seat.wagers.get(BET, Decimal(0)) > 0 else FOLD
    best = got["best"]
    return Decision(seat.seat, 0, tuple(seat.first_two), action, values, best,
                    max(0.0, values[best] - values[action]), ante)


def round_prices(round_: Round, rules: Any) -> RoundPrices:
    """Every decision of every seat of a parsed blackjack round (Ante Up 21, Upcard Luck 21,
    Blackjack Tie), priced; the seats in the round's order, Ante Up 21's fold decision first."""
    upcard = round_.dealer[0]
    decisions: list[Decision] = []
    unpriced: list[tuple[int, int, str, str]] = []
    handles: list[tuple[int, Decimal]] = []
    folds = round_.game == ANTE_UP_21
    for seat in round_.seats:
        fold = fold_price(rules, seat, upcard) if folds else None
        if fold is not None:
            decisions.append(fold)
        got = seat_prices(rules, seat, upcard)
        decisions.extend(got.decisions)
        unpriced.extend(got.unpriced)
        # the stakes the decisions serve: the 21 bet, and the ANTE where the fold was priced
        handle = (seat.wagers.get(W21, Decimal(0)) if got.decisions else Decimal(0)) + \
            (fold.stake if fold is not None else Decimal(0))
        handles.append((seat.seat, handle))
    return RoundPrices(tuple(decisions), tuple(unpriced), tuple(handles), tuple(round_.dealer))


def warm(rules: Any, game: str) -> int:
    """Fill a process's tables for ``rules`` before its first round: every two-card hand against
    every upcard (and Ante Up 21's fold decision), the states a floor's decisions mostly read.
    A worker's parent calls it before forking its pool, so that every child prices warm
    (a cold child took ~20 s of an Ante Up 21 day's first slice). How many states were priced."""
    priced = 0
    for up in range(1, 14):
        upcard = make_card(up, 2)
        r, t = _table(rules, rank_index(upcard))
        for a in range(1, 14):
            for b in range(a, 14):
                cards = (make_card(a, 0), make_card(b, 1))
                try:
                    _state_values(t, cards, after_split=False, may_split=_may_split(cards, r))
                    if game == ANTE_UP_21:
                        fold_decision_evs(rules, cards, upcard)
                except ValueError:  # a natural has no hit or stand to price; a one-deck shoe's limits
                    continue
                priced += 1
    return priced
