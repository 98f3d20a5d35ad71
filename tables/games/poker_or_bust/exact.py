"""Poker or Bust by exact enumeration: the value of every draw/stand decision and the
house edge of Ante and Odds under the optimal strategy, for any shoe.

The model is the game as dealt (rules/poker-or-bust.txt, RULINGS.md): one player heads-up
against the dealer, cards drawn without replacement from the shoe. The player sees their
own cards and the dealer's upcard; the hole card and the dealer's draws are unseen cards of
the same shoe, so (the unseen cards being exchangeable) the dealer's hand is drawn from the
shoe less the upcard and *all* the player's cards, after the player has finished. Nothing is
approximated: each stand is priced against the dealer's exact distribution for that
composition, each draw averages the best continuation over every card left, and the
player's objective is the round's total (Ante + Odds), the two wagers being equal and
mandatory.

Method: memoised recursion. A player state is the sorted tuple of the player's cards (the
shoe it leaves follows from it); the dealer's outcome for a composition comes from
:mod:`.dealer`: his final rank multisets listed once per upcard with their number of
orders, priced for each composition by falling factorials, and the suits of each rank
drawn from that rank's cards left (a pass over the ranks, memoised per solve by the cards
left of those ranks). Values are floats summed from exact rational probabilities: the error
is a few units of the last place (< 1e-12).

Cost: the number of distinct player hands grows steeply with the shoe, so the recursion's
whole-game figure (:func:`optimal_edge`) is for shoes of a few dozen cards (the tests' short
shoes); a whole shoe's game is solved a card count at a time by :func:`level_edge`
(:mod:`.player_levels`: 12.3 billion hands at six decks, about 1.1 CPU-hours, so
:func:`edge_wagers` leaves it to ``--long`` callers; the README's Poker or Bust section gives
the measurements). A single decision is
priced against the shoe the rules give when its subtree fits the budget (``check_size``
refuses before any dealer pass, naming the limit); where its stands are too many for a pass
each, from the dealer's tables for the upcard (:mod:`.dealer_moments`: 1 s to build with a
King up at six decks, 106 s with an Ace), each value then within the ``precision`` reported
beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from multiprocessing import get_context

from ..vocabulary.base import Errors
from ..vocabulary.cards import BJ_POINTS, CardError, parse_card
from ..vocabulary.catalogue import ANTE, ODDS
from . import draw_prices
from . import three_card_poker as tcp
from .dealer import DealerOutcome, TooLarge, dealer_outcome, finals
from .dealer_moments import DealerMoments, build_size
from .draw_prices import KEEP, DrawPrices, UpcardPrices
from .game import BUST_ABOVE, ODDS_MIN_PAIR, odds_lines
from .player_levels import FLOAT_ERROR, LevelSolver, stands

DRAW = "draw"
STAND = "stand"
ACTIONS = (DRAW, STAND)
#: Player hands the solver may visit before it gives up: at six decks, three cards at 15 against a
#: King (786,025 hands) are priced in 44 s and 0.84 GB, at 18 (137,206) in 10 s; at 12 or less
#: the hands are several million and the solve is refused (the walk that counts them stops here).
MAX_STATES = 1_000_000
#: Dealer hands and suit states all the dealer passes of one solve may visit
#: (:func:`.dealer.dealer_outcome`): about a minute of plain Python on the 2-core build machine.
MAX_WORK = 20_000_000
#: At this total or less a card cannot bust the player (the largest counts 10).
DRAW_ALWAYS_TO = BUST_ABOVE - 10
#: Suit draws the dealer's tables of one upcard (:mod:`.dealer_moments`, :func:`.build_size`) may
#: cover: an Ace up at six decks (272 million) builds in 106 s compiled, a 7 (13.2 million) in 6.3 s,
#: a ten-value (2.3 million) in 1.8 s, each faster than one exact dealer pass with that upcard.
MAX_TABLE_BUILD = 300_000_000
#: Dealer rank multisets the passes of a solve visit at least before the tables are weighed.
TABLES_FROM = 500_000
#: Hands (card multisets, :func:`level_hands`) a whole-game solve may store without ``long_solve``:
#: about the most a background task does in its time limit.
LEVEL_BUDGET = 40_000_000
#: CPU seconds a stored hand costs the whole-game solve: six decks, all 13 upcards, 4,112 s for
#: 12.3 billion (2026-11-30, the 2-core build machine on a fast day, reference loop 9.3 us; a
#: loaded day measured up to 2.5 times that, 723-781 s for a King's 0.95 billion).
SECONDS_A_HAND = 0.34e-6


def full_shoe(decks: int) -> tuple[int, ...]:
    """Counts of each of the 52 cards in a shoe of ``decks`` decks."""
    return (decks,) * 52


def odds_units(paytable: Mapping[str, Decimal]) -> tuple[float, ...]:
    """Odds net per unit by category (a pair's is for Jacks or better), from the engine's
    one definition of the best line (:func:`~.game.odds_lines`)."""
    return tuple(-1.0 if line is None else float(line[1]) for line in odds_lines(paytable))


def better_never_pays_less(units: Sequence[float]) -> bool:
    """True when the Odds pays no less for a better hand: high card and pairs below Jacks
    lose, then a pair of Jacks or better, flush, straight, ... royal flush, each paying at
    least what the one below pays (``units`` from :func:`odds_units`, indexed by category)."""
    ladder = (-1.0, *units[tcp.PAIR :])
    return all(a <= b for a, b in zip(ladder, ladder[1:], strict=False))


def odds_net(value: int, units: Sequence[float]) -> float:
    cat = value >> 12
    if cat == tcp.PAIR and ((value >> 8) & 15) < ODDS_MIN_PAIR:
        return -1.0
    return units[cat]


@dataclass
class Moments:
    """Expected Ante net, Odds net, and the second moments finance needs, per unit."""

    ante: float = 0.0
    odds: float = 0.0
    ante2: float = 0.0
    odds2: float = 0.0
    cross: float = 0.0
    #: at most this far from the exact expected Ante (0 when every stand was a dealer pass)
    error: float = 0.0

    @property
    def total(self) -> float:
        return self.ante + self.odds

    def add(self, other: Moments, w: float) -> None:
        self.ante += w * other.ante
        self.odds += w * other.odds
        self.ante2 += w * other.ante2
        self.odds2 += w * other.odds2
        self.cross += w * other.cross
        self.error += w * other.error


BUSTED = Moments(-1.0, -1.0, 1.0, 1.0, 1.0)


@dataclass
class Solver:
    """Optimal play for one shoe, dealer upcard and Odds table, memoised by player hand."""

    shoe: tuple[int, ...]  # the shoe before the upcard and the player's cards
    upcard: int
    units: tuple[float, ...]
    max_states: int | None = None  # MAX_STATES, read when the solver is made
    max_work: int = MAX_WORK
    _work: list[int] = field(default_factory=lambda: [0, 0])
    _values: dict[tuple[int, ...], tuple[str, Moments, Moments | None]] = field(default_factory=dict)
    _dealer: dict[tuple[int, ...], DealerOutcome] = field(default_factory=dict)
    _caps: tuple[int, ...] = ()
    _suits: dict[tuple, tuple[tuple[int, float], ...]] = field(default_factory=dict)
    #: the dealer's tables for this upcard, when check_size chose them over a pass per stand
    _tables: DealerMoments | None = None
    _use_tables: bool = False

    def __post_init__(self) -> None:
        if self.max_states is None:
            self.max_states = MAX_STATES
        self._work[1] = self.max_work
        self._draw_dominates = better_never_pays_less(self.units)
        left = list(self.shoe)
        left[self.upcard] -= 1
        # the most cards of each rank the dealer can draw: one listing of his rank multisets
        # serves every composition of this solve
        self._caps = tuple(sum(left[4 * r : 4 * r + 4]) for r in range(13))

    def check_size(self, starts: Sequence[tuple[int, ...]]) -> None:
        """Refuse (:class:`TooLarge`) before any dealer pass when the solve from ``starts``
        (sorted hands) is beyond the budget: a walk of the player's hands alone (no dealer)
        counts the hands and those whose stand is priced; each such stand is one dealer
        pass over at least the dealer's rank multisets of this upcard."""
        seen: set[tuple[int, ...]] = set()
        stack = list(starts)
        priced = 0
        pts = BJ_POINTS
        while stack:
            hand = stack.pop()
            if hand in seen:
                continue
            seen.add(hand)
            if len(seen) > self.max_states:
                raise TooLarge(
                    f"more than {self.max_states:,} player hands: the shoe is too large for exact "
                    "enumeration"
                )
            counts = self.left(hand)
            total = sum(pts[c] for c in hand)
            if not (self._draw_dominates and total <= DRAW_ALWAYS_TO and sum(counts) > 0):
                priced += 1
            for c in range(52):
                if counts[c] > 0 and total + pts[c] <= BUST_ABOVE:
                    stack.append(tuple(sorted((*hand, c))))
        need = priced * len(finals(self.upcard // 4, self._caps))
        tables = ""
        if need > TABLES_FROM:
            # Many passes: the dealer's tables for the upcard cost less (one enumeration of his
            # suit draws, quicker than a single pass, then microseconds a stand, each within the
            # bound it reports).
            build = build_size(self.shoe, self.upcard)
            if build <= MAX_TABLE_BUILD:
                self._use_tables = True
                return
            tables = f"; the dealer's tables for this upcard would enumerate {build:,} suit draws"
        if need > self.max_work:
            raise TooLarge(
                f"{priced:,} player hands to price a stand at, each a dealer pass over "
                f"{need // max(priced, 1):,} dealer rank multisets or more: more than {self.max_work:,} "
                f"dealer hands{tables}: the shoe is too large for exact enumeration"
            )

    def left(self, hand: tuple[int, ...]) -> list[int]:
        counts = list(self.shoe)
        for c in (self.upcard, *hand):
            counts[c] -= 1
            if counts[c] < 0:
                raise ValueError("more copies of a card than the shoe holds")
        return counts

    def stand(self, hand: tuple[int, ...]) -> Moments:
        if self._use_tables:
            if self._tables is None:
                self._tables = DealerMoments(self.shoe, self.upcard)
            value = tcp.best_value(hand)
            mean, nonzero, error = self._tables.ante(hand, value)
            o = odds_net(value, self.units)
            return Moments(mean, o, nonzero, o * o, o * mean, error)
        dealer = self._dealer.get(hand)
        if dealer is None:
            dealer = self._dealer[hand] = dealer_outcome(
                self.left(hand), self.upcard, self._caps, self._work, self._suits
            )
        value = tcp.best_value(hand)
        mean, nonzero = dealer.ante(value)
        o = odds_net(value, self.units)
        return Moments(mean, o, nonzero, o * o, o * mean)

    def draw(self, hand: tuple[int, ...]) -> Moments:
        counts = self.left(hand)
        size = sum(counts)
        total = sum(BJ_POINTS[c] for c in hand)
        out = Moments()
        for c in range(52):
            n = counts[c]
            if n <= 0:
                continue
            w = n / size
            if total + BJ_POINTS[c] > BUST_ABOVE:
                out.add(BUSTED, w)
            else:
                out.add(self.best(tuple(sorted(hand + (c,))))[1], w)
        return out

    def best(self, hand: tuple[int, ...]) -> tuple[str, Moments, Moments | None]:
        """(best action, its moments, the other action's moments or None when it was not
        priced) for a sorted hand of at least three cards at 31 or less.

        Ties go to standing, except at 21 or less under an Odds table that pays no less for
        a better hand: there drawing is never worse (the drawn card could be taken from the
        bottom of the shoe, leaving the dealer's hand as it was, it cannot bust the player,
        and the best three cards only improve), so the player draws and standing is not
        priced at all, which spares the dealer's pass for the hand. The other action is
        also None when the shoe is empty (standing is then the only action)."""
        got = self._values.get(hand)
        if got is not None:
            return got
        if len(self._values) >= self.max_states:
            raise TooLarge(
                f"more than {self.max_states:,} player hands: the shoe is too large for exact "
                "enumeration"
            )
        can_draw = sum(self.left(hand)) > 0
        if can_draw and self._draw_dominates and sum(BJ_POINTS[c] for c in hand) <= DRAW_ALWAYS_TO:
            got = (DRAW, self.draw(hand), None)
        else:
            s = self.stand(hand)
            d = self.draw(hand) if can_draw else None
            got = (STAND, s, d) if d is None or stands(s.total, d.total) else (DRAW, d, s)
            if d is not None and s.error + d.error:
                # the better of two values each within its bound is within the larger bound
                got[1].error = max(s.error, d.error)
        self._values[hand] = got
        return got

    def both(self, hand: tuple[int, ...]) -> dict[str, Moments]:
        """The moments of every legal action at ``hand`` (optimal play after a draw)."""
        action, chosen, other = self.best(hand)
        out = {action: chosen}
        if other is None and action == DRAW:
            other = self.stand(hand)
        if other is not None:
            out[STAND if action == DRAW else DRAW] = other
        return out


def solver(shoe: Sequence[int], upcard: int, paytable: Mapping[str, Decimal], **kw) -> Solver:
    return Solver(tuple(shoe), upcard, odds_units(paytable), **kw)


def decision_evs(
    shoe: Sequence[int], paytable: Mapping[str, Decimal], player_cards: Sequence[int], upcard: int,
    **kw,
) -> dict:
    """The expected round net (Ante + Odds) per unit of Ante of each legal action for a
    player holding ``player_cards`` (three or more, at 31 or less) against ``upcard``, with
    optimal play after a draw: ``{"actions": {"draw": ev, "stand": ev}, "best": action,
    "precision": p}``, each value within p of the exact one (the float sums' 1e-12 when every
    stand was a dealer pass; the dealer's tables' bound where they priced the stands)."""
    cards = tuple(sorted(player_cards))
    if len(cards) < 3:
        raise ValueError("the player decides with three or more cards")
    if sum(BJ_POINTS[c] for c in cards) > BUST_ABOVE:
        raise ValueError("the hand is bust: no decision is left")
    s = solver(shoe, upcard, paytable, **kw)
    s.left(cards)  # more copies of a card than the shoe holds: ValueError first
    s.check_size([cards])
    action = s.best(cards)[0]
    both = s.both(cards)
    actions = {a: m.total for a, m in both.items()}
    precision = max(FLOAT_ERROR, *(m.error for m in both.values()))
    return {"actions": dict(sorted(actions.items())), "best": action, "precision": precision}


def _multisets(counts: list[int], k: int, start: int = 0):
    """Every multiset of ``k`` cards from ``counts``, with its number of ways (product of
    binomials), as (sorted tuple, ways)."""
    if k == 0:
        yield (), 1
        return
    for c in range(start, 52):
        n = counts[c]
        if n <= 0:
            continue
        ways = 1
        for m in range(1, min(n, k) + 1):
            ways = ways * (n - m + 1) // m
            counts[c] -= m
            for rest, w in _multisets(counts, k - m, c + 1):
                yield (c,) * m + rest, ways * w
            counts[c] += m


def optimal_edge(shoe: Sequence[int], paytable: Mapping[str, Decimal], **kw) -> dict:
    """House edge and variance of Ante and Odds under the optimal draw/stand strategy,
    averaged over every upcard and every three-card start (exact weights).

    ``states`` lists each start's weight and decision values, for the tests' identity
    (the edge is the weighted mean of the best decision values)."""
    shoe = tuple(shoe)
    size = sum(shoe)
    total = Moments()
    starts: list[tuple[int, tuple[int, ...], float, str, float]] = []
    draws = 0.0
    for u in range(52):
        if shoe[u] <= 0:
            continue
        pu = shoe[u] / size
        s = solver(shoe, u, paytable, **kw)
        left = list(shoe)
        left[u] -= 1
        rest = size - 1
        denom = rest * (rest - 1) * (rest - 2) // 6
        hands = list(_multisets(left, 3))
        s.check_size([h for h, _ways in hands])
        for hand, ways in hands:
            w = pu * ways / denom
            action, m, _other = s.best(hand)
            total.add(m, w)
            starts.append((u, hand, w, action, m.total))
            if action == DRAW:
                draws += w
    return _figures(total, draws) | {"starts": starts}


def upcard_classes(shoe: Sequence[int]) -> list[tuple[int, float]]:
    """(upcard, its chance) for the upcards to solve: one card per rank with the chance of the
    rank where every suit has as many cards of it (a whole shoe: relabelling the suits maps one
    upcard's game onto another's), every card of the shoe otherwise."""
    size = sum(shoe)
    out = []
    for r in range(13):
        counts = shoe[4 * r: 4 * r + 4]
        if _suits_alike(shoe, r):
            if counts[0]:
                out.append((4 * r, 4 * counts[0] / size))
        else:
            out.extend((4 * r + s, n / size) for s, n in enumerate(counts) if n)
    return out


def level_edge(shoe: Sequence[int], paytable: Mapping[str, Decimal], *, order: int | None = None,
               read_order=None, upcards: Sequence[tuple[int, float]] | None = None, relabel: bool = True,
               jobs: int = 1, progress=None, keep: int = 0) -> dict:
    """:func:`optimal_edge`'s figures (without ``starts``) solved a card count at a time
    (:mod:`.player_levels`), each stand read from the dealer's tables of its upcard
    (``order`` shared cards kept, :data:`.dealer_moments.ORDER` by default; ``read_order(n)``
    for an n-card stand): ``error`` bounds the distance of the expected Ante from the exact.
    ``upcards`` (default :func:`upcard_classes`) are solved by ``jobs`` processes (forked: not
    from a daemonic process such as a Celery worker's), the lowest first (their dealer's
    tables take longest); one process tells ``progress(upcard, n, hands, error)`` each card count
    done (:meth:`.LevelSolver.solve`). With ``keep``, ``"kept"`` holds the draw prices of the
    hands of up to ``keep`` cards (:class:`.draw_prices.DrawPrices`)."""
    units = odds_units(paytable)
    monotone = better_never_pays_less(units)
    todo = list(upcard_classes(shoe) if upcards is None else upcards)
    work = [(tuple(shoe), u, units, monotone, order, read_order, relabel, keep) for u, _pu in todo]
    if jobs > 1 and len(work) > 1:
        with ProcessPoolExecutor(min(jobs, len(work)), mp_context=get_context("fork")) as pool:
            solved = list(pool.map(_solve_upcard, work))
    else:
        solved = [_solve_upcard(w, progress) for w in work]
    total = [0.0] * 6
    draws = 0.0
    hands = 0
    for (_u, pu), got in zip(todo, solved, strict=True):
        for m in range(6):
            total[m] += pu * got["moments"][m]
        draws += pu * got["draw_on_three"]
        hands += got["hands"]
    out = _figures(Moments(*total), draws) | {"hands": hands}
    if keep:
        out["kept"] = DrawPrices({u: UpcardPrices(u, **got["kept"]) for (u, _pu), got in zip(todo, solved, strict=True)},
                                 whole_shoe=_whole(shoe))
    return out


def _suits_alike(shoe: Sequence[int], r: int) -> bool:
    """Whether rank ``r`` has as many cards of each suit."""
    return len(set(shoe[4 * r: 4 * r + 4])) == 1


def _whole(shoe: Sequence[int]) -> bool:
    """Whether every rank's suits are alike (a whole shoe: one upcard a rank, any suit relabelled)."""
    return all(_suits_alike(shoe, r) for r in range(13))


def _solve_upcard(work: tuple, progress=None) -> dict:
    shoe, u, units, monotone, order, read_order, relabel, keep = work
    s = LevelSolver(shoe, u, _OddsNet(units), monotone=monotone, order=order, read_order=read_order, relabel=relabel,
                    keep=keep)
    return s.solve(None if progress is None else lambda n, hands, error: progress(u, n, hands, error))


class _OddsNet:
    """The Odds net of a poker value under one table (:func:`odds_net`), as a callable."""

    def __init__(self, units: Sequence[float]) -> None:
        self.units = tuple(units)

    def __call__(self, value: int) -> float:
        return odds_net(value, self.units)


def _figures(total: Moments, draws: float) -> dict:
    var_a = total.ante2 - total.ante ** 2
    var_o = total.odds2 - total.odds ** 2
    return {
        "ante": {"house_edge": -total.ante, "variance": var_a},
        "odds": {"house_edge": -total.odds, "variance": var_o},
        "combined": {
            "house_edge": -(total.ante + total.odds) / 2,
            "variance": (total.ante2 + total.odds2 + 2 * total.cross) / 4
            - ((total.ante + total.odds) / 2) ** 2,
        },
        "draw_on_three": draws,
        # at most this far from the exact expected Ante: 0 unless the dealer's tables priced stands
        "error": total.error,
    }


def parse_hand(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t.strip()) for t in text.split(",") if t.strip())


# --- the gamemath command's entries (rules -> JSON) ----------------------------------------

METHOD = "exact"
STRATEGY = (
    "optimal draw/stand: at every hand of three or more cards the player takes the action "
    "with the larger expected Ante + Odds, given the player's cards and the dealer's upcard "
    "(the shoe less those cards), ties to standing; at 21 or less, under an Odds table that "
    "pays no less for a better hand, the player draws (never worse there)"
)


def _cards(text: str, path: str, errors: Errors) -> list[int]:
    out = []
    for i, item in enumerate(str(text).split(",")):
        try:
            out.append(parse_card(item.strip()))
        except CardError as exc:
            errors.add(f"{path}[{i}]", str(exc))
    return out


def decision_json(rules, hand: str, upcard: str, *, after_split: bool = False) -> dict:
    """``{"actions": {"draw": ev, "stand": ev}, "best": action}`` per unit of the Ante for the
    ``gamemath decision`` command: read from the stored whole-game solve of the rules where it
    keeps the hand (:mod:`.draw_prices`: any hand of up to five cards, at any total), else priced
    on the ruleset's shoe (:func:`decision_evs`: a hand at a low total is refused as too large).
    ``"source"`` says which."""
    errors = Errors()
    if after_split:
        errors.add("after_split", "Poker or Bust has no splits")
    cards = _cards(hand, "hand", errors)
    up = _cards(upcard, "upcard", errors)
    if len(up) != 1:
        errors.add("upcard", "one card")
    errors.raise_if_any()
    book = draw_prices.stored(rules)
    kept = book.values(cards, up[0]) if book is not None and sum(BJ_POINTS[c] for c in cards) <= BUST_ABOVE \
        and len(cards) >= 3 else None
    if kept is not None:
        values, bound = kept
        return {"actions": {a: round(v, 12) for a, v in sorted(values.items())}, "best": draw_prices.best_of(values),
                "precision": max(bound, FLOAT_ERROR), "source": "the stored whole-game solve"}
    got = decision_evs(full_shoe(rules.decks), rules.odds_paytable, cards, up[0])
    return {"actions": {a: round(v, 12) for a, v in got["actions"].items()}, "best": got["best"],
            "precision": got["precision"], "source": "priced on its own"}


@lru_cache(maxsize=16)
def level_hands(shoe: tuple[int, ...]) -> int:
    """The card multisets :func:`level_edge` stores for ``shoe`` over its upcards (before
    relabelling), counted in seconds: 198 million at one deck, 12.3 billion at six."""
    size = 0
    for u, _pu in upcard_classes(shoe):
        size += LevelSolver(tuple(shoe), u, _OddsNet(()), monotone=True, tables=_NO_TABLES).hands_to_solve()
    return size


class _NoTables:
    """Stands in for the dealer's tables where only the player's hands are counted."""

    order = 0


_NO_TABLES = _NoTables()


def edge_wagers(rules, *, long_solve: bool = False, jobs: int = 1, progress=None,
                draw_prices: list | None = None) -> dict[str, dict]:
    """The ``gamemath edge`` entries of Ante and Odds under the optimal strategy, on the
    ruleset's shoe (:func:`level_edge`). The game has no side bet.

    Every shoe of whole decks is beyond :data:`LEVEL_BUDGET` (one deck holds 198 million hands to
    solve, six decks 12.3 billion: hours of CPU): :class:`TooLarge` names the count and the time
    unless ``long_solve`` (the ``--long`` of ``gamemath edge`` and ``price_rulesets``), which
    solves it with ``jobs`` processes. The same solve keeps the draw prices of a round's
    pricing (:mod:`.draw_prices`) when ``draw_prices`` is a list: they are appended to it."""
    shoe = full_shoe(rules.decks)
    hands = level_hands(tuple(shoe))
    if not long_solve and hands > LEVEL_BUDGET:
        raise TooLarge(
            f"{hands:,} player hands to solve (the card multisets at 22 to 31 over the upcards), about "
            f"{hands * SECONDS_A_HAND / 3600:.1f} CPU-hours: longer than a background task may run; "
            "`manage.py price_rulesets --long` or `gamemath edge --long` solves it"
        )
    got = level_edge(shoe, rules.odds_paytable, jobs=jobs, progress=progress,
                     keep=KEEP if draw_prices is not None else 0)
    if draw_prices is not None:
        draw_prices.append(got["kept"])
    common = {
        "decks": rules.decks,
        "odds_paytable": {k: str(v) for k, v in rules.odds_paytable.items()},
        "draw_on_three": got["draw_on_three"],
        "hands_priced": got["hands"],
        "precision": (
            "float sums of exact probabilities, error < 1e-12" if got["error"] <= FLOAT_ERROR else
            f"within {got['error']:.2g} of the exact figure (the dealer's tables' bound, over every hand stood)"
        ),
    }
    out = {}
    for wager, key in ((ANTE, "ante"), (ODDS, "odds")):
        fig = got[key]
        out[wager] = {
            "house_edge": fig["house_edge"],
            "variance": fig["variance"],
            "method": METHOD,
            "strategy": STRATEGY,
            "exact": {**common, "house_edge": repr(fig["house_edge"]), "variance": repr(fig["variance"])},
        }
    return out
