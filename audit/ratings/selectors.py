"""Player ratings: per rating session, per gaming day, per player. The money is the daily
report's (audit/reports): the same odds book, the same "actual" (the dealer's recorded pay where
recorded, else the engine's), the same Taxpayer's Fortune wager type and the same Hold'em rake.
The rules are in README.md beside this.

Read from the rating sessions the writer keeps as rounds are recorded, corrected and voided
(writer.py holds the session rule and each round's figures, once): a busy day is a few thousand
session rows, not ~100,000 wagers. Reads are bounded: one gaming day, or a range of at most
:data:`MAX_DAYS` days, in a fixed number of queries: the sessions, and the tables, ruleset
versions, odds and players they name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

import orjson
from django.core.exceptions import ValidationError
from django.db.models import TextField
from django.db.models.functions import Cast

from audit.decisions.figures import (
    decision_cost,
    decision_theo,
    play_quality,
    play_quality_text,
)
from audit.decisions.selectors import DecisionFigures, player_days, player_sessions
from audit.reports.theoretical import POT_KEY, OddsBook, wager_type
from tables.models import RulesetVersion, Table
from tables.players.selectors import players_by_identifier

from .models import RatingDay, RatingSession
from .writer import (
    MICRO,
    Fold,
    covered_seconds,
    figures_of,
    gap_threshold,
    joined,
    raw_rows,
    sessions_of_rows,
)

CENT = Decimal("0.01")
ZERO = Decimal(0)
#: The longest range one request may rate (a month of gaming days).
MAX_DAYS = 31


def cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass
class WagerTotal:
    """One wager type's play: ``count`` wagers placed, their ``stake``, the house's theo and actual."""

    game: str
    wager: str
    count: int = 0
    stake: Decimal = ZERO
    theo: Decimal = ZERO
    actual: Decimal = ZERO

    @property
    def average(self) -> Decimal:
        return cents(self.stake / self.count) if self.count else ZERO

    def add(self, other: WagerTotal) -> None:
        self.count += other.count
        self.stake += other.stake
        self.theo += other.theo
        self.actual += other.actual


@dataclass
class _Figures:
    rounds: int = 0
    seconds: int = 0
    wagers: dict = field(default_factory=dict)  # (game, wager type) -> WagerTotal

    def add_wagers(self, wagers: dict) -> None:
        for key, total in wagers.items():
            self.wagers.setdefault(key, WagerTotal(*key)).add(total)

    @property
    def stake(self) -> Decimal:
        return sum((w.stake for w in self.wagers.values()), ZERO)

    @property
    def theo(self) -> Decimal:
        return _theo_total(w.theo for w in self.wagers.values())

    @property
    def actual(self) -> Decimal:
        return cents(sum((w.actual for w in self.wagers.values()), ZERO))

    @property
    def average_bet(self) -> Decimal:
        """What the player put on the layout per round played (every wager type together)."""
        return cents(self.stake / self.rounds) if self.rounds else ZERO

    @property
    def minutes(self) -> int:
        return self.seconds // 60

    def wager_list(self) -> list[WagerTotal]:
        return [self.wagers[k] for k in sorted(self.wagers)]


class _Decided:
    """A rating's priced decisions (audit/decisions), linked with the player: none priced (Hold'em
    Blackjack, Poker or Bust, or no decision recorded) is an empty DecisionFigures. The
    definitions are audit/decisions/figures.py's, the daily report's."""

    decisions: DecisionFigures

    @property
    def decision_cost(self) -> Decimal:
        """The decisions' cost to the cent: what the player's own play gave the house beyond the edge."""
        return decision_cost(self.decisions.cost)

    @property
    def decision_theo(self) -> Decimal:
        """Theo + the decisions' cost."""
        return decision_theo(self.theo, self.decisions.cost)

    @property
    def priced_handle(self) -> Decimal:
        return self.decisions.handle

    @property
    def play_quality(self) -> Decimal | None:
        """The decisions' cost in percent of the priced handle (2 decimals); None without one."""
        return play_quality(self.decisions.cost, self.decisions.handle)

    @property
    def play_quality_text(self) -> str:
        """``0.84% of the priced handle``, or ``—`` without a priced handle."""
        return play_quality_text(self.play_quality)


@dataclass
class Session(_Decided, _Figures):
    """A player's play at one table in one gaming day, until a gap above the threshold."""

    table_id: int = 0
    table_label: str = ""
    game: str = ""
    gaming_day: date | None = None
    start: datetime | None = None
    end: datetime | None = None
    decisions: DecisionFigures = field(default_factory=DecisionFigures)


