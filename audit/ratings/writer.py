"""The one writer of the rating sessions (models.py), and the one definition of how a player's
rounds at a table make sessions.

A round gives each player on it their figures (:func:`round_figures`: wagers placed, stake, net,
Hold'em rake shares) and one step of the fold (:func:`session_step`): within the gap threshold of
the session's last round it extends that session, else it starts a new one. The same two
functions build sessions from raw rows (:func:`sessions_of_rows`: the repair path, a correction,
a void, a read at a shorter threshold) and keep them as rounds are recorded (:func:`round_posted_sessions`).

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
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.db import connections, router, transaction
from django.db.models import F

from audit import chain
from audit.reports.theoretical import JACKPOT_KEY, POT_KEY, RAKE_KEY
from tables.history.days import days_with_tables
from tables.models import Round, Wager

from .models import RatingSession

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


def sessions_recompute(gaming_day: date, table_ids: Iterable[int]) -> int:
    """Rebuild the sessions of ``table_ids`` on ``gaming_day`` from the raw rounds (the repair path,
    and what a correction or a void does). Under the tables' locks, taken in id order as every
    writer takes them. How many sessions."""
    table_ids = sorted(set(table_ids))
    using = router.db_for_write(RatingSession)
    with transaction.atomic(using=using):
        for table_id in table_ids:
            chain.lock_table_chain(table_id, using=using)
        RatingSession.objects.using(using).filter(gaming_day=gaming_day, table_id__in=table_ids).delete()
        units = sessions_of_rows(*raw_rows(first=gaming_day, last=gaming_day, table_ids=table_ids), gap_threshold())
        _store(units, using)
    return sum(len(s) for s in units.values())


def ratings_rebuild(*, since: date | None = None, until: date | None = None) -> int:
    """Recompute the sessions of every gaming day with rounds in the period (all when open), a day
    at a time (one read and one transaction per day); how many (day, table) pairs."""
    by_day = days_with_tables(Round, since=since, until=until)
    for day in sorted(by_day):
        sessions_recompute(day, by_day[day])
    return sum(len(tables) for tables in by_day.values())


# --- kept as rounds are recorded -------------------------------------------------------------------

def _recorded(rnd: Round, revision) -> None:
    """A new round: each of its players' latest session at the table that day is extended, or a
    new one started."""
    figures = round_figures(rnd.ruleset_version_id, ((w.player, w.wager, w.stake, w.expected_net, w.recorded_net)
                                                     for w in revision.wager_rows))
    if not figures:
        return
    using = rnd._state.db or router.db_for_write(RatingSession)
    latest: dict[str, RatingSession] = {}
    for row in (RatingSession.objects.using(using)
                .filter(gaming_day=rnd.gaming_day, table_id=rnd.table_id, player__in=list(figures))):
        if row.player not in latest or row.end > latest[row.player].end:
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
        stored = None if row is None else Fold(start=row.start, end=row.end, rounds=row.rounds, seconds=row.seconds,
                                               longest_gap=row.longest_gap, wagers=figures_of(row.wagers))
        session = session_step(stored, at, figs, threshold)
        if session is None:
            new.append(RatingSession(gaming_day=rnd.gaming_day, table_id=rnd.table_id, player=player,
                                     **_fields(session_start(at, figs))))
        else:
            for name, value in _fields(session).items():
                setattr(row, name, value)
            changed.append(row)
    if changed:
        RatingSession.objects.using(using).bulk_update(
            changed, ["end", "rounds", "seconds", "longest_gap", "wagers"])
    if new:
        RatingSession.objects.using(using).bulk_create(new)


def round_posted_sessions(sender, *, round, revision, **kwargs) -> None:  # noqa: A002
    """``round_posted`` listener: a new round extends or starts its players' sessions; a
    correction (which may change stakes, pays and who sat where) recomputes its day's table."""
    if revision.number == 1 and getattr(revision, "wager_rows", None) is not None:
        _recorded(round, revision)
    else:
        sessions_recompute(round.gaming_day, [round.table_id])


def round_voided_sessions(sender, *, round, **kwargs) -> None:  # noqa: A002
    """``round_voided`` listener: a voided round rates nothing, and may split a session in two."""
    sessions_recompute(round.gaming_day, [round.table_id])
