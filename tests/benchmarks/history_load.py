"""Loading many gaming days of rounds with PostgreSQL COPY, for ``bench_history``.

Each loaded table's columns are listed once, in :data:`COLUMNS`, with the field of a row's
context each is written from (a ``str.format`` template). A column added to one of these
tables by a migration is one line here, e.g. ``("gaming_day", "{day}")``: every row's
context carries its round's gaming day, table, session and time.

The rows are what the recording service writes (``tables/services/rounds.py``): a round
with its "+" history row, its first revision (canonical and audit JSON from the engine),
its wagers and findings with their "+" history rows; a corrected round also has a second
revision (the first revision's findings superseded, a "~" history row each) and a voided
round its void. Findings of days before the last few are reviewed (confirmed, dismissed
or escalated, with a "~" history row each), as surveillance leaves them.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from tests.benchmarks.bench_reconcile import _copy_text

ROOT = Path(__file__).resolve().parents[2]

_ROUND = (
    ("id", "{round}"),
    ("table_id", "{table}"),
    ("session_id", "{session}"),
    ("sequence", "{sequence}"),
    ("game", "{game}"),
    ("gaming_day", "{day}"),
    ("ruleset_version_id", "{version}"),
    ("dealer_id", "{dealer}"),
    ("recorded_by_id", "{user}"),
    ("recorded_at", "{at}"),
    ("revision", "{revision}"),
    ("status", "{status}"),
    ("void_reason", "{void_reason}"),
    ("voided_by_id", "{voided_by}"),
    ("voided_at", "{voided_at}"),
    ("open_findings", "{open_findings}"),
)
_FINDING = (
    ("id", "{finding}"),
    ("round_id", "{round}"),
    ("revision_id", "{revision_id}"),
    # The engine's fields, in the pool's order (bench_reconcile._pool).
    ("kind, code, message, path, rule, expected, recorded, amount, seat", "{fields}"),
    ("player", "{player}"),
    ("status", "{status}"),
    ("review_note", "{review_note}"),
    ("reviewed_by_id", "{reviewed_by}"),
    ("reviewed_at", "{reviewed_at}"),
    ("reopened_at", "\\N"),
    ("reopened_reason", ""),
    ("created_at", "{created_at}"),
    ("gaming_day", "{day}"),
)
#: simple-history's columns after the model's own.
_HISTORY = (
    ("history_id", "{history_id}"),
    ("history_date", "{history_date}"),
    ("history_change_reason", "{history_reason}"),
    ("history_type", "{history_type}"),
    ("history_user_id", "{history_user}"),
)

COLUMNS: dict[str, tuple[tuple[str, str], ...]] = {
    "tables_round": _ROUND,
    "tables_historicalround": _ROUND + _HISTORY,
    "tables_roundrevision": (
        ("id", "{revision_id}"),
        ("round_id", "{round}"),
        ("number", "{number}"),
        ("data", "{data}"),
        ("audit", "{audit}"),
        ("reason", "{reason}"),
        ("author_id", "{user}"),
        ("created_at", "{created_at}"),
        ("engine_version", "{engine}"),
        ("gaming_day", "{day}"),
    ),
    "tables_wager": (
        ("id", "{wager}"),
        ("revision_id", "{revision_id}"),
        ("round_id", "{round}"),
        # The settlement's fields, in the pool's order (bench_reconcile._pool).
        ("seat, player, wager, hand, line, stake, expected_net, recorded_net, outcome, explanation", "{fields}"),
        ("gaming_day", "{day}"),
    ),
    "audit_finding": _FINDING,
    "audit_historicalfinding": _FINDING + _HISTORY,
}

#: The loaded tables, in the order they are written (referenced before referencing).
LOADED = tuple(COLUMNS)

#: Shares of rounds corrected (a second revision) and voided; of a reviewed day's findings,
#: how surveillance decided them; how many of the newest days are still being reviewed.
CORRECTED, VOIDED = 0.01, 0.003
DECISIONS = (("confirmed", 0.70), ("dismissed", 0.25), ("escalated", 0.05))
REVIEW_LAG_DAYS = 3


def copy_sql(table: str, *, freeze: bool) -> str:
    names = ", ".join(name for name, _ in COLUMNS[table])
    return f"COPY {table} ({names}) FROM STDIN" + (" (FREEZE)" if freeze else "")


def line_template(table: str) -> str:
    return "\t".join(template for _, template in COLUMNS[table]) + "\n"


def ensure_partitions(first_day: date, last_day: date) -> str | None:
    """Call the project's ``ensure_months(first_day, last_day)`` (partitions by gaming day)
    when a module under ``tables/`` defines one; the module's name, else None."""
    import importlib

    for path in sorted((ROOT / "tables").rglob("*.py")):
        if re.search(r"^def ensure_months\(", path.read_text(encoding="utf-8"), re.MULTILINE):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            importlib.import_module(name).ensure_months(first_day, last_day)
            return name
    return None


