"""Ingest benchmark: simulated rounds POSTed over HTTP to gunicorn on PostgreSQL.

What it does, on a scratch database it creates (``casino_bench_ingest``):

1. migrates, loads the demo floor, adds tables so that ``--tables-per-game`` (4) of each
   game are open (20 tables; a casino floor has many, and rounds at one table are
   recorded one at a time, under the table's lock);
2. simulates the rounds to send (not timed), 1 to 7 seats each, all five games;
3. starts gunicorn with the production configuration (``deploy/gunicorn.conf.py``;
   ``--workers`` x ``--threads``) and, from a separate load process,
   ``--clients`` concurrent clients POST the rounds with Idempotency-Keys for
   ``--seconds`` seconds (after a warm-up), recording each request's latency; each
   request has its own connection, as nginx sends them upstream (``--keep-alive``: the
   clients ask to keep theirs, which the production configuration declines);
4. copies out every row the run wrote (rounds, revisions, wagers, findings, history,
   idempotency keys) and times loading the same rows with plain psycopg ``COPY`` into
   empty copies of those tables, to report the ratio.

Targets (issue #5): at least 200 rounds/s sustained, p99 at most 150 ms. The machine is
shared with the load generator (2 cores), which is stated in the output.

    .venv/bin/python tests/benchmarks/bench_ingest.py [--seconds 30] [--clients 8] [--workers 3] [--threads 2]
        [--keep-alive]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DB_NAME = "casino_bench_ingest"
ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DB_URL = ADMIN_URL.rsplit("/", 1)[0] + f"/{DB_NAME}"
TARGET_RATE, TARGET_P99_MS = 200.0, 150.0
COPIED_TABLES = ("tables_round", "tables_historicalround", "tables_roundrevision", "tables_wager",
                 "audit_finding", "tables_idempotencykey")

SETUP = """
from casino.tokens import api_token_issue
from django.contrib.auth import get_user_model
from tables.models import Dealer, Table
from casino.demo.floor import demo_floor_load
from tables.services.sessions import table_session_current, table_session_open
from audit.jackpots.models import JackpotBankTable
from audit.jackpots.services import jackpot_bank_table_add
demo_floor_load()
boss = get_user_model().objects.get(username="pitboss")
manager = get_user_model().objects.get(username="manager")
banks = {m.table_id: m.bank for m in JackpotBankTable.objects.all()}
for demo in list(Table.objects.order_by("label")):
    for n in range(1, TABLES_PER_GAME):
        copy = Table.objects.create(pit=demo.pit, label=f"{demo.label}-{n}", game=demo.game, ruleset=demo.ruleset,
                                    seats=demo.seats, min_bet=demo.min_bet, max_bet=demo.max_bet)
        if demo.pk in banks:  # a table taking Taxpayer's Fortune markers opens only in a bank
            jackpot_bank_table_add(bank=banks[demo.pk], table=copy, author=manager, reason="bench")
tables = {}
for i, table in enumerate(Table.objects.order_by("label")):
    if table_session_current(table) is None:
        dealer = Dealer.objects.create(casino=table.pit.casino, employee_number=f"B{i}", name=f"Bench Dealer {i}")
        table_session_open(table=table, dealer=dealer, author=boss)
    tables.setdefault(table.game, []).append(table.pk)
