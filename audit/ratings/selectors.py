"""Player ratings computed from the recorded rounds (never stored): per rating session, per
gaming day, per player. The money is the daily report's (audit/reports): the same odds book,
the same "actual" (the dealer's recorded pay where recorded, else the engine's), the same
Taxpayer's Fortune wager type and the same Hold'em rake. The rules are in README.md beside this.

Reads are bounded: one gaming day, or a range of at most :data:`MAX_DAYS` days. Whatever the
number of rounds, a rating costs a fixed number of queries: the current revision's wagers summed
per (player, round, wager) in SQL, the rake of the Hold'em rounds among them, and the tables,
ruleset versions, odds and players they name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Case, DecimalField, F, Sum, Value, When
from django.db.models.functions import Coalesce

from audit.reports.theoretical import JACKPOT_KEY, POT_KEY, RAKE_KEY, OddsBook, wager_type
from tables.models import Round, RulesetVersion, Table, Wager
from tables.players.selectors import players_by_identifier

from .sessions_sql import at_micros, session_rows

CENT = Decimal("0.01")
ZERO = Decimal(0)
#: The longest range one request may rate (a month of gaming days).
MAX_DAYS = 31
#: Pot wagers of Hold'em are player against player: they rate as play, the house's part is the rake.
HOUSE_NONE = (POT_KEY,)


def gap_threshold() -> timedelta:
    """Rounds further apart than this at one table start a new rating session (setting)."""
    return timedelta(minutes=getattr(settings, "RATING_GAP_MINUTES", 15))


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
        return cents(sum((w.theo for w in self.wagers.values()), ZERO))

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


@dataclass
class Session(_Figures):
    """A player's play at one table in one gaming day, until a gap above the threshold."""

    table_id: int = 0
    table_label: str = ""
    game: str = ""
    gaming_day: date | None = None
    start: datetime | None = None
    end: datetime | None = None


@dataclass
class DayRating(_Figures):
    """A player's gaming day: the sessions, their sums, and time on game without overlaps."""

    casino_id: int = 0
    identifier: str = ""
    gaming_day: date | None = None
    player: object = None  # the registered Player, or None: "not registered"
    sessions: list = field(default_factory=list)


def check_range(first: date, last: date) -> None:
    if last < first:
        raise ValidationError({"to": ["Must not be before from."]})
    if (last - first).days + 1 > MAX_DAYS:
        raise ValidationError({"to": [f"A range of at most {MAX_DAYS} gaming days."]})


def _round_rows(casino_ids, first: date, last: date, identifiers):
    """The current revision's wagers of the active rounds with a player, one row each.

    Each history table is filtered on its OWN gaming day as well as through the round, so that
    PostgreSQL reads only the range's monthly partitions (tables/history/partitions.py)."""
    money = DecimalField(max_digits=16, decimal_places=2)
    days = (first, last)
    wagers = Wager.objects.filter(
        gaming_day__range=days, round__gaming_day__range=days, revision__gaming_day__range=days,
        round__status=Round.ACTIVE, revision__number=F("round__revision"),
    ).exclude(player="")
    if casino_ids is not None:
        wagers = wagers.filter(round__table__pit__casino_id__in=casino_ids)
    if identifiers is not None:
        wagers = wagers.filter(player__in=list(identifiers))
    return wagers.values(
        r_casino=F("round__table__pit__casino_id"), r_player=F("player"), r_day=F("round__gaming_day"),
        r_table=F("round__table_id"), r_at=F("round__recorded_at"), r_round=F("round_id"),
        r_version=F("round__ruleset_version_id"), r_wager=F("wager"),
        # A Taxpayer's Fortune jackpot row has stake 0: the marker is counted once, on its tax row.
        r_placed=Case(When(wager=JACKPOT_KEY, then=Value(0)), default=Value(1)),
        r_stake=F("stake"),
        # The house's side is minus the player's net: the recorded pay where recorded, else the engine's.
        r_net=Coalesce("recorded_net", "expected_net", output_field=money),
    ).order_by()


def _rake_shares(round_ids: set[int], first: date, last: date) -> dict[int, tuple[Decimal, Decimal, Decimal]]:
    """Per Hold'em round: (chips all seats put in the pot, rake due, rake taken as recorded)."""
    if not round_ids:
        return {}
    money = DecimalField(max_digits=16, decimal_places=2)
    rows = Wager.objects.filter(
        gaming_day__range=(first, last), round__gaming_day__range=(first, last),
        revision__gaming_day__range=(first, last),
        round_id__in=round_ids, revision__number=F("round__revision"), wager__in=(POT_KEY, RAKE_KEY),
    ).values("round_id").annotate(
        pot=Sum(Case(When(wager=POT_KEY, then="stake"), default=Value(ZERO), output_field=money)),
        due=Sum(Case(When(wager=RAKE_KEY, then="expected_net"), default=Value(ZERO), output_field=money)),
        taken=Sum(Case(When(wager=RAKE_KEY, then=Coalesce("recorded_net", "expected_net")), default=Value(ZERO),
                       output_field=money)),
    ).order_by()
    return {r["round_id"]: (r["pot"] or ZERO, r["due"] or ZERO, r["taken"] or ZERO) for r in rows}