@dataclass
class Floor:
    casino: object
    user: object  # the pit boss who records
    reviewer: object  # surveillance
    tables: list
    dealers: list
    #: (table id, gaming day) -> (session id, dealer id)
    sessions: dict = field(default_factory=dict)


def sessions_ensure(floor: Floor, days: list[date], today: date) -> None:
    """A session per table and day with its dealer, as the tablet opens and closes them
    (the current day's left open); only the days not made yet."""
    from casino.gaming_day import gaming_day_bounds
    from tables.models import DealerAssignment, TableSession

    casino = floor.casino
    new = [d for d in days if (floor.tables[0].pk, d) not in floor.sessions]
    sessions, dealers = [], []
    for day in new:
        start, end = gaming_day_bounds(day, casino.time_zone, casino.gaming_day_start_hour)
        rng = random.Random(day.toordinal())
        on_duty = rng.sample(floor.dealers, len(floor.tables))
        for table, dealer in zip(floor.tables, on_duty, strict=True):
            closed = day < today
            sessions.append(TableSession(
                table=table, gaming_day=day, opened_at=start + timedelta(seconds=10), opened_by=floor.user,
                closed_at=end - timedelta(seconds=10) if closed else None, closed_by=floor.user if closed else None))
            dealers.append(dealer)
    TableSession.objects.bulk_create(sessions, batch_size=2000)
    DealerAssignment.objects.bulk_create(
        [DealerAssignment(session=s, dealer=d, started_at=s.opened_at, ended_at=s.closed_at, assigned_by=floor.user)
         for s, d in zip(sessions, dealers, strict=True)], batch_size=2000)
    for s, d in zip(sessions, dealers, strict=True):
        floor.sessions[(s.table_id, s.gaming_day)] = (s.pk, d.pk)


@dataclass
class Plan:
    """What to load: ``per_day`` rounds on each of ``days`` (oldest first), the newest being
    ``today`` (recorded up to ``now``)."""

    days: list[date]
    per_day: int
    today: date
    now: datetime
    #: Players ``P-1`` .. ``P-{players}`` take the seats for a stint of :data:`STINT` of the
    #: table's rounds each (0: the pool rounds' own identifiers, drawn afresh every round).
    players: int = 0
    #: Days that hold another number of rounds than ``per_day`` (the busiest property's day).
    rounds_on: dict = field(default_factory=dict)

    def rounds(self, day: date) -> int:
        return self.rounds_on.get(day, self.per_day)

    @property
    def total(self) -> int:
        return sum(self.rounds(day) for day in self.days)


#: How many of a table's rounds a player stays on a seat before another sits down: at the
#: bench's 13,700 rounds a day on 60 tables (about 9.5 a table an hour) 25 minutes to 3 hours,
#: the rating sessions of a real floor. Drawn per round, a player changed tables every round:
#: each of their ~32 rounds a day was a session of its own.
STINT = (4, 30)
_PLAYER = re.compile(r"P-[0-9]+")