print("BENCH", api_token_issue(user=boss, author=None, name="bench_ingest", days=1)[1], __import__("json").dumps(tables))
"""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL",)}
    env.update(DATABASE_URL=DB_URL, DEBUG="false", DJANGO_ENV="development", LOG_LEVEL="WARNING")
    return env


def _psql(sql: str, url: str = ADMIN_URL) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


def prepare(tables_per_game: int) -> tuple[str, dict[str, list[int]]]:
    _psql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
    _psql(f"CREATE DATABASE {DB_NAME}")
    run = {"cwd": ROOT, "env": _env(), "check": True, "capture_output": True, "text": True}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], **run)
    setup = SETUP.replace("TABLES_PER_GAME", str(tables_per_game))
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", setup], **run).stdout
    line = next(line for line in out.splitlines() if line.startswith("BENCH "))
    _, token, tables = line.split(" ", 2)
    return token, json.loads(tables)


def simulate(tables: dict[str, list[int]], count: int, seed: int) -> list[bytes]:
    from tables.games import GAMES

    rng = random.Random(seed)
    games = sorted(tables)
    bodies = []
    for i in range(count):
        game = GAMES[games[i % len(games)]]
        rules = game.default_rules()
        seats = rng.randint(1, 7) if game.key != "holdem_blackjack" else rng.randint(2, 6)
        data = game.module.simulate_round(rng, rules, seats=seats)
        bodies.append(json.dumps({"table": rng.choice(tables[game.key]), "round": data}).encode())
    return bodies


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _client(port: int, token: str, bodies: list[bytes], start: float, warmup: float, stop: float, out,
            keep_alive: bool) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    latencies, errors, i = [], 0, 0
    # Behind nginx (deploy/nginx/casino.conf) gunicorn gets a new connection per request.
    connection = {} if keep_alive else {"Connection": "close"}
    while True:
        now = time.monotonic()
        if now >= stop:
            break
        body = bodies[i % len(bodies)]
        i += 1
        headers = {"Content-Type": "application/json", "Authorization": f"Token {token}",
                   "Idempotency-Key": str(uuid.uuid4()), **connection}
        t0 = time.perf_counter()
        conn.request("POST", "/api/v1/rounds/", body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        elapsed = time.perf_counter() - t0
        if response.status != 201:
            errors += 1
        elif time.monotonic() >= start + warmup:
            latencies.append(elapsed)
    out.put((latencies, errors))


def load(port: int, token: str, bodies: list[bytes], clients: int, seconds: float, warmup: float,
         keep_alive: bool = False) -> dict:
    """The separate load process: ``clients`` processes, sending one request at a time."""
    queue: multiprocessing.Queue = multiprocessing.Queue()
    start = time.monotonic()
    stop = start + warmup + seconds
    share = [bodies[i::clients] for i in range(clients)]
    procs = [multiprocessing.Process(target=_client, args=(port, token, share[i], start, warmup, stop, queue, keep_alive))
             for i in range(clients)]
    for p in procs:
        p.start()
    results = [queue.get() for _ in procs]
    for p in procs:
        p.join()
    latencies = sorted(x for r, _ in results for x in r)
    errors = sum(e for _, e in results)
    if not latencies:
        return {"rate": 0.0, "errors": errors, "count": 0}
    pct = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000  # noqa: E731
    return {"count": len(latencies), "errors": errors, "rate": len(latencies) / seconds,
            "p50_ms": pct(0.50), "p95_ms": pct(0.95), "p99_ms": pct(0.99), "mean_ms": statistics.mean(latencies) * 1000}


def cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by gunicorn (its master and workers) and by this machine's
    PostgreSQL (every ``postgres`` process, with the children the postmaster has reaped: the
    backends of closed connections), from /proc; {} where there is no /proc. Read around the
    timed run, it says where a recorded round's CPU goes on a machine the load shares."""
    if not Path("/proc/self/stat").exists():
        return {}
    tick = os.sysconf("SC_CLK_TCK")
    out = {"gunicorn": 0.0, "postgres": 0.0}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            comm = Path(f"/proc/{pid}/comm").read_text().strip()
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # a process gone meanwhile
            continue
        # utime, stime, and the reaped children's cutime, cstime (fields 14-17 of stat(5))
        used = sum(int(f) for f in fields[11:15]) / tick
        if comm == "postgres":
            out["postgres"] += used
        elif b"gunicorn" in command:
            out["gunicorn"] += used
    return out