def _covered_seconds(intervals: list[tuple[datetime, datetime]]) -> int:
    """Length of the union of the intervals: two tables played at once count once."""
    total, end_so_far = 0.0, None
    for start, end in sorted(intervals):
        if end_so_far is None or start > end_so_far:
            total += (end - start).total_seconds()
            end_so_far = end
        elif end > end_so_far:
            total += (end - end_so_far).total_seconds()
            end_so_far = end
    return int(total)


def day_totals(days: dict) -> list[DayRating]:
    """Each (player, day)'s rating from its sessions: rounds, wagers and time on game summed
    (two tables at once counted once), the registered player linked; highest theo first."""
    out = []
    for rating in days.values():
        rating.sessions.sort(key=lambda s: (s.start, s.table_label))
        for session in rating.sessions:
            rating.rounds += session.rounds
            rating.add_wagers(session.wagers)
        rating.seconds = _covered_seconds([(s.start, s.end) for s in rating.sessions])
        out.append(rating)
    by_casino = defaultdict(set)
    for rating in out:
        by_casino[rating.casino_id].add(rating.identifier)
    for casino_id, identifiers_here in by_casino.items():
        known = players_by_identifier(casino_id, identifiers_here)
        for rating in out:
            if rating.casino_id == casino_id:
                rating.player = known.get(rating.identifier)
    out.sort(key=lambda r: (r.gaming_day, -r.theo, r.identifier))
    return out


def day_ratings(*, casino_ids, first: date, last: date | None = None,
                identifiers: Iterable[str] | None = None) -> list[DayRating]:
    """Every player's rating for each gaming day of ``first``..``last`` at ``casino_ids`` (None:
    every casino), optionally only for ``identifiers``; sorted by day, then theo (highest first).

    The sessions are cut and summed in SQL (sessions_sql.py); here each session's rows get the
    odds book's theo (stake x house edge per ruleset version and wager) and the Hold'em rake shares."""
    last = last or first
    check_range(first, last)
    rows = session_rows(_round_rows(casino_ids, first, last, identifiers), gap=gap_threshold(), pot_key=POT_KEY)
    if not rows:
        return []
    book = OddsBook()
    versions = {v.pk: v for v in RulesetVersion.objects.filter(pk__in={r[5] for r in rows})}
    tables = {t.pk: t for t in Table.objects.filter(pk__in={r[3] for r in rows})}
    rake = _rake_shares({r[7] for r in rows if r[7] is not None}, first, last)

    sessions: dict[tuple, Session] = {}
    # per (ruleset version, wager): the house edge and the (game, wager type) it sums under
    edges: dict[tuple, Decimal] = {}
    kinds: dict[tuple, tuple[str, str]] = {}
    for (casino_id, player, day, table_id, number, version_id, wager, pot_round, placed, stake, net, rounds,
         seconds, start, end) in rows:
        version = versions[version_id]
        key = (casino_id, player, day, table_id, number)
        session = sessions.get(key)
        if session is None:
            table = tables[table_id]
            # start and end stay integer microseconds until every row is in (see below)
            session = sessions[key] = Session(table_id=table_id, table_label=table.label, game=table.game,
                                              gaming_day=day, start=start, end=end)
        elif start < session.start:
            session.start = start
        if end > session.end:
            session.end = end
        session.rounds += rounds
        session.seconds += seconds
        if pot_round is not None:
            # The house has no stake in the pot: the player's part of the rake is the house's theo
            # (rake due) and actual (rake taken), in proportion to the chips they put in.
            pot, due, taken = rake.get(pot_round, (ZERO, ZERO, ZERO))
            theo, actual = (due * stake / pot, taken * stake / pot) if pot else (ZERO, ZERO)
        else:
            edge = edges.get((version_id, wager))
            if edge is None:
                edge = edges[(version_id, wager)] = book.odds(version, wager).house_edge
            theo, actual = stake * edge, -net
        kind = kinds.get((version_id, wager))
        if kind is None:
            kind = kinds[(version_id, wager)] = (version.game, wager_type(wager))
        total = session.wagers.get(kind)
        if total is None:
            session.wagers[kind] = WagerTotal(*kind, placed, stake, theo, actual)
        else:
            total.count += placed
            total.stake += stake
            total.theo += theo
            total.actual += actual

    days: dict[tuple, DayRating] = {}
    for (casino_id, player, day, _table, _number), session in sessions.items():
        rating = days.setdefault((casino_id, player, day), DayRating(casino_id=casino_id, identifier=player,
                                                                     gaming_day=day))
        session.start, session.end = at_micros(session.start), at_micros(session.end)
        rating.sessions.append(session)
    return day_totals(days)


def player_ratings(*, player, first: date, last: date | None = None) -> list[DayRating]:
    """One player's day ratings (with their sessions) over a bounded range, day by day."""
    return day_ratings(casino_ids=[player.casino_id], first=first, last=last, identifiers=[player.identifier])