def _render_pool(pool: dict) -> dict:
    """Each pool item's COPY text once: canonical, audit, wagers' fields, findings' (fields, player)."""
    rendered = {}
    for game, (version, items) in pool.items():
        out = []
        for canonical, audit, wagers, findings in items:
            players = {w[0]: w[1] for w in wagers}
            out.append((
                _copy_text(canonical),
                _copy_text(audit),
                ["\t".join(_copy_text(v) for v in w) for w in wagers],
                [("\t".join(_copy_text(v) for v in f), _copy_text(players.get(f[8], ""))) for f in findings],
            ))
        clean = [i for i, item in enumerate(out) if not item[3]] or list(range(len(out)))
        rendered[game] = (version, out, clean)
    return rendered


def _rows(floor: Floor, rendered: dict, plan: Plan, engine: str):
    """Every row's context, in id order, per round: (round context, revisions, findings).

    Deterministic per gaming day (its own random draws), so a day loads the same rounds
    whatever range it is loaded in."""
    from casino.gaming_day import gaming_day_bounds

    casino = floor.casino
    user, reviewer = floor.user.pk, floor.reviewer.pk
    ids = {"round": 0, "revision": 0, "wager": 0, "finding": 0, "hround": 0, "hfinding": 0}
    sequence = {t.pk: 0 for t in floor.tables}
    for day in plan.days:
        rng = random.Random(day.toordinal() * 7919)
        seated: dict[tuple[int, int], list] = {}  # (table, seat) -> [player, rounds left]
        start, end = gaming_day_bounds(day, casino.time_zone, casino.gaming_day_start_hour)
        last = min(end, plan.now) - timedelta(minutes=1)
        count = plan.rounds(day)
        step = (last - start - timedelta(minutes=1)) / count
        reviewed_day = (plan.today - day).days > REVIEW_LAG_DAYS
        for i in range(1, count + 1):
            table = floor.tables[rng.randrange(len(floor.tables))]
            sequence[table.pk] += 1
            version, items, clean = rendered[table.game]
            item = items[rng.randrange(len(items))]
            if plan.players:
                item = _seated(item, table.pk, seated, rng, plan.players)
            at = start + timedelta(minutes=1) + step * i
            draw = rng.random()
            corrected, voided = draw < CORRECTED, CORRECTED <= draw < CORRECTED + VOIDED
            session, dealer = floor.sessions[(table.pk, day)]
            ids["round"] += 1
            rnd = {"round": ids["round"], "table": table.pk, "session": session, "sequence": sequence[table.pk],
                   "game": table.game, "day": day, "version": version, "dealer": dealer, "user": user,
                   "at": _copy_text(at), "revision": 1, "status": "active", "void_reason": "",
                   "voided_by": "\\N", "voided_at": "\\N", "open_findings": len(item[3])}
            history = [{**rnd, "history_type": "+", "history_date": rnd["at"], "history_reason": "recorded",
                        "history_user": user}]
            revisions = [(1, item, at, "")]
            if corrected:
                fixed = items[clean[rng.randrange(len(clean))]]
                if plan.players:
                    fixed = _seated(fixed, table.pk, seated, rng, plan.players, stay=True)
                revisions.append((2, fixed, at + timedelta(minutes=3),
                                  "dealer's recorded pay keyed wrong"))
            changed_at = at + timedelta(minutes=3)
            findings = []
            for number, it, made, reason in revisions:
                ids["revision"] += 1
                revision_id = ids["revision"]
                superseded = (corrected and number == 1) or voided
                for fields, player in it[3]:
                    ids["finding"] += 1
                    finding = {"finding": ids["finding"], "round": rnd["round"], "revision_id": revision_id,
                               "fields": fields, "player": player, "status": "open", "review_note": "",
                               "reviewed_by": "\\N", "reviewed_at": "\\N", "created_at": _copy_text(made),
                               "day": day}
                    rows = [{**finding, "history_type": "+", "history_date": finding["created_at"],
                             "history_reason": f"corrected: {reason}" if reason else "recorded",
                             "history_user": user}]
                    if superseded:
                        why = "voided: misdeal" if voided else "corrected: dealer's recorded pay keyed wrong"
                        finding["status"] = "superseded"
                        rows.append({**finding, "history_type": "~", "history_date": _copy_text(changed_at),
                                     "history_reason": why, "history_user": user})
                    elif reviewed_day or rng.random() < 0.5:
                        pick, decision = rng.random(), DECISIONS[-1][0]
                        for status, share in DECISIONS:
                            if pick < share:
                                decision = status
                                break
                            pick -= share
                        when = _copy_text(made + timedelta(hours=rng.randint(1, 30)))
                        finding.update(status=decision, review_note=f"{decision} on the video", reviewed_by=reviewer,
                                       reviewed_at=when)
                        rows.append({**finding, "history_type": "~", "history_date": when,
                                     "history_reason": f"review: {decision}", "history_user": reviewer})
                    findings.append((finding, rows))
            current = [f for f, _ in findings if f["revision_id"] == ids["revision"]]
            if corrected:
                rnd["revision"] = 2
                history.append({**rnd, "open_findings": len(revisions[1][1][3]), "history_type": "~",
                                "history_date": _copy_text(changed_at),
                                "history_reason": "corrected: dealer's recorded pay keyed wrong",
                                "history_user": user})
            if voided:
                rnd.update(status="voided", void_reason="misdeal", voided_by=user, voided_at=_copy_text(changed_at))
                history.append({**rnd, "open_findings": 0, "history_type": "~", "history_date": rnd["voided_at"],
                                "history_reason": "voided: misdeal", "history_user": user})
            rnd["open_findings"] = sum(f["status"] == "open" for f in current)
            for h in history:
                ids["hround"] += 1
                h["history_id"] = ids["hround"]
            for _, rows in findings:
                for h in rows:
                    ids["hfinding"] += 1
                    h["history_id"] = ids["hfinding"]
            first_revision = ids["revision"] - len(revisions) + 1
            yield rnd, history, [
                {"revision_id": first_revision + k, "round": rnd["round"], "number": number, "data": it[0],
                 "audit": it[1], "reason": reason, "user": user, "created_at": _copy_text(made), "engine": engine,
                 "wagers": it[2], "day": rnd["day"]}
                for k, (number, it, made, reason) in enumerate(revisions)
            ], findings


