"""The two play signals of a player's day, from the prices of the player's recorded decisions
(audit/decisions' SeatDecisions: for each decision the action taken and the upcard-best): pure
Python over the engine (tables.games.blackjack.hole_card and strategy_math), no Django.

**Hole-card play.** A *deviation* is a decision whose action is not the upcard-best (the
optimal composition-dependent play from the player's cards and the upcard; it costs more than
1e-9 a unit). For each deviation, I = 1 when the action taken beats the upcard-best given the
dealer's actual hole card (both valued knowing the dealer's two cards, played on optimally
knowing them: hole_card.deviation_test), and p = the chance of I = 1 with the hole card unknown:
the sum over the hole cards the decision can have, from the full shoe less the upcard and the
player's cards (given no natural where the dealer peeked, for a play decision), of those where
the action taken wins. Over the player's day: O = sum I, E = sum p, z = (O - E) / sqrt(sum p(1 - p))
and the exact one-sided chance of O or more under the null (stats.poisson_binomial_tail).
**Flag** when that chance is at most ``alpha`` (ADVANTAGE_PLAY_FLAG_P, 0.0001) over at least
``min_deviations`` (ADVANTAGE_PLAY_FLAG_MIN_DEVIATIONS, 10) deviations.

**Count-correlated play.** Every assessed decision is an item (x = the Hi-Lo true count before
the round, y = its direction): y = 0 for the upcard-best, and for a deviation y = +1 when the
action taken gains on the upcard-best as the shoe gets richer in high cards and -1 when it loses
(:func:`count_direction`, computed on the ruleset's exact tables, not a list of index plays).
Items are grouped by *situation*: the upcard, the hand's cards (as ranks) and whether it is a
split hand, for a play; the upcard and the first two cards, for insurance. The statistic is the
within-situation association of x and y (stats.stratified_correlation): t = sum of (x - the
situation's mean count) y, z = t / sqrt(its permutation variance), r the pooled within-situation
correlation. Any strategy that depends only on the player's cards and the upcard (basic,
total-dependent, composition-dependent, even a random one) has E[t] = 0 whatever the cards'
link to the count; a deterministic one has t = 0 exactly (each situation played alike). A
counter's index plays (stand 16 v T at a count of 0 or more, insurance at +3, ...) put y = +1
at high counts and -1 (or 0) at low ones inside one situation. **Flag** when z is at least
stats.one_sided_z(alpha) (3.72 at 0.0001) over at least ``min_deviations`` deviations with a
direction.

Insurance declines are not recorded (a seat's decisions list insurance only when taken): a
seat with an Ace up, insurance offered and none taken declined it, and that decline is an item
(y = 0). Both are left out of the count signal in a round where the dealer had a natural, whose
declines no row records.

**Ante Up 21's fold decision** (fold, or place the BET, seeing the first two cards and the
upcard) is assessed by the hole-card signal: a fold or a bet that is not the upcard-best is a
deviation, tested against the hole card by the engine's
``ante_up_math.fold_hole_test`` (the dealer's poker hand holds his hole card, so knowing it
changes the fold decision more than any play of the 21 bet: 7-2 against a Queen is folded
only when the hole card is a Queen). It is made before the peek, so every hole card counts.
It is not an item of the count signal: the ANTE's value has no count-tilted table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from audit.advantage.stats import one_sided_z, poisson_binomial_tail, stratified_correlation
from tables.games.blackjack.ante_up_math import fold_hole_test
from tables.games.blackjack.dealer_odds import ACE_INDEX, TEN_INDEX, rank_index
from tables.games.blackjack.decisions import FOLD
from tables.games.blackjack.hole_card import DECLINE, deviation_test
from tables.games.blackjack.strategy_math import (
    SPLIT,
    Rules,
    rank_counts,
    table_values,
    upcard_table,
)
from tables.games.vocabulary.catalogue import BET, INSURANCE

#: A decision costing less than this a unit is played as the upcard-best (a tie, not a deviation).
DEVIATION_COST = 1e-9

FLAG, CLEAR, TOO_FEW, NONE = "flag", "clear", "too_few", "none"
HOLE_WORDS = {
    FLAG: "Flag: deviations win against the hole card",
    CLEAR: "No flag",
    TOO_FEW: "Too few deviations",
    NONE: "No deviations",
}
DIRECTION_WORDS = {1: "gains as the count rises", -1: "loses as the count rises", 0: "—"}
COUNT_WORDS = {
    FLAG: "Flag: the play follows the count",
    CLEAR: "No flag",
    TOO_FEW: "Too few deviations",
    NONE: "No deviations",
}


@dataclass(slots=True)
class SeatPlay:
    """One seat of one round as the signals read it (a SeatDecisions row)."""

    round_id: int
    player: str
    rules: Rules
    upcard: int  # card int
    hole: int | None  # card int
    decisions: list[dict]  # {hand, cards, action, best, values, ...} in play order
    config: Any = None  # the engine's ruleset (Ante Up 21's fold decision reads its poker rules)


@dataclass(slots=True)
class Deviation:
    """A deviation from the upcard-best, as the page lists it."""

    round_id: int
    hand: int
    cards: tuple[int, ...]
    upcard: int
    hole: int | None
    action: str
    best: str
    true_count: float
    cost: float  # per unit of its stake, against the upcard-best
    chance: float | None  # p: the chance it beats the best with the hole card unknown
    beats: bool | None  # I: it beats the best given the actual hole card (None: not assessed)
    direction: int  # +1 gains with the count, -1 loses, 0 neither


@dataclass(frozen=True, slots=True)
class HoleFigures:
    rounds: int = 0  # rounds with a deviation assessed
    deviations: int = 0
    observed: int = 0  # O
    expected: float = 0.0  # E
    z: float | None = None
    p_value: float | None = None  # P(O or more | the hole card unknown)
    signal: str = NONE

    @property
    def words(self) -> str:
        return HOLE_WORDS[self.signal]


@dataclass(frozen=True, slots=True)
class CountFigures:
    decisions: int = 0  # items: decisions assessed, insurance declines included
    deviations: int = 0  # deviations with a direction
    informative: int = 0  # items in situations where both the count and the play varied
    r: float | None = None
    z: float | None = None
    signal: str = NONE

    @property
    def words(self) -> str:
        return COUNT_WORDS[self.signal]


@dataclass
class PlayFigures:
    hole: HoleFigures = field(default_factory=HoleFigures)
    count: CountFigures = field(default_factory=CountFigures)
    deviations: list[Deviation] = field(default_factory=list)


def _ranks(cards) -> tuple[int, ...]:
    return tuple(sorted(rank_index(c) for c in cards))


#: Cards taken out of the shoe to tilt it for count_direction, per rank index: 2-6 (count up) and
#: ten-values and Aces (count down), k of each low rank, 4k tens and k Aces (Hi-Lo +-5k).
_LOW_RANKS = (1, 2, 3, 4, 5)


@lru_cache(maxsize=20_000)
def count_direction(rules: Rules, up: int, ranks: tuple[int, ...], taken: str, best: str, *,
                    after_split: bool = False) -> int:
    """+1 when ``taken`` gains on ``best`` as the count rises, -1 when it loses, 0 neither: the
    sign of d(high) - d(low), d = value(taken) - value(best) from the upcard-only exact tables
    (strategy_math.table_values) with the hand's shoe less 2-6 (k each: a Hi-Lo count of +5k) and
    less ten-values and Aces (4k and k: -5k); k = 2, 1 at two decks or fewer. Insurance is valued
    against declining (0)."""
    k = 2 if rules.decks > 2 else 1
    t = upcard_table(rules, up)
    base = rank_counts(ranks)
    high_shoe, low_shoe = list(base), list(base)
    for r in _LOW_RANKS:
        high_shoe[r] += k  # low cards out: the count is up
    low_shoe[TEN_INDEX] += 4 * k
    low_shoe[ACE_INDEX] += k
    may_split = SPLIT in (taken, best)
    diffs = []
    for removed in (high_shoe, low_shoe):
        try:
            values = table_values(t, tuple(removed), list(ranks), after_split=after_split, may_split=may_split)
        except ValueError:
            return 0
        values[DECLINE] = 0.0
        if taken not in values or best not in values:
            return 0
        diffs.append(values[taken] - values[best])
    delta = diffs[0] - diffs[1]
    return 1 if delta > 1e-12 else -1 if delta < -1e-12 else 0


def seat_items(seat: SeatPlay, true_count: float, out: PlayFigures, hole_items: list[float],
               count_items: dict[tuple, list[tuple[float, float]]], *, assess_hole: bool = True) -> bool:
    """Add ``seat``'s decisions to a player's items: ``hole_items`` the p of each deviation
    assessed (its I in ``out.deviations``), ``count_items`` (count, direction) by situation.
    True when a deviation of the seat was assessed against the hole card. Only the first
    deviation of a round is assessed (``assess_hole`` False once the player's round has one):
    the deviations of one round share its hole card, so their indicators are not independent
    and counting each would make the tail too thin."""
    rules = seat.rules
    up = rank_index(seat.upcard)
    dealer_natural = seat.hole is not None and {up, rank_index(seat.hole)} == {ACE_INDEX, TEN_INDEX}
    after_split = False
    insured = False
    first_two: tuple[int, ...] | None = None
    assessed = False
    for d in seat.decisions:
        action, best = d["action"], d["best"]
        cards = tuple(d["cards"])
        if action in (FOLD, BET):
            assessed = _fold_items(seat, d, true_count, out, hole_items, assess=assess_hole and not assessed) or assessed
            continue
        ranks = _ranks(cards)
        if first_two is None and len(cards) == 2:
            first_two = ranks
        values = d["values"]
        deviates = action != best and values[best] - values[action] > DEVIATION_COST
        direction = count_direction(rules, up, ranks, action, best, after_split=after_split) if deviates else 0
        if action == INSURANCE:
            insured = True
            if not dealer_natural:
                count_items.setdefault(("insurance", up, ranks, False), []).append((true_count, float(direction)))
        else:
            count_items.setdefault(("play", up, ranks, after_split), []).append((true_count, float(direction)))
        if deviates:
            chance = beats = None
            if seat.hole is not None and assess_hole and not assessed:
                chance, beats = _hole_assessed(
                    partial(deviation_test, rules, up, ranks, action, best, after_split=after_split), seat.hole,
                    hole_items)
                assessed = chance is not None
            out.deviations.append(_deviation(seat, d, true_count, chance, beats, direction))
        if action == SPLIT:
            after_split = True
    # An Ace up with insurance offered and not taken: a decline (y = 0), unless the dealer's
    # natural ended the round (no row records the declines of those).
    natural_hand = first_two == (ACE_INDEX, TEN_INDEX)  # its insurance is even money, recorded either way
    if (up == ACE_INDEX and rules.insurance and not insured and not natural_hand and not dealer_natural
            and first_two is not None):
        count_items.setdefault(("insurance", up, first_two, False), []).append((true_count, 0.0))
    return assessed


def _fold_items(seat: SeatPlay, d: dict, true_count: float, out: PlayFigures, hole_items: list[float], *, assess: bool) -> bool:
    """Ante Up 21's fold decision ``d`` of ``seat``: a deviation when it is not the upcard-best,
    assessed against the hole card when ``assess`` (module docstring). True when assessed."""
    action, best, values = d["action"], d["best"], d["values"]
    if action == best or values[best] - values[action] <= DEVIATION_COST:
        return False
    chance = beats = None
    if assess and seat.hole is not None and seat.config is not None:
        chance, beats = _hole_assessed(partial(fold_hole_test, seat.config, d["cards"], seat.upcard, action, best),
                                       seat.hole, hole_items)
    out.deviations.append(_deviation(seat, d, true_count, chance, beats, 0))
    return chance is not None


def _hole_assessed(test_of, hole: int, hole_items: list[float]) -> tuple[float | None, bool | None]:
    """A deviation's (p, I) against the actual ``hole`` card from its test (``test_of()``), p added
    to ``hole_items``; (None, None) when the hole card cannot be the decision's."""
    try:
        test = test_of()
        beats = test.beats_hole(hole)
    except ValueError:
        return None, None
    if beats is None:
        return None, None
    hole_items.append(test.p)
    return test.p, beats


def _deviation(seat: SeatPlay, d: dict, true_count: float, chance: float | None, beats: bool | None,
               direction: int) -> Deviation:
    return Deviation(round_id=seat.round_id, hand=d.get("hand", 0), cards=tuple(d["cards"]), upcard=seat.upcard,
                     hole=seat.hole, action=d["action"], best=d["best"], true_count=true_count,
                     cost=d["values"][d["best"]] - d["values"][d["action"]], chance=chance, beats=beats,
                     direction=direction)


def play_figures(seats: Iterable[tuple[SeatPlay, float]], *, alpha: float, min_deviations: int) -> PlayFigures:
    """One player's two play signals over ``seats`` (each with the true count before its round)."""
    out = PlayFigures()
    hole_items: list[float] = []
    count_items: dict[tuple, list[tuple[float, float]]] = {}
    rounds: set[int] = set()
    for seat, true_count in seats:
        if seat_items(seat, true_count, out, hole_items, count_items, assess_hole=seat.round_id not in rounds):
            rounds.add(seat.round_id)
    out.hole = hole_judge(hole_items, [d.beats for d in out.deviations if d.chance is not None], len(rounds),
                          alpha=alpha, min_deviations=min_deviations)
    directed = sum(1 for items in count_items.values() for _, y in items if y)
    decisions = sum(len(items) for items in count_items.values())
    out.count = count_judge(list(count_items.values()), decisions, directed, alpha=alpha,
                            min_deviations=min_deviations)
    return out


def hole_judge(chances: list[float], beats: list[bool], rounds: int, *, alpha: float,
               min_deviations: int) -> HoleFigures:
    n = len(chances)
    if not n:
        return HoleFigures()
    observed = sum(1 for b in beats if b)
    expected = sum(chances)
    var = sum(p * (1 - p) for p in chances)
    z = (observed - expected) / var ** 0.5 if var > 0 else None
    p_value = poisson_binomial_tail(chances, observed)
    signal = TOO_FEW if n < min_deviations else FLAG if p_value <= alpha else CLEAR
    return HoleFigures(rounds, n, observed, expected, z, p_value, signal)


def count_judge(strata: list[list[tuple[float, float]]], decisions: int, directed: int, *, alpha: float,
                min_deviations: int) -> CountFigures:
    if not directed:
        return CountFigures(decisions=decisions)
    got = stratified_correlation(strata)
    if directed < min_deviations:
        signal = TOO_FEW
    else:
        signal = FLAG if got.z is not None and got.z >= one_sided_z(alpha) else CLEAR
    return CountFigures(decisions, directed, got.items, got.r, got.z, signal)
