"""One gaming day everywhere (issue #14): the rounds already stored get the gaming day of the
moment they were recorded, and their sessions are split as the services now roll them over
(the schema step, ``TableSession.continues``, is migration 0004; a separate migration, so that
its deferred index builds never meet this one's pending constraint checks).

Before, a round took the day its table session was opened on, so a table opened at 05:51 for
a 06:00 start put a whole day's rounds on the day before. Forwards, for every round: its day
is recomputed from its recorded time and its casino's zone and start hour
(``casino/gaming_day.py``); a session whose rounds (or dealer changes, or close) fall on more
than one gaming day is split as the services now roll a session over: it keeps its first day
and is closed at that day's end; each later day gets a continuation session opened at the
day's start (``continues`` = the session before), and dealer assignments are cut at the same
bounds. Rounds and sessions get a history row saying why. Rounds are append-only in
PostgreSQL: the guards of the tables it rewrites are switched off inside its own transaction
(see REWRITTEN).

The daily reports need nothing: they selected rounds by recorded time in the casino's zone,
which is exactly the day each round now carries. The jackpot ledger's days were already
those of the posting time.

Backwards: the data is left as it is, on purpose. After the split every round's day is its
session's day, which is all the earlier code assumed, and putting rounds back on the
session's opening day would bring the defect back.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta

from django.db import migrations
from django.utils import timezone

ROUND_REASON = "gaming day recomputed from the recorded time (issue #14, migration tables 0005)"
SPLIT_REASON = "split at the gaming-day start (issue #14, migration tables 0005)"
CHUNK = 5000
JUST_BEFORE = timedelta(microseconds=1)


def _history(model, history_model, obj, *, kind: str, reason: str, at):
    values = {f.attname: getattr(obj, f.attname) for f in model._meta.concrete_fields}
    return history_model(**values, history_date=at, history_type=kind, history_change_reason=reason,
                         history_user_id=None)


def _segments(days, session, zone, start_hour):
    """(day, opened_at, closed_at, closed_by_id) of each session the split leaves."""
    from casino.gaming_day import gaming_day_bounds

    out = []
    for i, day in enumerate(days):
        start, end = gaming_day_bounds(day, zone, start_hour)
        opened = session.opened_at if i == 0 else start
        if i < len(days) - 1:
            out.append((day, opened, end, None))
        else:
            closed = session.closed_at
            out.append((day, opened, max(closed, opened) if closed else None, session.closed_by_id))
    return out


#: The tables this migration rewrites. Their guards (casino/audit_guard.py) allow no change
#: of a round's day or a session's day, by design: only this migration, run by the owner of
#: the tables, switches them off, inside its own transaction (ALTER TABLE is transactional).
REWRITTEN = ("tables_round", "tables_tablesession", "tables_dealerassignment")


def _user_triggers(connection, action: str) -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for table in REWRITTEN:
            cursor.execute(f"ALTER TABLE {table} {action} TRIGGER USER")


def forwards(apps, schema_editor):
    _user_triggers(schema_editor.connection, "DISABLE")
    try:
        _forwards(apps, schema_editor)
    finally:
        _user_triggers(schema_editor.connection, "ENABLE")


def _forwards(apps, schema_editor):
    from casino.gaming_day import gaming_day_of

    db = schema_editor.connection.alias
    Round = apps.get_model("tables", "Round")
    Table = apps.get_model("tables", "Table")
    Session = apps.get_model("tables", "TableSession")
    Assignment = apps.get_model("tables", "DealerAssignment")
    HistoricalRound = apps.get_model("tables", "HistoricalRound")
    HistoricalSession = apps.get_model("tables", "HistoricalTableSession")
    now = timezone.now()

    zones = {
        pk: (zone, hour)
        for pk, zone, hour in Table.objects.using(db).values_list(
            "pk", "pit__casino__time_zone", "pit__casino__gaming_day_start_hour")
    }
    session_days = defaultdict(set)  # session -> the gaming days its rounds were recorded on
    wrong = {}  # round -> (session, day) for the rounds whose stored day is not their day
    rows = Round.objects.using(db).values_list("pk", "table_id", "session_id", "recorded_at", "gaming_day")
    for pk, table_id, session_id, recorded_at, stored in rows.iterator(chunk_size=CHUNK):
        day = gaming_day_of(recorded_at, *zones[table_id])
        session_days[session_id].add(day)
        if day != stored:
            wrong[pk] = (session_id, day)

    # Sessions to split: their rounds, dealer changes or close fall on another gaming day.
    for session in Session.objects.using(db).select_related("table__pit__casino").order_by("pk"):
        zone, hour = session.table.pit.casino.time_zone, session.table.pit.casino.gaming_day_start_hour
        assignments = list(Assignment.objects.using(db).filter(session=session).order_by("started_at", "pk"))
        days = {session.gaming_day, *session_days.get(session.pk, ())}
        days |= {gaming_day_of(a.started_at, zone, hour) for a in assignments}
        if session.closed_at is not None:  # open until just before it closed
            days.add(max(session.gaming_day, gaming_day_of(session.closed_at - JUST_BEFORE, zone, hour)))
        if days == {session.gaming_day}:
            continue
        segments = _segments(sorted(days), session, zone, hour)
        history, targets = [], []
        for i, (day, opened, closed, closed_by_id) in enumerate(segments):
            if i == 0:
                session.gaming_day, session.closed_at, session.closed_by_id = day, closed, closed_by_id
                session.save(update_fields=["gaming_day", "closed_at", "closed_by"])
                target = session
            else:
                target = Session.objects.using(db).create(
                    table_id=session.table_id, gaming_day=day, opened_at=opened, opened_by_id=session.opened_by_id,
                    closed_at=closed, closed_by_id=closed_by_id, continues=targets[-1])
            history.append(_history(Session, HistoricalSession, target, kind="~" if i == 0 else "+",
                                    reason=SPLIT_REASON, at=now))
            targets.append(target)
        HistoricalSession.objects.using(db).bulk_create(history)
        _split_assignments(Assignment, db, assignments, segments, targets)
        by_day = {t.gaming_day: t.pk for t in targets}
        rows = Round.objects.using(db).filter(session_id=session.pk).values_list(
            "pk", "table_id", "recorded_at", "gaming_day")
        for pk, table_id, recorded_at, stored in rows:
            day = gaming_day_of(recorded_at, *zones[table_id])
            if by_day[day] != session.pk or day != stored:
                wrong[pk] = (by_day[day], day)

    _update_rounds(Round, HistoricalRound, db, wrong, now)


def _split_assignments(Assignment, db, assignments, segments, targets):  # noqa: N803 - a model
    """Cut each dealer assignment at the sessions' bounds: the piece in the first session it
    overlaps keeps the row, each later piece is a new row with the same dealer and assigner."""
    for a in assignments:
        first, started, ended_at = True, a.started_at, a.ended_at
        for (_day, opened, closed, _by), target in zip(segments, targets, strict=True):
            if (closed is not None and started >= closed) or (ended_at is not None and ended_at <= opened):
                continue
            ends = [t for t in (ended_at, closed) if t is not None]
            ended = min(ends) if ends else None
            if first:
                a.session_id, a.ended_at = target.pk, ended
                a.save(update_fields=["session", "ended_at"])
                first = False
            else:
                Assignment.objects.using(db).create(session_id=target.pk, dealer_id=a.dealer_id, started_at=opened,
                                                    ended_at=ended, assigned_by_id=a.assigned_by_id)


def _update_rounds(Round, HistoricalRound, db, day_of_round, now):  # noqa: N803 - models
    groups = defaultdict(list)
    for pk, key in day_of_round.items():
        groups[key].append(pk)
    for (session_id, day), pks in groups.items():
        for i in range(0, len(pks), CHUNK):
            part = pks[i:i + CHUNK]
            Round.objects.using(db).filter(pk__in=part).update(session_id=session_id, gaming_day=day)
            HistoricalRound.objects.using(db).bulk_create(
                _history(Round, HistoricalRound, r, kind="~", reason=ROUND_REASON, at=now)
                for r in Round.objects.using(db).filter(pk__in=part)
            )


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0004_tablesession_continues"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop, elidable=False),
    ]