def _seated(item, table_id: int, seated: dict, rng, players: int, *, stay: bool = False):
    """``item`` with the identifiers of the players sitting at ``table_id``'s seats now: a seat
    keeps its player for a stint, then another of ``players`` sits down (``stay``: a correction
    of the round just dealt, the same players)."""
    canonical, audit, wagers, findings = item
    seats = {}
    for line in wagers:
        seat, player = line.split("\t", 2)[:2]
        if player and seat not in seats:
            seats[seat] = player
    names = {}
    for seat, old in seats.items():
        here = seated.get((table_id, seat))
        if here is None or (here[1] <= 0 and not stay):
            here = seated[(table_id, seat)] = [f"P-{rng.randint(1, players)}", rng.randint(*STINT)]
        if not stay:
            here[1] -= 1
        names[old] = here[0]

    def swap(text: str) -> str:
        return _PLAYER.sub(lambda m: names.get(m.group(0), m.group(0)), text)

    return (swap(canonical), audit, [swap(line) for line in wagers], [(f, names.get(p, p)) for f, p in findings])


def _lines(table: str, rows_of):
    """The COPY text of ``table``'s rows from a fresh pass over the plan."""
    template = line_template(table)
    fmt = template.format_map
    wager = {"tables_wager": 0}
    for rnd, history, revisions, findings in rows_of():
        if table == "tables_round":
            yield fmt(rnd)
        elif table == "tables_historicalround":
            for h in history:
                yield fmt(h)
        elif table == "tables_roundrevision":
            for r in revisions:
                yield fmt(r)
        elif table == "tables_wager":
            for r in revisions:
                for fields in r["wagers"]:
                    wager["tables_wager"] += 1
                    yield fmt({**r, "wager": wager["tables_wager"], "fields": fields})
        elif table == "audit_finding":
            for f, _ in findings:
                yield fmt(f)
        elif table == "audit_historicalfinding":
            for _, rows in findings:
                for h in rows:
                    yield fmt(h)


