"""Reconcile one gaming day of N simulated rounds (default 1,000,000) on PostgreSQL with 2 workers.

``python -m tests.benchmarks.bench_reconcile [--rounds N] [--reaudit-share F] [--database NAME]``

What it does, in a scratch database it drops and creates (``--database``, else the one
named by ``BENCH_DATABASE_URL``, default ``postgres://postgres@127.0.0.1:5432/casino_bench``):

1. migrates it and builds a floor (2 pits, 12 tables of each of the five games), each table
   opened with an opener (table accounting, issue #17);
2. simulates a pool of distinct rounds per game with the engine and audits them (the same
   code that records rounds), then loads N rounds made from that pool, with their
   revisions, wagers and findings, through PostgreSQL ``COPY`` spread over one gaming day
   (see ``_load``: indexes and constraints rebuilt after the COPY, rows written frozen);
3. times the reconciliation exactly as the Celery tasks run it (plan, slices, combine,
   files) with 2 worker processes taking the slices; the same service functions the
   tasks call, in a process pool, so that no broker is needed.

Before the timing, every table's day is also kept in money as a casino keeps it (``_cash_day``):
two fills and a credit through the cage, a buy-in per ten rounds or so (cash and markers, written
in bulk), a closer, the drop and a signed count; so the report's statistical win, hold and
recorded-against-cash figures are computed over real accounting records.

Loaded revisions carry the current engine version, so the re-audit replays nothing (the
engine is deterministic per version); ``--reaudit-share 0.05`` marks that share as audited
by an older engine, so it is replayed, and reports the replay rate. The target: at most
60 s for 1,000,000 rounds with 2 workers (the re-audit of old-engine rounds is timed
separately and not part of the target).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGET_SECONDS = 60.0
DAY = date(2026, 5, 5)
GAMES = ("ante_up_21", "upcard_luck_21", "poker_or_bust", "holdem_blackjack", "blackjack_tie")


def _server_url(database: str | None = None) -> str:
    url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/casino_bench")
    return f"{url.rpartition('/')[0]}/{database}" if database else url


def _scratch_db(url: str, template: str | None = None) -> str | None:
    """(Re)create the scratch database, empty or as a copy of ``template`` (a migrated database
    nobody is connected to: the test suite's, so that its runs skip the migration); None when
    PostgreSQL is not reachable."""
    import psycopg

    base, _, name = url.rpartition("/")
    copy = f' TEMPLATE "{template}"' if template else ""
    try:
        with psycopg.connect(f"{base}/postgres", autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            for attempt in range(60):
                try:
                    conn.execute(f'CREATE DATABASE "{name}"{copy}')
                    break
                except psycopg.errors.ObjectInUse:  # another copy of the template is being made
                    if attempt == 59:
                        raise
                    time.sleep(1)
    except psycopg.OperationalError as exc:
        print(f"   skipped: PostgreSQL not reachable at {base}: {exc}")
        return None
    return url


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_reconcile")
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--reaudit-share", type=float, default=0.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--warm-seconds", type=float, default=120.0,
                        help="the workers' parent's warm-up budget, as DECISIONS_WARM_SECONDS (0: none)")
    parser.add_argument(
        "--database",
        help="scratch database name (dropped and recreated; default: the name in BENCH_DATABASE_URL)",
    )
    parser.add_argument("--template", help="a migrated database to copy instead of migrating (the test suite's)")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.inner:
        return _inner(options)
    url = _scratch_db(_server_url(options.database), options.template)
    if url is None:
        return 0
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "casino.settings"}
    # The scratch database has no replica: one named for another database would answer the marked reads.
    env.pop("DATABASE_REPLICA_URL", None)
    env.pop("CELERY_BROKER_URL", None)  # the worker pool below calls the task functions itself
    command = [
        sys.executable,
        "-m",
        "tests.benchmarks.bench_reconcile",
        "--inner",
        "--rounds",
        str(options.rounds),
        "--reaudit-share",
        str(options.reaudit_share),
        "--workers",
        str(options.workers),
        "--warm-seconds",
        str(options.warm_seconds),
    ]
    return subprocess.call(command, cwd=ROOT, env=env)


# --- inside the scratch database ----------------------------------------------------------------


def _setup():
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _floor(open_tables: bool = True):
    """The casino, its pit boss, 60 tables with their jackpot banks; each opened on ``DAY``
    with a dealer and an opener unless ``open_tables`` is false (the dealers still made)."""
    from casino.gaming_day import gaming_day_bounds
    from tables.accounting.services.inventory import inventory_open
    from tables.games import GAMES as REGISTRY
    from tests.factories import (
        CasinoFactory,
        DealerFactory,
        PitFactory,
        RulesetFactory,
        TableFactory,
        chip_set_for,
        jackpot_bank_for,
        user_with_role,
    )
    from tests.reports.helpers import _config

    casino = CasinoFactory(
        name="Bench Casino", time_zone="America/New_York", gaming_day_start_hour=6
    )
    user = user_with_role("pit_boss", username="bench", casinos=[casino])
    chip_set_for(casino)
    opens = gaming_day_bounds(DAY, casino.time_zone, casino.gaming_day_start_hour)[0] + timedelta(seconds=10)
    pits = [PitFactory(casino=casino, name=f"Pit {i}") for i in (1, 2)]
    tables = []
    for gi, game in enumerate(GAMES):
        ruleset = RulesetFactory(game=game, casino=casino, config=_config(game))
        for k in range(12):
            table = TableFactory(
                pit=pits[(gi + k) % 2],
                game=game,
                ruleset=ruleset,
                label=f"{game[:2].upper()}-{k:02d}",
                seats=6 if game == "holdem_blackjack" else 7,
                min_bet=Decimal("5.00"),  # the simulated play bets from $5
            )
            jackpot_bank_for(table)
            dealer = DealerFactory(casino=casino)
            if open_tables:
                inventory_open(table=table, dealer=dealer.pk, dealer_badge=dealer.employee_number, counts=TRAY,
                               author=user, at=opens)
            tables.append(table)
    return casino, user, tables, REGISTRY


#: A table's opening tray: 40,000.00 in chips.
TRAY = {"5": 400, "25": 320, "100": 200, "500": 20}


def _cash_day(casino, user, tables, rounds: int) -> None:
    """The money of every table's day, as the services write it (buy-ins in bulk: there are
    about a tenth as many as rounds): fills, a credit, buy-ins, the closer, the drop and a
    count signed by two counters."""
    from casino.gaming_day import gaming_day_bounds
    from tables.accounting.models import BuyIn, DropBox
    from tables.accounting.services.buyins import buy_in_record
    from tables.accounting.services.drop_boxes import drop_box_drop
    from tables.accounting.services.inventory import inventory_close
    from tables.accounting.services.soft_count import soft_count_enter, soft_count_sign
    from tables.accounting.services.transfers import (
        chip_slip_issue,
        chip_slip_receive,
        chip_slip_request,
    )
    from tests.factories import user_with_role

    started = time.perf_counter()
    start, end = gaming_day_bounds(DAY, casino.time_zone, casino.gaming_day_start_hour)
    cashier = user_with_role("cage", username="bench-cage", casinos=[casino])
    counters = [user_with_role("count", username=f"bench-count-{i}", casinos=[casino]) for i in (1, 2)]
    rng = random.Random(3)
    buy_ins = 0
    for index, table in enumerate(tables):
        session = table.sessions.get()
        dealer = session.assignments.get().dealer
        sign = {"author": user, "dealer": dealer.pk, "dealer_badge": dealer.employee_number}
        for hours, kind, counts in ((3, "fill", {"100": 50}), (9, "fill", {"25": 80}), (15, "credit", {"500": 10})):
            at = start + timedelta(hours=hours)
            slip = chip_slip_request(table=table, kind=kind, counts=counts, author=user, at=at)
            chip_slip_issue(slip=slip, author=cashier, at=at + timedelta(minutes=2))
            chip_slip_receive(slip=slip, **sign, at=at + timedelta(minutes=5))
        first = buy_in_record(table=table, seat=1, kind="cash", amount=Decimal("500"), author=user,
                              at=start + timedelta(minutes=1))
        many = rounds // len(tables) // 10
        step = (end - start - timedelta(hours=1)) / max(1, many)
        BuyIn.objects.bulk_create(
            BuyIn(casino=casino, table=table, session=session, gaming_day=DAY, seat=rng.randint(1, 5),
                  kind="marker" if rng.random() < 0.05 else "cash", amount=Decimal(100 * rng.randint(1, 20)),
                  player_identifier=f"P-{rng.randint(1, 3000)}", recorded_at=start + step * (i + 1),
                  recorded_by=user)
            for i in range(many))
        buy_ins += many + 1
        cash = sum(b.amount for b in table.buy_ins.filter(kind="cash"))
        markers = sum(b.amount for b in table.buy_ins.filter(kind="marker"))
        closing = {**TRAY, "100": TRAY["100"] + 50 - index % 7, "500": TRAY["500"] - 10}
        inventory_close(table=table, counts=closing, **sign, at=end - timedelta(seconds=20))
        box = drop_box_drop(table=table, gaming_day=first.gaming_day, author=counters[0], at=end + timedelta(hours=1))
        count = soft_count_enter(box=box, author=counters[0], currency={"100": int(cash // 100)},
                                 markers=markers, at=end + timedelta(hours=2))
        soft_count_sign(count=count, author=counters[1], at=end + timedelta(hours=2))
    boxes = DropBox.objects.filter(casino=casino, gaming_day=DAY).count()
    print(f"   kept the day's money: {len(tables)} openers and closers, {3 * len(tables)} fills and credits, "
          f"{buy_ins:,} buy-ins, {boxes} boxes counted in {time.perf_counter() - started:.1f} s")


def _pool(tables, registry, per_game: int, patrons: int = 0) -> dict:
    """Distinct simulated, audited rounds per game: canonical JSON, audit JSON, wagers, findings.

    ``patrons``: seats are given identifiers ``P-1`` to ``P-{patrons}`` (as a player's card
    is recorded at the seat), drawn apart from the play's random draws."""
    from tables.services.rounds import round_audit

    rng = random.Random(1)
    cards = random.Random(4)
    pool = {}
    for game in GAMES:
        table = next(t for t in tables if t.game == game)
        version = table.ruleset.current_version
        rules, module = version.rules(), registry[game].module
        items = []
        for _ in range(per_game):
            inject = (
                frozenset({"overpay"})
                if game != "holdem_blackjack" and rng.random() < 0.03
                else frozenset()
            )
            data = module.simulate_round(rng, rules, seats=rng.randint(2, 5), inject=inject)
            for seat in data.get("seats", []) if patrons else ():
                seat["player"] = f"P-{cards.randint(1, patrons)}"
            canonical, audit = round_audit(game=game, data=data, version=version)
            recorded = module.recorded_nets(canonical)
            players = {s["seat"]: s.get("player") or "" for s in canonical.get("seats", [])}
            wagers = [
                (
                    s.seat,
                    players.get(s.seat, ""),
                    s.wager,
                    s.hand,
                    s.line or "",
                    s.stake,
                    s.net,
                    recorded.get(s.key),
                    s.outcome,
                    s.explanation,
                )
                for s in audit.settlements
            ]
            findings = [
                (
                    f.kind,
                    f.code,
                    f.message,
                    f.path,
                    f.rule,
                    f.expected,
                    f.recorded,
                    f.amount,
                    f.seat,
                )
                for f in audit.findings
            ]
            items.append((json.dumps(canonical), json.dumps(audit.to_dict()), wagers, findings))
        pool[game] = (version.pk, items)
    return pool


