"""The one writer of the rating sessions (models.py), and the one definition of how a player's
rounds at a table make sessions.

A round gives each player on it their figures (:func:`round_figures`: wagers placed, stake, net,
Hold'em rake shares) and one step of the fold (:func:`session_step`): within the gap threshold of
the session's last round it extends that session, else it starts a new one. The same two
functions build sessions from raw rows (:func:`sessions_of_rows`: the repair path, a correction,
a void, a read at a shorter threshold) and keep them as rounds are recorded (:class:`RatingSessions`).

Every change to a table's rounds is made under the table's row lock (recording, corrections and
voids all take it), so a (gaming day, table)'s sessions have one writer at a time. A new round,
the hot path, reads the latest session of its players at the table that day and extends or starts
one: a read and at most two statements, none of them over the day's rounds. A correction or a
void recomputes its (gaming day, table) from the raw rows: they are rare, and a void can split a
session in two.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from functools import lru_cache
from operator import itemgetter

from django.conf import settings
from django.db import connections, router, transaction
from django.db.models import F

from audit.reports.theoretical import JACKPOT_KEY, POT_KEY, RAKE_KEY
from casino.prepared import PREPARED
from casino.rows import RowInserter, RowUpdater
from tables import chain
from tables.history.days import days_with_tables
from tables.models import Pit, Round, Table, Wager

from .models import RatingDay, RatingSession

ZERO = Decimal(0)
SECOND = timedelta(seconds=1)
MICRO = timedelta(microseconds=1)

#: One round's figures of one player: "<version>:<wager>" -> [placed, stake, net, rake due share, rake taken share]
Figures = dict[str, list]


def gap_threshold() -> timedelta:
    """Rounds further apart than this at one table start a new rating session (setting)."""
    return timedelta(minutes=getattr(settings, "RATING_GAP_MINUTES", 15))


def round_figures(version_id: int, rows: Iterable[tuple]) -> dict[str, Figures]:
    """Per player identifier, what one round's current revision adds to their rating.

    ``rows``: the round's wagers as (player, wager, stake, expected net, recorded net). A row
    without a player (and the house's own rake row) belongs to nobody. The player's net is the
    dealer's recorded pay where one was recorded, else the engine's. A Taxpayer's Fortune
    jackpot row places no wager (the marker is counted once, on its tax row). A Hold'em pot is
    player against player: the player's part of the house's is their share of the hand's rake,
    in proportion to the chips they put in (rake due: theo; rake taken as recorded: actual)."""
    rows = list(rows)
    pot = due = taken = ZERO
    for _player, wager, stake, expected, recorded in rows:
        if wager == POT_KEY:
            pot += stake
        elif wager == RAKE_KEY:
            due += expected
            taken += expected if recorded is None else recorded
    out: dict[str, Figures] = {}
    for player, wager, stake, expected, recorded in rows:
        if not player:
            continue
        net = expected if recorded is None else recorded
        due_share = taken_share = ZERO
        if wager == POT_KEY and pot:
            due_share, taken_share = due * stake / pot, taken * stake / pot
        _add(out.setdefault(player, {}), f"{version_id}:{wager}",
             [0 if wager == JACKPOT_KEY else 1, stake, net, due_share, taken_share])
    return out


def _add(figures: Figures, key: str, values: list) -> None:
    have = figures.get(key)
    if have is None:
        figures[key] = list(values)
    else:
        for i, v in enumerate(values):
            have[i] += v


@dataclass
class Fold:
    """A session as it is folded round by round (start and end are the rounds' times)."""

    start: datetime
    end: datetime
    rounds: int = 1
    seconds: int = 0
    longest_gap: int = 0  # microseconds
    wagers: Figures = field(default_factory=dict)

    def merge(self, other: Fold) -> None:
        """``other`` (later, within the threshold) joins this session: its gap to this one counts."""
        gap = other.start - self.end
        self.end = other.end
        self.rounds += other.rounds
        self.seconds += gap // SECOND + other.seconds
        self.longest_gap = max(self.longest_gap, gap // MICRO, other.longest_gap)
        for key, values in other.wagers.items():
            _add(self.wagers, key, values)


def joins(session: Fold, at: datetime, threshold: timedelta) -> bool:
    """The session rule: a round (or a later session starting) at ``at`` belongs to ``session``
    when the gap since its last round is at most the threshold; a longer gap starts a new one."""
    return at - session.end <= threshold


def session_step(session: Fold | None, at: datetime, figures: Figures, threshold: timedelta) -> Fold | None:
    """One round of a player at a table, in time order, after ``session`` (their latest there
    that day, or None): the same session extended when the round joins it, else None (the round
    starts a new session: :func:`session_start`)."""
    if session is None or not joins(session, at, threshold):
        return None
    session.merge(Fold(start=at, end=at, wagers=figures))
    return session


def session_start(at: datetime, figures: Figures) -> Fold:
    return Fold(start=at, end=at, wagers={k: list(v) for k, v in figures.items()})


def joined(folds: list[Fold], threshold: timedelta) -> list[Fold]:
    """Sessions of one player at one table (time order) with neighbours within ``threshold`` of
    each other as one (the session rule's :func:`joins`): what cutting their rounds at a
    threshold at least as long as the one they were cut with gives. Merges into ``folds``."""
    out = [folds[0]]
    for fold in folds[1:]:
        if joins(out[-1], fold.start, threshold):
            out[-1].merge(fold)
        else:
            out.append(fold)
    return out


def covered_seconds(intervals: list[tuple[datetime, datetime]]) -> int:
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


@dataclass
class Day:
    """A player's gaming day at a casino: what a :class:`~.models.RatingDay` row holds."""

    rounds: int
    sessions: int
    seconds: int
    wagers: Figures
    threshold: int | None  # microseconds; None: a session holds a longer gap (cut again from the rounds)


def day_of(by_table: Iterable[list[Fold]], threshold: timedelta) -> Day:
    """A player's day from their stored sessions at each table (each list in time order), read at
    ``threshold``: the rounds and money summed, the sessions joined where within it, time on game
    the union of their spans."""
    limit = threshold // MICRO
    by_table = list(by_table)
    exact = all(f.longest_gap <= limit for folds in by_table for f in folds)
    sessions = [s for folds in by_table if folds for s in joined(folds, threshold)]
    wagers: Figures = {}
    for session in sessions:
        for key, values in session.wagers.items():
            _add(wagers, key, values)
    return Day(rounds=sum(s.rounds for s in sessions), sessions=len(sessions),
               seconds=covered_seconds([(s.start, s.end) for s in sessions]), wagers=wagers,
               threshold=limit if exact else None)


Unit = tuple[date, int, str]  # (gaming day, table id, player)


def sessions_of_rows(rounds: Iterable[tuple], wagers: dict[int, list], threshold: timedelta) -> dict[Unit, list[Fold]]:
    """Sessions from raw rows: ``rounds`` as (round id, time, table id, gaming day, ruleset version
    id) in time order (then round id), ``wagers`` per round id as (player, wager, stake, expected
    net, recorded net)."""
    out: dict[Unit, list[Fold]] = defaultdict(list)
    for round_id, at, table_id, day, version_id in rounds:
        for player, figures in round_figures(version_id, wagers.get(round_id, ())).items():
            sessions = out[(day, table_id, player)]
            if not sessions or session_step(sessions[-1], at, figures, threshold) is None:
                sessions.append(session_start(at, figures))
    return out


def raw_rows(*, first: date, last: date, table_ids: Iterable[int] | None = None,
             identifiers=None) -> tuple[list[tuple], dict[int, list]]:
    """The active rounds of ``first``..``last`` in time order and their current revision's wagers
    (:func:`sessions_of_rows`' arguments). Each partitioned table is filtered on its own gaming
    day, so PostgreSQL reads those months only. With ``identifiers``, only the rounds those players
    played (whole rounds: a pot's rake shares need every seat's chips). Two reads: a round's
    time, table and version once, not once per wager."""
    days = (first, last)
    rounds = Round.objects.filter(gaming_day__range=days, status=Round.ACTIVE)
    wagers = Wager.objects.filter(gaming_day__range=days, round__gaming_day__range=days,
                                  revision__gaming_day__range=days, round__status=Round.ACTIVE,
                                  revision__number=F("round__revision"))
    if table_ids is not None:
        rounds = rounds.filter(table_id__in=list(table_ids))
        wagers = wagers.filter(round__table_id__in=list(table_ids))
    if identifiers is not None:
        played = Wager.objects.filter(gaming_day__range=days, player__in=list(identifiers)).values("round_id")
        rounds = rounds.filter(pk__in=played)
        wagers = wagers.filter(round_id__in=played)
    by_round: dict[int, list] = defaultdict(list)
    for round_id, *line in wagers.order_by().values_list(
            "round_id", "player", "wager", "stake", "expected_net", "recorded_net"):
        by_round[round_id].append(line)
    return (list(rounds.order_by("recorded_at", "pk").values_list(
        "pk", "recorded_at", "table_id", "gaming_day", "ruleset_version_id")), by_round)


# --- storing ---------------------------------------------------------------------------------------

def _text(figures: Figures) -> dict:
    return {k: [v[0], *(str(x) for x in v[1:])] for k, v in figures.items()}


def figures_of(stored: dict) -> Figures:
    return {k: [v[0], *(Decimal(x) for x in v[1:])] for k, v in stored.items()}


def _fields(session: Fold) -> dict:
    return {"start": session.start, "end": session.end, "rounds": session.rounds, "seconds": session.seconds,
            "longest_gap": session.longest_gap, "wagers": _text(session.wagers)}


_COLUMNS = ("gaming_day", "table_id", "player", "start", "end", "rounds", "seconds", "longest_gap", "wagers")


def _store(units: dict[Unit, list[Fold]], using: str) -> None:
    """Write rebuilt sessions: with COPY on PostgreSQL (a day of a big floor is ~10,000 rows,
    whose JSON texts an INSERT's arrays escape one by one, several times slower), else bulk_create."""
    rows = [(day, table_id, player, s.start, s.end, s.rounds, s.seconds, s.longest_gap, _text(s.wagers))
            for (day, table_id, player), sessions in units.items() for s in sessions]
    connection = connections[using]
    if connection.vendor != "postgresql":
        RatingSession.objects.using(using).bulk_create(
            [RatingSession(**dict(zip(_COLUMNS, row, strict=True))) for row in rows], batch_size=2000)
        return
    quote = connection.ops.quote_name
    columns = ", ".join(quote(RatingSession._meta.get_field(c).column) for c in _COLUMNS)
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY {quote(RatingSession._meta.db_table)} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row((*row[:-1], json.dumps(row[-1])))


def _fold(start, end, rounds, seconds, longest_gap, wagers) -> Fold:
    return Fold(start=start, end=end, rounds=rounds, seconds=seconds, longest_gap=longest_gap,
                wagers=figures_of(wagers))


# Recording a round writes its players' sessions and day rows with statements built once (casino/rows.py).
_SESSIONS_NEW = RowInserter(RatingSession, _COLUMNS, returning_pk=False)
_SESSIONS_EXTENDED_FIELDS = ("end", "rounds", "seconds", "longest_gap", "wagers")
_SESSIONS_EXTENDED = RowUpdater(RatingSession, _SESSIONS_EXTENDED_FIELDS)
# A day row written again is no longer ranked by the theo a read kept for it (RatingDay.theo_of, ranking.py):
# the writer never prices (no odds-book read per round), it only marks the row for the next read to price.
_DAY_FIGURES = ("rounds", "sessions", "seconds", "threshold", "wagers", "theo_of")
_DAYS = RowInserter(RatingDay, ("gaming_day", "casino_id", "player", *_DAY_FIGURES), returning_pk=False,
                    replace=(("gaming_day", "casino_id", "player"), _DAY_FIGURES))


def _day_rows(gaming_day: date, casino_id: int, sessions: dict[str, dict[int, list]], using: str) -> None:
    """Write the day rows of the players in ``sessions`` (player -> table id -> their stored
    sessions' field tuples): one upsert; a player left without a session loses their row."""
    threshold = gap_threshold()
    rows, gone = [], []
    for player, by_table in sessions.items():
        if not any(by_table.values()):
            gone.append(player)
            continue
        day = day_of(([_fold(*f) for f in sorted(fields, key=_START)] for fields in by_table.values()), threshold)
        rows.append((gaming_day, casino_id, player, day.rounds, day.sessions, day.seconds, day.threshold,
                     _text(day.wagers), ""))
    if gone:
        RatingDay.objects.using(using).filter(gaming_day=gaming_day, casino_id=casino_id, player__in=gone).delete()
    _DAYS.insert(rows, using=using)


_SESSION_FIELDS = ("start", "end", "rounds", "seconds", "longest_gap", "wagers")
_START = itemgetter(0)


def days_refresh(gaming_day: date, casino_id: int, players: Iterable[str] | None, *, using: str) -> None:
    """Recompute the day rows of ``players`` (None: every player) at ``casino_id`` on ``gaming_day``
    from their stored sessions at every table."""
    stored = RatingSession.objects.using(using).filter(gaming_day=gaming_day, table__pit__casino_id=casino_id)
    sessions: dict[str, dict[int, list]] = defaultdict(lambda: defaultdict(list))
    if players is not None:
        players = list(players)
        stored = stored.filter(player__in=players)
        for player in players:
            sessions[player] = defaultdict(list)
    else:
        RatingDay.objects.using(using).filter(gaming_day=gaming_day, casino_id=casino_id).delete()
    for player, table_id, *fields in stored.values_list("player", "table_id", *_SESSION_FIELDS):
        sessions[player][table_id].append(tuple(fields))
    _day_rows(gaming_day, casino_id, sessions, using)


def sessions_recompute(gaming_day: date, table_ids: Iterable[int]) -> int:
    """Rebuild the sessions of ``table_ids`` on ``gaming_day`` from the raw rounds (the repair path,
    and what a correction or a void does), and the day rows of every player they had or now have.
    Under the tables' locks, taken in id order as every writer takes them. How many sessions."""
    table_ids = sorted(set(table_ids))
    using = router.db_for_write(RatingSession)
    with transaction.atomic(using=using):
        for table_id in table_ids:
            chain.lock_table_chain(table_id, using=using)
        here = RatingSession.objects.using(using).filter(gaming_day=gaming_day, table_id__in=table_ids)
        casino_of = dict(Table.objects.using(using).filter(pk__in=table_ids).values_list("pk", "pit__casino_id"))
        players = defaultdict(set)
        for table_id, player in here.values_list("table_id", "player").distinct():
            players[casino_of[table_id]].add(player)
        here.delete()
        units = sessions_of_rows(*raw_rows(first=gaming_day, last=gaming_day, table_ids=table_ids), gap_threshold())
        _store(units, using)
        for _day, table_id, player in units:
            players[casino_of[table_id]].add(player)
        for casino_id, theirs in sorted(players.items()):
            days_refresh(gaming_day, casino_id, sorted(theirs), using=using)
    return sum(len(s) for s in units.values())


def ratings_rebuild(*, since: date | None = None, until: date | None = None) -> int:
    """Recompute the sessions and day rows of every gaming day with rounds in the period (all when
    open), a day at a time (one read and one transaction per day); how many (day, table) pairs."""
    by_day = days_with_tables(Round, since=since, until=until)
    using = router.db_for_write(RatingSession)
    for day in sorted(by_day):
        with transaction.atomic(using=using):
            RatingDay.objects.using(using).filter(gaming_day=day).delete()
            sessions_recompute(day, by_day[day])
    return sum(len(tables) for tables in by_day.values())


def rating_days_rebuild(*, using: str = "default") -> int:
    """The day rows of every (gaming day, casino) from the stored sessions (the data migration that
    adds them; the sessions themselves are not recut). How many (day, casino) pairs."""
    pairs = (RatingSession.objects.using(using).values_list("gaming_day", "table__pit__casino_id")
             .distinct().order_by("gaming_day", "table__pit__casino_id"))
    pairs = list(pairs)
    for gaming_day, casino_id in pairs:
        with transaction.atomic(using=using):
            days_refresh(gaming_day, casino_id, None, using=using)
    return len(pairs)


# --- kept as rounds are recorded -------------------------------------------------------------------

@lru_cache(maxsize=64)
def _theirs_sql(alias: str, players: int) -> str:
    """The recorder's read of its players' sessions that day at every table of the casino: the
    statement of the ORM's filter, written once per number of players (compiling the ORM's
    cost five times what PostgreSQL spent running it)."""
    q = connections[alias].ops.quote_name
    s, t, p = (q(m._meta.db_table) for m in (RatingSession, Table, Pit))
    columns = ", ".join(f"s.{q(f.column)}" for f in RatingSession._meta.concrete_fields)
    marks = ", ".join(["%s"] * players)
    # Identifiers come from the models' metadata; every value is a parameter.
    return (f"{PREPARED}SELECT {columns} FROM {s} s JOIN {t} t ON t.id = s.table_id "  # noqa: S608
            f"JOIN {p} p ON p.id = t.pit_id WHERE s.gaming_day = %s AND p.casino_id = %s AND s.player IN ({marks})")



def _recorded(rnd: Round, revision, casino_id: int) -> None:
    """A new round: each of its players' latest session at the table that day is extended, or a
    new one started, and their day rows written again from their sessions at every table."""
    figures = round_figures(rnd.ruleset_version_id, ((w.player, w.wager, w.stake, w.expected_net, w.recorded_net)
                                                     for w in revision.wager_rows))
    if not figures:
        return
    using = rnd._state.db or router.db_for_write(RatingSession)
    theirs = list(RatingSession.objects.using(using).raw(
        _theirs_sql(connections[using].alias, len(figures)),
        [rnd.gaming_day, casino_id, *figures]))
    latest: dict[str, RatingSession] = {}
    for row in theirs:
        if row.table_id == rnd.table_id and (row.player not in latest or row.end > latest[row.player].end):
            latest[row.player] = row
    at = rnd.recorded_at
    if any(row.end > at for row in latest.values()):
        # Recorded out of time order (a clock stepped back): the day's table is cut again.
        sessions_recompute(rnd.gaming_day, [rnd.table_id])
        return
    changed, new = [], []
    threshold = gap_threshold()
    for player, figs in figures.items():
        row = latest.get(player)
        stored = None if row is None else _fold(*(getattr(row, f) for f in _SESSION_FIELDS))
        session = session_step(stored, at, figs, threshold)
        if session is None:
            new.append(RatingSession(gaming_day=rnd.gaming_day, table_id=rnd.table_id, player=player,
                                     **_fields(session_start(at, figs))))
        else:
            for name, value in _fields(session).items():
                setattr(row, name, value)
            changed.append((row.pk, [getattr(row, c) for c in _SESSIONS_EXTENDED_FIELDS]))
    _SESSIONS_EXTENDED.update(changed, using=using)
    _SESSIONS_NEW.insert([[getattr(row, c) for c in _COLUMNS] for row in new], using=using)
    sessions: dict[str, dict[int, list]] = {player: defaultdict(list) for player in figures}
    for row in theirs + new:
        sessions[row.player][row.table_id].append(tuple(getattr(row, f) for f in _SESSION_FIELDS))
    _day_rows(rnd.gaming_day, casino_id, sessions, using)


class RatingSessions:
    """The players' rating sessions as a ``tables.round_effects.RoundProjection``
    (``ROUND_PROJECTIONS``)."""

    def changing(self, round_ids):
        return nullcontext()

    def round_posted(self, *, round, revision, casino_id=None) -> None:  # noqa: A002
        round_posted_sessions(round=round, revision=revision, casino_id=casino_id)

    def round_voided(self, *, round) -> None:  # noqa: A002
        round_voided_sessions(round=round)


def round_posted_sessions(*, round, revision, casino_id=None) -> None:  # noqa: A002
    """A new round extends or starts its players' sessions; a
    correction (which may change stakes, pays and who sat where) recomputes its day's table."""
    if revision.number == 1 and getattr(revision, "wager_rows", None) is not None:
        if casino_id is None:  # recording names it; a caller of its own may not
            casino_id = Table.objects.using(round._state.db or "default").values_list(
                "pit__casino_id", flat=True).get(pk=round.table_id)
        _recorded(round, revision, casino_id)
    else:
        sessions_recompute(round.gaming_day, [round.table_id])


def round_voided_sessions(*, round) -> None:  # noqa: A002
    """A voided round rates nothing, and may split a session in two."""
    sessions_recompute(round.gaming_day, [round.table_id])