def _schema_drop(cur) -> list[str]:
    from tests.benchmarks import bench_reconcile

    return bench_reconcile._schema_drop(cur, LOADED)


def derived_tables() -> list[str]:
    """The tables kept from the rounds as they are recorded (rebuilt by their commands)."""
    from audit.advantage.models import CountLine, DayChange, DayResult, DayResultPlayer
    from audit.ratings.models import RatingDay, RatingSession
    from audit.rollups.writer import SHAPES

    return [m._meta.db_table for m in (*SHAPES, RatingSession, RatingDay, CountLine, DayChange, DayResultPlayer,
                                       DayResult)]


def load(floor: Floor, pool: dict, plan: Plan) -> dict:
    """Replace the loaded tables' rows with the plan's (one transaction: TRUNCATE, COPY,
    indexes and constraints rebuilt, ANALYZE); the seconds each step took and the row counts."""
    from django.db import connection, transaction

    from tables.games import ENGINE_VERSION

    started = time.perf_counter()
    rendered = _render_pool(pool)
    partitions = ensure_partitions(plan.days[0], plan.days[-1])
    timings: dict[str, float] = {}
    counts: dict[str, int] = {}

    def rows_of():
        return _rows(floor, rendered, plan, ENGINE_VERSION)

    with transaction.atomic():
        cur = connection.connection.cursor()  # psycopg 3, inside Django's transaction
        cur.execute("SET LOCAL synchronous_commit = off")  # the scratch database only
        cur.execute("SET LOCAL maintenance_work_mem = '512MB'")
        recreate = _schema_drop(cur)
        cur.execute(f"TRUNCATE {', '.join(LOADED)}")
        # What is derived from the rounds goes with them; the bench rebuilds it after the load.
        cur.execute(f"TRUNCATE {', '.join(derived_tables())}")
        for table in LOADED:
            # COPY FREEZE (rows written as a vacuum leaves a closed day's) refuses a partitioned table.
            cur.execute("SELECT relkind FROM pg_class WHERE oid = %s::regclass", [table])
            freeze = cur.fetchone()[0] != "p"
            t, n = time.perf_counter(), 0
            with cur.copy(copy_sql(table, freeze=freeze)) as out:
                buffer = []
                for line in _lines(table, rows_of):
                    buffer.append(line)
                    if len(buffer) >= 20_000:
                        out.write("".join(buffer))
                        n += len(buffer)
                        buffer.clear()
                out.write("".join(buffer))
                n += len(buffer)
            counts[table], timings[table] = n, time.perf_counter() - t
        t = time.perf_counter()
        for sql in recreate:
            cur.execute(sql)
        timings["indexes and constraints"] = time.perf_counter() - t
        t = time.perf_counter()
        for table in LOADED:
            id_column = "history_id" if "historical" in table else "id"
            cur.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{id_column}'), "  # noqa: S608 - fixed names
                f"(SELECT coalesce(max({id_column}), 0) + 1 FROM {table}), false)"
            )
            cur.execute(f"ANALYZE {table}")
        timings["analyze"] = time.perf_counter() - t
    if partitions:
        # Partitions are loaded without FREEZE: the vacuum a closed day's rows get.
        t = time.perf_counter()
        with connection.cursor() as cur:
            for table in LOADED:
                cur.execute(f"VACUUM (ANALYZE) {table}")
        timings["vacuum"] = time.perf_counter() - t
    timings["total"] = time.perf_counter() - started
    return {"timings": timings, "counts": counts, "partitions": partitions}