#: The tables the load fills. Their secondary indexes, unique and foreign-key constraints
#: (and foreign keys from other tables into them) are dropped for the COPY and recreated
#: after it from the definitions PostgreSQL reports, so the schema ends up as migrated.
LOADED = ("tables_round", "tables_roundrevision", "tables_wager", "audit_finding")


def _copy_text(value) -> str:
    """One field in COPY's text format."""
    if value is None:
        return "\\N"
    if isinstance(value, datetime):
        return value.isoformat()
    text = str(value)
    if any(c in text for c in "\\\t\n\r"):
        text = (
            text.replace("\\", "\\\\")
            .replace("\t", "\\t")
            .replace("\n", "\\n")
            .replace("\r", "\\r")
        )
    return text


def _line(*values) -> str:
    return "\t".join(_copy_text(v) for v in values) + "\n"


def _schema_drop(cur, tables: tuple[str, ...] = LOADED) -> list[str]:
    """Drop ``tables``' secondary indexes and constraints; return the SQL that recreates them."""
    names = ", ".join(f"'{t}'::regclass" for t in tables)
    # The tables and their partitions: the composite keys are the months' own (tables/history/partitions.py).
    family = " UNION ".join(f"SELECT '{t}'::regclass UNION SELECT relid FROM pg_partition_tree('{t}')" for t in tables)
    cur.execute(
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "  # noqa: S608 - fixed names
        # conparentid: a partitioned table's constraints only, not the copies PostgreSQL keeps
        # per partition (they go and come back with them).
        f"WHERE contype IN ('f', 'u') AND conparentid = 0 AND (conrelid IN ({family}) OR confrelid IN ({family}))"
    )
    constraints = cur.fetchall()
    cur.execute(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "  # noqa: S608
        f"WHERE i.indrelid IN ({names}) AND NOT i.indisprimary "
        "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)"
    )
    indexes = cur.fetchall()
    for table, name, _ in constraints:
        cur.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
    for name, _ in indexes:
        cur.execute(f"DROP INDEX {name}")
    # A partitioned table's index reads "ON ONLY": recreated so, it would be an invalid parent
    # index with none on the partitions (every page then timed without the table's indexes).
    recreate = [definition.replace(" ON ONLY ", " ON ", 1) for _, definition in indexes]
    # Unique constraints (they bring their index) first, foreign keys after them.
    for kind in ("UNIQUE", "FOREIGN KEY"):
        recreate += [
            f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}'
            for table, name, definition in constraints
            if definition.startswith(kind)
        ]
    return recreate