@dataclass
class DayRating(_Decided, _Figures):
    """A player's gaming day: the sessions, their sums, and time on game without overlaps."""

    casino_id: int = 0
    identifier: str = ""
    gaming_day: date | None = None
    player: object = None  # the registered Player, or None: "not registered"
    sessions: list = field(default_factory=list)  # empty when read without them (``sessions=False``)
    session_count: int = 0
    decisions: DecisionFigures = field(default_factory=DecisionFigures)


def check_range(first: date, last: date) -> None:
    if last < first:
        raise ValidationError({"to": ["Must not be before from."]})
    if (last - first).days + 1 > MAX_DAYS:
        raise ValidationError({"to": [f"A range of at most {MAX_DAYS} gaming days."]})


def day_totals(days: dict) -> list[DayRating]:
    """Each (player, day)'s rating from its sessions: rounds, wagers and time on game summed
    (two tables at once counted once), the registered player linked; highest theo first."""
    out = []
    for rating in days.values():
        rating.sessions.sort(key=lambda s: (s.start, s.table_label))
        for session in rating.sessions:
            rating.rounds += session.rounds
            rating.add_wagers(session.wagers)
        rating.seconds = covered_seconds([(s.start, s.end) for s in rating.sessions])
        rating.session_count = len(rating.sessions)
        out.append(rating)
    return link_players(_sorted(out))


def _theo_total(theos: Iterable[Decimal]) -> Decimal:
    """A rating's theo from its wager types' (a day's, a session's, and the ranking's alike)."""
    return cents(sum(theos, ZERO))


def _rank(gaming_day: date, theo: Decimal, identifier: str) -> tuple:
    """The order of every list of ratings: by day, then theo (highest first), then identifier."""
    return gaming_day, -theo, identifier


def _sorted(out: list[DayRating]) -> list[DayRating]:
    out.sort(key=lambda r: _rank(r.gaming_day, r.theo, r.identifier))
    return out


def link_players(ratings: list[DayRating]) -> list[DayRating]:
    """The registered players (unregistered: None) and the days' priced decisions linked to
    ``ratings``: one read of each per casino, of that casino's rows only (a rating is its casino's;
    the same identifier at another casino is another player's day)."""
    by_casino = defaultdict(set)
    for rating in ratings:
        by_casino[rating.casino_id].add(rating.identifier)
    for casino_id, identifiers_here in by_casino.items():
        known = players_by_identifier(casino_id, identifiers_here)
        here = [rating for rating in ratings if rating.casino_id == casino_id]
        days = {rating.gaming_day for rating in here}
        priced = player_days([casino_id], days, identifiers_here)
        # Sessions, where the read has them (a player's days): one more read, of these players' rows.
        keys = {(r.gaming_day, r.identifier, s.table_id, s.start, s.end) for r in here for s in r.sessions}
        by_session = player_sessions([casino_id], days, identifiers_here, keys) if keys else {}
        for rating in here:
            rating.player = known.get(rating.identifier)
            rating.decisions = priced.get((rating.gaming_day, rating.identifier), DecisionFigures())
            for s in rating.sessions:
                s.decisions = by_session.get((rating.gaming_day, rating.identifier, s.table_id, s.start, s.end),
                                             DecisionFigures())
    return ratings


#: A session as read: (start, end, rounds, seconds, longest gap, wagers as stored or as a Fold's).
_Row = tuple