def copy_ratio() -> dict:
    """Time loading the rows the run wrote with plain COPY into empty copies of the tables."""
    import psycopg

    rows, copy_seconds = 0, 0.0
    with psycopg.connect(DB_URL, autocommit=True) as conn:
        for table in COPIED_TABLES:
            buffer = bytearray()
            # A query, not the table: PostgreSQL copies no partitioned table by name (issue #20).
            with conn.cursor().copy(f"COPY (SELECT * FROM {table}) TO STDOUT") as copy:
                for chunk in copy:
                    buffer += chunk
            count = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            rows += count
            conn.execute(f"DROP TABLE IF EXISTS bench_copy_{table}")
            conn.execute(f"CREATE TABLE bench_copy_{table} (LIKE {table} INCLUDING ALL)")
            t0 = time.perf_counter()
            with conn.transaction(), conn.cursor().copy(f"COPY bench_copy_{table} FROM STDIN") as copy:
                copy.write(bytes(buffer))
            copy_seconds += time.perf_counter() - t0
            conn.execute(f"DROP TABLE bench_copy_{table}")
    return {"rows": rows, "copy_seconds": copy_seconds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (production default: cores + 1)")
    parser.add_argument("--threads", type=int, default=2, help="threads per worker (production default: 2)")
    parser.add_argument("--rounds", type=int, default=3000, help="distinct simulated rounds to cycle through")
    parser.add_argument("--tables-per-game", type=int, default=4,
                        help="open tables of each game (rounds at one table are recorded one at a time)")
    parser.add_argument("--keep-alive", action="store_true",
                        help="clients ask to keep their connection to gunicorn (by default each request has its "
                             "own connection, as behind nginx; the production configuration closes kept "
                             "connections, which would stay with the worker that accepted them)")
    args = parser.parse_args(argv)
    try:
        token, tables = prepare(args.tables_per_game)
    except Exception as exc:  # noqa: BLE001 - a benchmark that cannot start says why
        print(f"ingest: cannot prepare the PostgreSQL benchmark database ({exc}); is PostgreSQL running?")
        return 1
    bodies = simulate(tables, args.rounds, seed=5)
    port = _free_port()
    (ROOT / "var").mkdir(exist_ok=True)
    access_log = (ROOT / "var" / "bench-ingest-gunicorn.log").open("w")  # its access log, as journald would keep
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "casino.wsgi:application", "-c", "deploy/gunicorn.conf.py",
         "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env={**_env(), "GUNICORN_WORKERS": str(args.workers), "GUNICORN_THREADS": str(args.threads)},
        stdout=access_log, stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.2)
        # The warm-up, then statistics, then the timed run. On a live floor autovacuum analyzes a
        # month's partitions within a minute of its first rounds (autovacuum_naptime); on this new
        # database nothing has been analyzed, and a never-analyzed partition of rounds gets its key
        # checks planned on the day's index, reading every round of the day per wager written
        # (tables/history/partitions.py). Timing that would time the first minute of a month.
        load(port, token, bodies, args.clients, args.warmup, 0.0, args.keep_alive)
        _psql("ANALYZE", DB_URL)
        cpu_before = cpu_seconds()
        result = load(port, token, bodies, args.clients, args.seconds, 0.0, args.keep_alive)
        cpu_after = cpu_seconds()
    finally:
        server.terminate()
        server.wait(timeout=30)
    copy = copy_ratio()
    total_seconds = args.seconds + args.warmup
    print(f"ingest: gunicorn {args.workers}x{args.threads} threads on PostgreSQL, {args.clients} clients, "
          f"{os.cpu_count()} cores shared with the load generator")
    if not result["count"]:
        print(f"ingest: no successful request ({result['errors']} errors)")
        return 1
    print(f"ingest: {result['count']} rounds in {args.seconds:.0f} s = {result['rate']:.0f} rounds/s "
          f"(target {TARGET_RATE:.0f}); latency p50 {result['p50_ms']:.0f} ms, p95 {result['p95_ms']:.0f} ms, "
          f"p99 {result['p99_ms']:.0f} ms (target {TARGET_P99_MS:.0f}); {result['errors']} errors")
    if cpu_after and result["count"]:
        per_round = {k: (cpu_after[k] - cpu_before[k]) / result["count"] * 1000 for k in cpu_after}
        print(f"ingest: CPU per recorded round: gunicorn {per_round['gunicorn']:.2f} ms, this machine's PostgreSQL "
              f"{per_round['postgres']:.2f} ms")
    http_rows_per_s = copy["rows"] / total_seconds
    copy_rows_per_s = copy["rows"] / copy["copy_seconds"] if copy["copy_seconds"] else float("inf")
    print(f"ingest: the run wrote {copy['rows']} rows ({http_rows_per_s:,.0f} rows/s over HTTP incl. warm-up); "
          f"plain COPY loads them in {copy['copy_seconds']:.2f} s ({copy_rows_per_s:,.0f} rows/s): "
          f"HTTP ingest is {copy_rows_per_s / http_rows_per_s:,.0f}x slower than COPY")
    ok = result["rate"] >= TARGET_RATE and result["p99_ms"] <= TARGET_P99_MS and not result["errors"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