def _load(casino, user, tables, pool, rounds: int, reaudit_share: float) -> None:
    """COPY the rounds in one transaction into the (empty) tables with their secondary
    indexes and constraints dropped, TRUNCATE + COPY FREEZE (rows written frozen and
    all-visible, as a vacuum would leave a closed day's rows), then rebuild the indexes and
    validate the constraints in bulk. Rows are rendered as COPY text from pre-rendered pool
    items. The data is exactly what the row-by-row loader wrote (same random draws)."""
    from django.db import connection, transaction

    from casino.gaming_day import gaming_day_bounds
    from tables.games import ENGINE_VERSION
    from tables.history.partitions import ensure_months, is_partitioned, partition_name

    start, end = gaming_day_bounds(DAY, casino.time_zone, casino.gaming_day_start_hour)
    step = (end - start - timedelta(minutes=1)) / rounds
    sessions = {t.pk: t.sessions.get().pk for t in tables}
    dealers = {t.pk: t.sessions.get().assignments.get().dealer_id for t in tables}
    rng = random.Random(2)
    day = DAY.isoformat()
    sequence = dict.fromkeys(sessions, 0)
    old = f"{ENGINE_VERSION}-old"
    started = time.perf_counter()
    # Each pool item rendered once: its wagers' and findings' fields after the ids.
    rendered = {
        game: (
            version,
            [
                (
                    _copy_text(canonical),
                    _copy_text(audit),
                    ["\t".join(_copy_text(v) for v in w) for w in wagers],
                    ["\t".join(_copy_text(v) for v in f) for f in findings],
                    len(findings),
                )
                for canonical, audit, wagers, findings in items
            ],
        )
        for game, (version, items) in pool.items()
    }
    picks = []
    round_rows = []
    for i in range(1, rounds + 1):
        table = tables[rng.randrange(len(tables))]
        sequence[table.pk] += 1
        version, items = rendered[table.game]
        index = rng.randrange(len(items))
        picks.append(items[index])
        round_rows.append(
            _line(
                i,
                table.pk,
                sessions[table.pk],
                sequence[table.pk],
                table.game,
                DAY,
                version,
                dealers[table.pk],
                user.pk,
                start + step * i,
                1,
                "active",
                "",
                items[index][4],
            )
        )
    engines = [
        old if reaudit_share and rng.random() < reaudit_share else ENGINE_VERSION
        for _ in range(rounds)
    ]
    moments = [_copy_text(start + step * i) for i in range(1, rounds + 1)]
    timings = {}
    batch = 20_000

    def copy(cur, sql: str, lines) -> None:
        t = time.perf_counter()
        with cur.copy(sql) as out:
            buffer = []
            for line in lines:
                buffer.append(line)
                if len(buffer) >= batch:
                    out.write("".join(buffer))
                    buffer.clear()
            if buffer:
                out.write("".join(buffer))
        timings[sql.split()[1]] = time.perf_counter() - t

    def revisions():
        for i, item in enumerate(picks, start=1):
            yield f"{i}\t{i}\t{day}\t1\t{item[0]}\t{item[1]}\t\t{user.pk}\t{moments[i - 1]}\t{engines[i - 1]}\n"

    def wagers():
        n = 0
        for i, item in enumerate(picks, start=1):
            for rest in item[2]:
                n += 1
                yield f"{n}\t{i}\t{i}\t{day}\t{rest}\n"

    def findings():
        n = 0
        for i, item in enumerate(picks, start=1):
            for rest in item[3]:
                n += 1
                yield f"{n}\t{i}\t{i}\t{day}\t{rest}\t\topen\t\t{moments[i - 1]}\t\n"

    timings["render"] = time.perf_counter() - started
    # Partitioned by gaming day (tables/history/partitions.py): COPY FREEZE goes to the day's
    # month partition itself (PostgreSQL refuses FREEZE through a partitioned parent).
    partitioned = is_partitioned(connection)
    if partitioned:
        ensure_months(DAY, DAY)

    def target(table: str) -> str:
        return partition_name(table, DAY) if partitioned else table

    round_cols = (
        "id, table_id, session_id, sequence, game, gaming_day, ruleset_version_id, dealer_id, "
        "recorded_by_id, recorded_at, revision, status, void_reason, open_findings"
    )
    with transaction.atomic():
        cur = connection.connection.cursor()  # psycopg 3, inside Django's transaction
        cur.execute("SET LOCAL synchronous_commit = off")  # the scratch database only
        cur.execute("SET LOCAL maintenance_work_mem = '256MB'")
        recreate = _schema_drop(cur)
        cur.execute(f"TRUNCATE {', '.join(LOADED)}")  # empty already; allows COPY FREEZE
        copy(cur, f"COPY {target('tables_round')} ({round_cols}) FROM STDIN (FREEZE)", round_rows)
        copy(
            cur,
            f"COPY {target('tables_roundrevision')} (id, round_id, gaming_day, number, data, audit, reason, "
            "author_id, created_at, engine_version) FROM STDIN (FREEZE)",
            revisions(),
        )
        copy(
            cur,
            f"COPY {target('tables_wager')} (id, revision_id, round_id, gaming_day, seat, player, wager, hand, line, stake, "
            "expected_net, recorded_net, outcome, explanation) FROM STDIN (FREEZE)",
            wagers(),
        )
        copy(
            cur,
            f"COPY {target('audit_finding')} (id, round_id, revision_id, gaming_day, kind, code, message, path, rule, expected, "
            "recorded, amount, seat, player, status, review_note, created_at, reopened_reason) FROM STDIN (FREEZE)",
            findings(),
        )
        t = time.perf_counter()
        for sql in recreate:
            cur.execute(sql)
        timings["indexes and constraints"] = time.perf_counter() - t
        t = time.perf_counter()
        for table in LOADED:
            cur.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"  # noqa: S608 - fixed table names
            )
            cur.execute(f"ANALYZE {table}")
        timings["analyze"] = time.perf_counter() - t
    wagers_count = sum(len(item[2]) for item in picks)
    print(
        f"   loaded {rounds:,} rounds, {wagers_count:,} wagers with COPY in {time.perf_counter() - started:.1f} s ("
        + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items())
        + ")"
    )