def _units(casino_ids, first: date, last: date, identifiers, threshold: timedelta) -> dict[tuple, list[_Row]]:
    """The stored sessions of the range, per (casino, gaming day, table, player) in time order, at
    ``threshold``: stored sessions within it of each other join (exactly what cutting the rounds
    at it gives, since they were cut at a threshold no longer); a (day, table) holding a session
    with a longer gap inside is cut again from its rounds (the setting was lowered since).
    Sessions stay the rows read unless they join: a busy day is thousands of them."""
    stored = RatingSession.objects.filter(gaming_day__range=(first, last))
    casinos = None if casino_ids is None else set(casino_ids)
    if identifiers is not None:
        # A few players' sessions: by the player index, their casinos kept below. Filtered on the
        # casino too, PostgreSQL drove the read from the day index, every table's sessions of the
        # day (57 ms for a page of 50 players on a 3,000-player day, 5 ms this way).
        stored = stored.filter(player__in=list(identifiers))
    elif casinos is not None:
        stored = stored.filter(table__pit__casino_id__in=casinos)
    longest = threshold // MICRO
    units: dict[tuple, list[_Row]] = defaultdict(list)
    casino_of: dict[int, int] = {}
    recut: set[tuple[date, int]] = set()
    # The wagers as their JSON text, parsed by orjson: a page of 50 players of a busy day is
    # thousands of sessions, and Django's JSON decoding of them was a third of the request.
    loads = orjson.loads
    for day, table_id, casino_id, player, *row, wagers in stored.order_by("start", "id").annotate(
            wagers_text=Cast("wagers", TextField())).values_list(
            "gaming_day", "table_id", "table__pit__casino_id", "player", "start", "end", "rounds", "seconds",
            "longest_gap", "wagers_text"):
        if casinos is not None and casino_id not in casinos:
            continue
        row.append(loads(wagers))
        casino_of[table_id] = casino_id
        if row[4] > longest:
            recut.add((day, table_id))
        units[(casino_id, day, table_id, player)].append(row)
    if recut:
        for key in [k for k in units if (k[1], k[2]) in recut]:
            del units[key]
        for (day, table_id, player), folds in sessions_of_rows(
                *raw_rows(first=first, last=last, table_ids={t for _, t in recut}, identifiers=identifiers),
                threshold).items():
            if (day, table_id) in recut and (identifiers is None or player in identifiers):
                units[(casino_of[table_id], day, table_id, player)] = [_row(f) for f in folds]
    for key, rows in units.items():
        if len(rows) > 1 and any(rows[i][0] - rows[i - 1][1] <= threshold for i in range(1, len(rows))):
            units[key] = _joined(rows, threshold)
    return units


def _row(fold: Fold) -> _Row:
    return fold.start, fold.end, fold.rounds, fold.seconds, fold.longest_gap, fold.wagers


def _joined(rows: list[_Row], threshold: timedelta) -> list[_Row]:
    folds = [Fold(start=a, end=b, rounds=n, seconds=t, longest_gap=g, wagers=figures_of(w) if w else {})
             for a, b, n, t, g, w in rows]
    return [_row(f) for f in joined(folds, threshold)]


def _house_theo(edge: Decimal | None, stake, due) -> Decimal:
    """The house's theo of one key's figures (stored texts or Decimals): stake x the house edge;
    a Hold'em pot's (``edge`` None) is the player's share of the rake due: the house has no stake in it."""
    return Decimal(due) if edge is None else Decimal(stake) * edge


class _Prices:
    """Per "<version>:<wager>": the (game, wager type) it sums under and its house edge (None for
    a Hold'em pot), from the odds book; read once per request for the keys it meets."""

    def __init__(self, keys: set[str]) -> None:
        book = OddsBook()
        versions = RulesetVersion.objects.in_bulk({int(k.split(":", 1)[0]) for k in keys})
        book.preload(versions.values())
        self.kinds: dict[str, tuple[tuple[str, str], Decimal | None]] = {}
        for key in keys:
            version_id, wager = key.split(":", 1)
            version = versions[int(version_id)]
            edge = None if wager == POT_KEY else book.odds(version, wager).house_edge
            self.kinds[key] = ((version.game, wager_type(wager)), edge)

    def add(self, into: dict, wagers: dict) -> None:
        """``wagers`` (stored texts, or Decimals summed here: exact either way) priced into
        ``into``'s per-(game, wager type) totals."""
        for key, (placed, stake, net, due, taken) in wagers.items():
            stake = Decimal(stake)
            kind, edge = self.kinds[key]
            theo = _house_theo(edge, stake, due)
            # As for theo: a pot's actual is the player's share of the rake taken.
            actual = Decimal(taken) if edge is None else -Decimal(net)
            total = into.get(kind)
            if total is None:
                into[kind] = WagerTotal(*kind, placed, stake, theo, actual)
            else:
                total.count += placed
                total.stake += stake
                total.theo += theo
                total.actual += actual

    def theo(self, wagers: dict) -> Decimal:
        """The theo :meth:`add` then ``_Figures.theo`` give ``wagers``, to the digit: the same
        products summed per wager type in the same order, then the types; without the stakes,
        counts and actuals a ranking does not need."""
        by_kind: dict[tuple[str, str], Decimal] = {}
        kinds = self.kinds
        for key, values in wagers.items():
            kind, edge = kinds[key]
            theo = _house_theo(edge, values[1], values[3])
            have = by_kind.get(kind)
            by_kind[kind] = theo if have is None else have + theo
        return _theo_total(by_kind.values())


#: A day row as read: (casino id, gaming day, player, rounds, sessions, seconds, threshold, wagers).
_DayRow = tuple


class RankedDays:
    """Every player's day in the order of the full figures (:func:`_rank`), each row's theo
    alone computed to rank it (:meth:`_Prices.theo`); the full figures are made for the rows a
    slice takes (a page, the top 50). ``len()`` and slicing, as a list of :class:`DayRating`
    (the API's paginator takes it). What ranking.day_ranking falls back to when it cannot rank
    in SQL, and what :func:`day_ratings` lists in full."""

    def __init__(self, rows: list[_DayRow], prices: _Prices) -> None:
        theos = [prices.theo(row[7]) for row in rows]
        order = sorted(range(len(rows)), key=lambda i: _rank(rows[i][1], theos[i], rows[i][2]))
        self._rows = [rows[i] for i in order]
        self._prices = prices

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self):
        return (day_rating_of(self._prices, row) for row in self._rows)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [day_rating_of(self._prices, row) for row in self._rows[index]]
        return day_rating_of(self._prices, self._rows[index])


def day_rating_of(prices: _Prices, row: _DayRow) -> DayRating:
    """A day row's rating in full, without its sessions or registered player."""
    casino_id, day, player, rounds, sessions, seconds, _limit, wagers = row
    rating = DayRating(casino_id=casino_id, identifier=player, gaming_day=day, rounds=rounds, seconds=seconds,
                       session_count=sessions)
    prices.add(rating.wagers, wagers)
    return rating


def _from_days(casino_ids, first: date, last: date, identifiers, threshold: timedelta) -> RankedDays | None:
    """The ratings without their sessions or registered players, from the day rows (one per player
    and day), ranked; None when a day row was counted at another threshold (the sessions are read
    instead)."""
    stored = RatingDay.objects.filter(gaming_day__range=(first, last))
    if casino_ids is not None:
        stored = stored.filter(casino_id__in=casino_ids)
    if identifiers is not None:
        stored = stored.filter(player__in=list(identifiers))
    rows = list(stored.values_list("casino_id", "gaming_day", "player", "rounds", "sessions", "seconds",
                                   "threshold", "wagers"))
    limit = threshold // MICRO
    if any(row[6] != limit for row in rows):
        return None
    return RankedDays(rows, _Prices({k for row in rows for k in row[7]}))


def day_ratings(*, casino_ids, first: date, last: date | None = None,
                identifiers: Iterable[str] | None = None, sessions: bool = True) -> list[DayRating]:
    """Every player's rating for each gaming day of ``first``..``last`` at ``casino_ids`` (None:
    every casino), optionally only for ``identifiers``; sorted by day, then theo (highest first).

    Read from the rating sessions kept as rounds are recorded (writer.py); here each session's
    wagers get the odds book's theo (stake x house edge per ruleset version and wager) and the
    Hold'em rake shares become the house's theo and actual. ``sessions=False``: the same figures
    without the sessions, the registered players left to :func:`link_players` (for the ones
    shown), read from the day rows the writer keeps beside the sessions (one per player and day),
    or from the sessions when those were counted at another threshold."""
    last = last or first
    check_range(first, last)
    threshold = gap_threshold()
    if not sessions:
        ranked = _from_days(casino_ids, first, last, identifiers, threshold)
        if ranked is not None:
            return list(ranked)
    units = _units(casino_ids, first, last, identifiers, threshold)
    if not units:
        return []
    prices = _Prices({k for rows in units.values() for row in rows for k in row[5]})
    tables = {t.pk: t for t in Table.objects.filter(pk__in={k[2] for k in units})}
    days: dict[tuple, DayRating] = {}
    for (casino_id, day, table_id, player), rows in units.items():
        rating = days.get((casino_id, player, day))
        if rating is None:
            rating = days[(casino_id, player, day)] = DayRating(casino_id=casino_id, identifier=player, gaming_day=day)
        table = tables[table_id]
        for start, end, rounds, seconds, _gap, wagers in rows:
            session = Session(table_id=table_id, table_label=table.label, game=table.game, gaming_day=day,
                              start=start, end=end, rounds=rounds, seconds=seconds)
            prices.add(session.wagers, wagers)
            rating.sessions.append(session)
    return day_totals(days)


def player_ratings(*, player, first: date, last: date | None = None) -> list[DayRating]:
    """One player's day ratings (with their sessions) over a bounded range, day by day."""
    return day_ratings(casino_ids=[player.casino_id], first=first, last=last, identifiers=[player.identifier])