def _chunk(chunk_id: int) -> float:
    from django.db import connection

    from audit.reports.services.runs import report_chunk_run

    started = time.perf_counter()
    if profile_dir := os.environ.get("BENCH_PROFILE"):
        # Where a slice's time goes: one cProfile file per slice (read with pstats).
        import cProfile

        cProfile.runctx("report_chunk_run(chunk_id=chunk_id)", globals(), locals(),
                        f"{profile_dir}/slice-{chunk_id}.prof")
    else:
        report_chunk_run(chunk_id=chunk_id)
    connection.close()
    return time.perf_counter() - started


def _price() -> tuple[int, float]:
    """One worker's share of the decisions' pricing queued by the re-audit (as beat's task runs it)."""
    from django.db import connection

    from audit.decisions.pricing import price_pending

    started = time.perf_counter()
    taken = 0
    while got := price_pending():
        taken += got
    connection.close()
    return taken, time.perf_counter() - started


def _price_worker(_index: int) -> tuple[int, float]:
    return _price()


def _worker_init() -> None:
    import django

    django.setup()


def _inner(options) -> int:
    import multiprocessing

    _setup()
    from django.conf import settings
    from django.db import connection

    from audit.reports.models import DailyReport, ReportLine
    from audit.reports.services import runs

    settings.REPORTS_ROOT = Path(settings.VAR_DIR) / "bench-reports"
    casino, user, tables, registry = _floor()
    started = time.perf_counter()
    pool = _pool(tables, registry, per_game=400)
    print(
        f"   simulated and audited a pool of {5 * 400} distinct rounds in {time.perf_counter() - started:.1f} s"
    )
    _load(casino, user, tables, pool, options.rounds, options.reaudit_share)
    _cash_day(casino, user, tables, options.rounds)
    connection.close()

    # As a Celery worker's main process does before it forks its pool (audit/decisions/tasks.py,
    # DECISIONS_WARM_SECONDS): the children then price the replayed rounds warm. Timed apart:
    # a worker does it once when it starts, not per report.
    from audit.decisions.pricing import warm_tables
    from casino.collector import freeze_long_lived

    tw = time.perf_counter()
    warmed = warm_tables(budget=options.warm_seconds) if options.warm_seconds > 0 else []
    connection.close()
    freeze_long_lived()
    print(f"   the workers' parent warmed the decisions' tables of {len(warmed)} rulesets in "
          f"{time.perf_counter() - tw:.1f} s (once per worker start)")
    report = DailyReport.objects.create(casino=casino, gaming_day=DAY, runs=1)
    t0 = time.perf_counter()
    chunk_ids = runs.report_plan(report_id=report.pk, run_id=str(report.run_id))
    t1 = time.perf_counter()
    connection.close()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(options.workers, initializer=_worker_init) as workers:
        chunk_seconds = workers.map(_chunk, chunk_ids, chunksize=1)
    t2 = time.perf_counter()
    runs.report_combine(report_id=report.pk, run_id=str(report.run_id))
    t3 = time.perf_counter()
    report.refresh_from_db()
    floor = ReportLine.objects.get(report=report, level="floor")
    total = t3 - t0
    replayed = report.summary["reaudit"]["replayed"]
    print(
        f"   status {report.status}; {floor.rounds:,} rounds, handle {floor.handle}, win {floor.win}, hold of "
        f"handle {floor.handle_hold_pct}%; drop {floor.drop}, statistical win {floor.stat_win}, hold "
        f"{floor.drop_hold_pct}%"
    )
    print(
        f"   plan {t1 - t0:.1f} s, {len(chunk_ids)} slices on {options.workers} workers {t2 - t1:.1f} s "
        f"(slice mean {sum(chunk_seconds) / max(1, len(chunk_seconds)):.2f} s), combine + files {t3 - t2:.1f} s"
    )
    tenth = max(1, len(chunk_seconds) // 10)
    print(f"   slices in plan order: the first tenth {sum(chunk_seconds[:tenth]) / tenth:.2f} s each, the last tenth "
          f"{sum(chunk_seconds[-tenth:]) / tenth:.2f} s, fastest {min(chunk_seconds):.2f} s, slowest "
          f"{max(chunk_seconds):.2f} s")
    if replayed:
        print(
            f"   re-audit replayed {replayed:,} old-engine rounds "
            f"({replayed / (t2 - t1):,.0f} rounds/s over both workers, slices included)"
        )
    print(
        f"   reconciliation of {options.rounds:,} rounds: {total:.1f} s (target {TARGET_SECONDS:.0f} s for 1,000,000)"
    )
    from audit.decisions.models import DecisionPending

    queued = DecisionPending.objects.count()
    connection.close()
    from audit.decisions.models import SeatDecisions

    print(f"   decisions' prices stored by the slices: {SeatDecisions.objects.count():,} seat rows; "
          f"left queued: {queued:,} rounds")
    if queued:
        # What the slices' own pricing left queued (a failure): the workers' pass prices it, as beat's task.
        t4 = time.perf_counter()
        with ctx.Pool(options.workers, initializer=_worker_init) as workers:
            shares = workers.map(_price_worker, range(options.workers), chunksize=1)
        t5 = time.perf_counter()
        priced = sum(n for n, _ in shares)
        print(
            f"   decisions' prices of {priced:,} queued rounds on {options.workers} workers: {t5 - t4:.1f} s "
            f"({priced / (t5 - t4):,.0f} rounds/s; the workers' strategy tables cold); re-audit and pricing "
            f"together {t2 - t1 + t5 - t4:.1f} s"
        )
    if report.status != DailyReport.DONE:
        print(f"   FAILED: {report.error}")
        return 1
    target = TARGET_SECONDS * max(1.0, options.rounds / 1_000_000)
    return 0 if total <= target else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
