"""Every page at years of history: time each page at 1,000,000 and at 5,000,000 rounds.

``python -m tests.benchmarks.bench_history [--rounds 1000000,5000000] [--per-day 13700] [--busiest 1000000]
[--database NAME] [--keep] [--wait-quiet MINUTES]``

The targets: every page's median at most 300 ms at the largest size, and no page more than 1.5
times slower there than at the first size. One gaming day of each size is the busiest property's
(``--busiest``, 1,000,000 rounds by default: 870 tables at 60 rounds an hour around the clock deal
about 1.25 million), the newest closed day, reconciled; every page and list is timed again about
that day (``?gaming_day=``, the desk and the API lists of that day, of a table that day, of its
month), so a list that reads the whole day (a count, a sort without an index) misses the target. In a scratch database it drops and creates
(``--database``, else ``BENCH_DATABASE_URL``'s name with ``_history``), and drops again at the
end, also on a failure or Ctrl-C (about 3.4 GB per million rounds), it:

1. migrates and builds bench_reconcile's floor (60 tables, two pits), 240 dealers, 3,000
   players and a user per role; simulates and audits a pool of rounds;
2. for each size, loads that many rounds: the busiest day's, and the rest (at least a day's) at
   ``--per-day`` rounds per gaming day, the newest day being today's (``history_load.load``: revisions, wagers, findings, history rows,
   corrections, voids, reviews, through COPY), with a session and dealer per table and day
   and a daily report for every closed day (the newest reconciled by the real run, the
   older ones copies of it on their own day);
3. after a ``VACUUM (ANALYZE)`` of the whole database and, with ``--wait-quiet``, once the machine's
   1-minute load average is below 1.0 (another job on a 2-core machine skews the pages), times
   every GET page and API list the URLconf has (``?limit=50`` too for API lists), with what
   is loaded frozen out of the garbage collector's full passes as gunicorn's ``pre_fork`` does: the
   median of 3 requests (``--timed``) after a warm-up through Django's test client (one request when the
   warm-up took over 5 s), logged in as the first role the page lets in (pit boss,
   surveillance, finance, compliance, cage, count, gaming manager); routes it cannot fill or
   that need input are listed as skipped.

A page counts as slower only by more than 10 ms as well as by the ratio: below that, a
shared 2-core machine's noise decides the ratio of two small figures.

``make bench`` runs it only with ``BENCH_HISTORY=1`` (it takes over an hour at 5,000,000 rounds
and about 17 GB of disk); ``BENCH_HISTORY_ARGS`` passes flags then.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

from tests.benchmarks.bench_reconcile import ROOT, _scratch_db, _server_url

TARGET_MS = 300.0
TARGET_RATIO = 1.5
NOISE_MS = 10.0
GB_PER_MILLION = 3.4
#: A page whose warm-up took longer is timed once, not three times: it misses the target
#: by far anyway, and at 5,000,000 rounds three runs of each such page would take hours.
SLOW_SECONDS = 5.0
#: The busiest property's gaming day: 870 tables at 60 rounds an hour around the clock deal about
#: 1.25 million rounds; a day of a million is what the day's lists must stay fast on.
BUSIEST = 1_000_000
ROLES = ("pit_boss", "surveillance", "finance", "compliance", "cage", "count", "gaming_manager")


def _sizes(text: str) -> list[int]:
    sizes = [int(s.replace("_", "")) for s in text.split(",") if s.strip()]
    if not sizes or sizes != sorted(set(sizes)) or sizes[0] <= 0:
        raise argparse.ArgumentTypeError("increasing positive round counts, e.g. 1000000,5000000")
    return sizes


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bench_history")
    parser.add_argument("--rounds", type=_sizes, default=[1_000_000, 5_000_000],
                        help="the sizes, comma-separated (default 1000000,5000000)")
    parser.add_argument("--per-day", type=int, default=13_700, help="rounds per gaming day (default 13,700)")
    parser.add_argument("--busiest", type=int, default=BUSIEST,
                        help=f"rounds of one gaming day, the newest closed one, as the busiest property deals "
                             f"(default {BUSIEST:,}; 0: every day of --per-day)")
    parser.add_argument("--database", help="scratch database name (dropped before and after)")
    parser.add_argument("--keep", action="store_true", help="leave the scratch database (for a look)")
    parser.add_argument("--wait-quiet", type=float, default=0.0, metavar="MINUTES",
                        help="before timing each size, wait up to MINUTES for the machine's 1-minute load "
                             "average to fall below 1.0 (another job on a 2-core machine skews the pages)")
    parser.add_argument("--template", help="a migrated database to copy instead of migrating (the test suite's)")
    parser.add_argument("--timed", type=int, default=3, metavar="N",
                        help="requests timed per page after its warm-up (default 3; the median is shown)")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    return parser


def main(argv: list[str], *, direct: bool = False) -> int:
    if not direct and not argv and os.environ.get("BENCH_HISTORY") != "1":
        print("   skipped: over an hour and about 17 GB at 5,000,000 rounds; BENCH_HISTORY=1 make bench, "
              "or python -m tests.benchmarks.bench_history")
        return 0
    if not argv and not direct:
        argv = os.environ.get("BENCH_HISTORY_ARGS", "").split()
    options = _parser().parse_args(argv)
    if options.inner:
        return _inner(options)
    url = _server_url(options.database) if options.database else f"{_server_url()}_history"
    needed = GB_PER_MILLION * options.rounds[-1] / 1_000_000 * 1.2 + 1
    free = shutil.disk_usage("/").free / 1e9
    if free < needed:
        print(f"   refused: {options.rounds[-1]:,} rounds need about {needed:.0f} GB, {free:.0f} GB free")
        return 1
    if _scratch_db(url, options.template) is None:
        return 0
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "casino.settings"}
    # The scratch database has no replica: one named for another database would answer the marked reads.
    env.pop("DATABASE_REPLICA_URL", None)
    env.pop("CELERY_BROKER_URL", None)  # the report runs below call the task functions themselves
    command = [sys.executable, "-m", "tests.benchmarks.bench_history", "--inner",
               "--rounds", ",".join(map(str, options.rounds)), "--per-day", str(options.per_day),
               "--busiest", str(options.busiest),
               "--wait-quiet", str(options.wait_quiet), "--timed", str(options.timed)]
    child = subprocess.Popen(command, cwd=ROOT, env=env)

    def interrupted(signum, frame):
        raise KeyboardInterrupt

    # Ctrl-C or a kill still drops the scratch database (a shell's background job ignores SIGINT
    # unless told otherwise).
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, interrupted)
    try:
        return child.wait()
    except KeyboardInterrupt:
        child.terminate()
        child.wait()
        print("   interrupted")
        return 130
    finally:
        _drop(url, keep=options.keep)


def _drop(url: str, *, keep: bool) -> None:
    import psycopg

    base, _, name = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True, connect_timeout=5) as conn:
        size = conn.execute("SELECT pg_database_size(%s)", [name]).fetchone()
        print(f"   scratch database {name}: {(size[0] if size else 0) / 1e9:.1f} GB on disk", flush=True)
        if keep:
            print(f"   kept (--keep): DROP DATABASE \"{name}\" when done")
            return
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        print("   dropped it")


# --- inside the scratch database ----------------------------------------------------------------


def _people(casino, tables):
    """Dealers to rotate, players at the seats, a user per role."""
    from django.utils import timezone

    from tables.models import Dealer
    from tables.players.models import Player
    from tests.factories import DealerFactory, user_with_role

    for _ in range(240 - Dealer.objects.filter(casino=casino).count()):
        DealerFactory(casino=casino)
    users = {role: user_with_role(role, username=f"bench-{role}", casinos=[casino]) for role in ROLES}
    Player.objects.bulk_create(
        [Player(casino=casino, identifier=f"P-{i}", name=f"Player {i}", registered_at=timezone.now(),
                registered_by=users["pit_boss"]) for i in range(1, PLAYERS + 1)], batch_size=2000)
    return list(Dealer.objects.filter(casino=casino).order_by("pk")), users


PLAYERS = 3000


def _reports(casino, days, today) -> str:
    """A done daily report for every closed day without one: the newest closed day's by the
    real run (plan, slices, combine), the others copies of its rows on their own day."""
    import uuid

    from django.conf import settings
    from django.db import connection

    from audit.reports.models import DailyReport, ReportLine
    from audit.reports.services import runs
    from audit.reports.services.month_lines import month_lines_rebuild

    settings.REPORTS_ROOT = Path(settings.VAR_DIR) / "bench-history-reports"
    closed = [d for d in days if d < today]
    if not closed:
        return "no closed day"
    started = time.perf_counter()
    source = DailyReport.objects.filter(casino=casino, gaming_day=closed[-1]).first()
    if source is None:
        source = DailyReport.objects.create(casino=casino, gaming_day=closed[-1], runs=1)
        for chunk in runs.report_plan(report_id=source.pk, run_id=str(source.run_id)):
            runs.report_chunk_run(chunk_id=chunk)
        runs.report_combine(report_id=source.pk, run_id=str(source.run_id))
        connection.close()
        source.refresh_from_db()
    lines = list(ReportLine.objects.filter(report=source))
    have = set(DailyReport.objects.filter(casino=casino).values_list("gaming_day", flat=True))
    made = 0
    for day in closed:
        if day in have:
            continue
        shift = timedelta(days=(day - source.gaming_day).days)
        copy = DailyReport.objects.get(pk=source.pk)
        copy.pk, copy.gaming_day, copy.run_id = None, day, uuid.uuid4()
        for name in ("queued_at", "started_at", "finished_at", "heartbeat_at", "period_start", "period_end"):
            if getattr(copy, name) is not None:
                setattr(copy, name, getattr(copy, name) + shift)
        copy.save(force_insert=True)
        for line in lines:
            line.pk, line.report = None, copy
        ReportLine.objects.bulk_create(lines, batch_size=2000)
        made += 1
    # The copies were written row by row, not through a run: their months are summed as
    # report_months_rebuild does after a bulk load (deploy/README.md §10).
    months = month_lines_rebuild()
    return (f"report of {closed[-1]} {source.status}, {made} copies on older days, {months} months summed "
            f"({time.perf_counter() - started:.1f} s)")


# --- the pages ---


#: The path segment before an id names what the id is of (the URLconf's own words).
SEGMENT_MODELS = {
    "tables": "tables.Table", "rounds": "tables.Round", "findings": "tables.Finding", "dealers": "tables.Dealer",
    "reports": "reports.DailyReport", "players": "players.Player", "investigations": "fluctuations.Investigation",
    "slips": "accounting.ChipSlip", "boxes": "accounting.DropBox", "counts": "accounting.SoftCount",
    "cash-outs": "compliance.CashOut", "awards": "jackpots.JackpotAward",
    "adjustments": "jackpots.JackpotAdjustment", "closing": "closing.DayClose",
}
SKIP = (
    (r"^admin/", "Django's admin, not a product page"),
    (r"^api/(schema|docs|redoc)/", "the API's description: no data"),
    (r"^accounts/|^healthz$", "login, logout and the health check: no data"),
    (r"\(\?P<format>|<drf_format_suffix", "format-suffix twin of a route timed without it"),
)
EXTRA = {"desk-queue": ["?status=all"]}


def _day_queries(name: str, route: str, day, table: int) -> list[str]:
    """The queries that read the busiest day (``day``) or its month: the day's lists as
    surveillance and the API's clients ask for them; every other page with the day given as
    the pages name it (``?gaming_day=``, ``?day=``; a page that reads neither shows its own)."""
    d, month = day.isoformat(), day.replace(day=1).isoformat()
    if name == "desk-queue":
        return [f"?gaming_day={d}&status=all", f"?gaming_day={d}", f"?gaming_day={d}&status=all&order=largest",
                f"?gaming_day={d}&status=all&table={table}", f"?since={month}&until={d}&status=all"]
    if name in ("desk-dealers", "desk-dealer", "desk-patterns"):
        return [f"?since={month}&until={d}"]
    if route.startswith("api/"):
        if not name.endswith("-list"):
            return []
        queries = [f"?gaming_day={d}&limit=50"]
        if name in ("round-list", "finding-list"):
            queries += [f"?gaming_day={d}&table={table}&limit=50", f"?from={month}&to={d}&limit=50"]
        return queries
    return [f"?gaming_day={d}&day={d}"]


def _routes():
    from django.urls import URLPattern, URLResolver, get_resolver

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern), p

    yield from walk(get_resolver().url_patterns)


def _model_of(route: str, pattern):
    from django.apps import apps

    view = getattr(pattern.callback, "cls", None)
    queryset = getattr(view, "queryset", None)
    if queryset is not None:
        return queryset.model
    match = re.search(r"([\w-]+)/(?:\(\?P<pk>|<int:pk>)", route)
    name = SEGMENT_MODELS.get(match.group(1)) if match else None
    return apps.get_model(name) if name else None


def _pages(casino, busiest=None) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(label, url) of every GET page to time, and with ``busiest`` (a gaming day) each again
    about that day (:func:`_day_queries`); (route, why) of those left out."""
    from django.urls import NoReverseMatch, reverse

    from tables.models import Finding, Round, Table

    pages, skipped = [], []
    table = Table.objects.filter(pit__casino=casino).order_by("pk").first()
    for route, pattern in _routes():
        why = next((reason for rx, reason in SKIP if re.search(rx, route)), None)
        if why:
            skipped.append((route, why))
            continue
        params = list(getattr(pattern.pattern, "converters", {}) or pattern.pattern.regex.groupindex)
        kwargs = {}
        for param in params:
            if param == "pk":
                model = _model_of(route, pattern)
                if model is None:
                    why = "no id source for <pk>"
                    break
                if model._meta.label == "casino.Casino":
                    row = casino
                elif model is Round:
                    row = Round.objects.order_by("-pk").first()
                elif model is Finding:
                    row = Finding.objects.filter(status="open").order_by("-pk").first()
                else:
                    rows = model._default_manager.order_by("-pk")
                    if any(f.name == "casino" for f in model._meta.fields):
                        rows = rows.filter(casino=casino)
                    row = rows.first()
                if row is None:
                    why = f"no {model.__name__} loaded"
                    break
                kwargs["pk"] = row.pk
            elif param == "fmt":
                kwargs["fmt"] = "csv"
            elif param == "identifier":
                kwargs["identifier"] = "P-1"
            else:
                why = f"no value for <{param}>"
                break
        if why:
            skipped.append((route, why))
            continue
        try:
            url = reverse(pattern.name, kwargs=kwargs) if pattern.name else None
        except NoReverseMatch:
            url = None
        if url is None:
            skipped.append((route, "not reversible"))
            continue
        label = pattern.name
        pages.append((label, url))
        queries = EXTRA.get(pattern.name, []) + (["?limit=50"] if route.startswith("api/") and
                                                 pattern.name.endswith("-list") else [])
        if busiest is not None:
            queries += _day_queries(pattern.name, route, busiest, table.pk)
        for query in queries:
            pages.append((f"{label} {query}", url + query))
    return pages, skipped


def _get(client, url):
    response = client.get(url)
    if getattr(response, "streaming", False):
        b"".join(response.streaming_content)
    return response


def _time_pages(casino, users, busiest=None, timed_runs: int = 3) -> tuple[dict, list]:
    """{label: (role, median ms, url)} of the pages that answered; [(label, why)] of the others."""
    from django.test import Client

    pages, skipped = _pages(casino, busiest)
    timed, left = {}, list(skipped)
    # As the production server does before forking its workers (deploy/gunicorn.conf.py pre_fork):
    # what is loaded by now (Django, the apps, and here the bench's floor and pool) stays out of
    # the garbage collector's full passes, which would otherwise walk it inside the timed requests.
    gc.collect()
    gc.freeze()
    client = Client(raise_request_exception=False)
    for label, url in pages:
        status, role, warm = None, None, 0.0
        for role in ROLES:
            client.force_login(users[role])
            t = time.perf_counter()
            status = _get(client, url).status_code  # also the warm-up
            warm = time.perf_counter() - t
            if status not in (403, 404):
                break
        if status == 405:
            left.append((label, "POST only"))
            continue
        if status >= 500:
            left.append((label, f"ERROR {status} at {url}"))
            continue
        if not 200 <= status < 300:
            left.append((label, f"{status} at {url} for every role tried" if status in (403, 404)
                         else f"{status} at {url} as {role} (needs input)"))
            continue
        seconds = []
        for _ in range(timed_runs if warm < SLOW_SECONDS else 1):
            t = time.perf_counter()
            _get(client, url)
            seconds.append(time.perf_counter() - t)
        timed[label] = (role, statistics.median(seconds) * 1000, url, warm >= SLOW_SECONDS)
    return timed, left


def _inner(options) -> int:
    from django.conf import settings
    from django.db import connection
    from django.utils import timezone

    from casino.gaming_day import current_gaming_day
    from tests.benchmarks import bench_reconcile, history_load

    bench_reconcile._setup()
    from audit.advantage.lines import lines_rebuild  # Django is set up now
    from audit.advantage.results import results_rebuild
    from audit.ratings.writer import ratings_rebuild
    from audit.rollups.writer import rollups_rebuild
    # A role probed and refused is a WARNING with its traceback; a page that fails stays an ERROR.
    logging.getLogger("django.request").setLevel(logging.ERROR)
    logging.getLogger("celery").setLevel(logging.WARNING)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    started = time.perf_counter()
    casino, user, tables, registry = bench_reconcile._floor(open_tables=False)
    dealers, users = _people(casino, tables)
    floor = history_load.Floor(casino=casino, user=users["pit_boss"], reviewer=users["surveillance"],
                               tables=tables, dealers=dealers)
    pool = bench_reconcile._pool(tables, registry, per_game=400, patrons=PLAYERS)
    print(f"   floor, people and a pool of 2,000 audited rounds in {time.perf_counter() - started:.1f} s", flush=True)
    now = timezone.now()
    today = current_gaming_day(casino, at=now)
    results, errors = {}, []
    for size in options.rounds:
        plan = _plan(size, options.per_day, options.busiest, today, now)
        days, loaded = len(plan.days), plan.total
        busiest = _busiest_day(plan)
        t = time.perf_counter()
        history_load.sessions_ensure(floor, plan.days, today)
        done = history_load.load(floor, pool, plan)
        connection.close()
        reports = _reports(casino, plan.days, today)
        rolled = time.perf_counter()
        # The desk's dealer and pattern figures read the daily rollups, which recording keeps as it
        # goes; rows loaded with COPY get theirs from the repair path, as an upgraded database does.
        pairs = rollups_rebuild(since=plan.days[0], until=today)
        reports += f"; rollups of {pairs:,} (day, table) rebuilt in {time.perf_counter() - rolled:.0f} s"
        rated = time.perf_counter()
        ratings_rebuild(since=plan.days[0], until=today)
        reports += f", rating sessions in {time.perf_counter() - rated:.0f} s"
        counted = time.perf_counter()
        lines_rebuild(since=plan.days[0], until=today)
        reports += f", advantage count lines in {time.perf_counter() - counted:.0f} s"
        # The advantage page reads the day's stored result, which the worker counts when a day's
        # report finishes (provisional every 15 minutes, final at the close): counted here as the
        # worker would, as the reports above are run.
        counted = time.perf_counter()
        results_rebuild(since=plan.days[0], until=today)
        reports += f", advantage results in {time.perf_counter() - counted:.0f} s"
        # Statistics and visibility maps for every table, as autovacuum keeps them on a floor that has
        # run for a while: the floor, dealers, users and rollups were written row by row just now, and
        # a planner that believes a casino has two tables drives the desk's findings from every round.
        # Done here rather than left to autovacuum, which would otherwise work through the fresh rows
        # of the derived tables on one of the two cores while the pages are timed.
        vacuumed = time.perf_counter()
        with connection.cursor() as cur:
            cur.execute("VACUUM (ANALYZE)")
        waited = _autovacuum_quiet()
        reports += (f"; VACUUM (ANALYZE) in {time.perf_counter() - vacuumed - waited:.0f} s, "
                    f"then {waited:.0f} s waiting for autovacuum to finish")
        with connection.cursor() as cur:
            cur.execute("SELECT pg_database_size(current_database())")
            disk = cur.fetchone()[0] / 1e9
        counts = ", ".join(f"{table} {n:,}" for table, n in done["counts"].items())
        steps = ", ".join(f"{k} {v:.0f} s" for k, v in done["timings"].items())
        print(f"\n   {loaded:,} rounds over {days} gaming days ({plan.days[0]} to {today}"
              + (f"; {plan.rounds(busiest):,} on {busiest}" if busiest else "") + "), loaded in "
              f"{time.perf_counter() - t:.0f} s: {steps}\n   rows: {counts}\n   {reports}; database {disk:.1f} GB"
              + (f"; partitions by {done['partitions']}.ensure_months" if done["partitions"] else ""), flush=True)
        if options.wait_quiet:
            print(f"   {_machine_quiet(options.wait_quiet * 60):.0f} s waited for a quiet machine; "
                  f"1-minute load average {os.getloadavg()[0]:.2f}", flush=True)
        t = time.perf_counter()
        timed, left = _time_pages(casino, users, busiest, options.timed)
        results[loaded] = timed
        print(f"   timed {len(timed)} pages in {time.perf_counter() - t:.0f} s (ms, median; * one request):")
        for label, (role, ms, _, slow) in sorted(timed.items()):
            print(f"     {label:<44} {role:<14} {ms:>10.1f}{'*' if slow else ''}")
        print("   left out:", flush=True)
        for label, why in _grouped(left):
            print(f"     {label}: {why}")
        errors = [(label, why) for label, why in left if why.startswith("ERROR")]
    return _verdict(results, errors)


def _plan(size: int, per_day: int, busiest: int, today, now):
    """``size`` rounds: with ``busiest``, that many on the newest closed day and the rest (at least
    one day's) at ``per_day`` over the days before it and today; else ``per_day`` a day up to today."""
    from tests.benchmarks import history_load

    rest = max(size - busiest, per_day) if busiest else size
    others = -(-rest // per_day)
    if not busiest:
        days = [today - timedelta(days=others - 1 - k) for k in range(others)]
        return history_load.Plan(days=days, per_day=rest // others, today=today, now=now, players=PLAYERS)
    busy = today - timedelta(days=1)
    days = [today - timedelta(days=others - k) for k in range(others - 1)] + [busy, today]
    return history_load.Plan(days=days, per_day=rest // others, today=today, now=now, players=PLAYERS,
                             rounds_on={busy: busiest})


def _busiest_day(plan):
    return next(iter(plan.rounds_on), None)


def _autovacuum_quiet(limit: float = 900.0) -> float:
    """Seconds spent waiting (at most ``limit``) until no autovacuum worker is busy in this
    database, so that none runs beside the timed requests."""
    from django.db import connection

    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        with connection.cursor() as cur:
            cur.execute("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' "
                        "AND datname = current_database()")
            if not cur.fetchone()[0]:
                break
        time.sleep(2)
    return time.perf_counter() - started


def _machine_quiet(limit: float) -> float:
    """Seconds spent waiting (at most ``limit``) for the 1-minute load average to fall below 1.0."""
    started = time.perf_counter()
    while os.getloadavg()[0] >= 1.0 and time.perf_counter() - started < limit:
        time.sleep(10)
    return time.perf_counter() - started


def _grouped(left):
    """Skipped routes, the format-suffix twins and the admin counted rather than listed."""
    counted: dict[str, int] = {}
    for label, why in left:
        if why.startswith(("format-suffix", "Django's admin")):
            counted[why] = counted.get(why, 0) + 1
        else:
            yield label, why
    for why, n in counted.items():
        yield f"{n} routes", why


def _verdict(results: dict, errors: list) -> int:
    sizes = sorted(results)
    first, last = sizes[0], sizes[-1]
    labels = sorted(set().union(*(results[s] for s in sizes)))
    head = f"   {'page':<44} {'role':<14}" + "".join(f"{f'ms at {s:,}':>18}" for s in sizes)
    print("\n" + head + f"{'ratio':>8}  verdict")
    missed = 0
    for label in labels:
        figures = [results[s].get(label) for s in sizes]
        role = next(f[0] for f in figures if f)
        cells = "".join((f"{f[1]:>17.1f}" + ("*" if f[3] else " ")) if f else f"{'-':>18}" for f in figures)
        a, b = results[first].get(label), results[last].get(label)
        ratio = b[1] / a[1] if a and b and a[1] else None
        verdict = []
        if b is None:
            verdict.append("not timed at the last size")
        else:
            if b[1] > TARGET_MS:
                verdict.append(f"MISS: over {TARGET_MS:.0f} ms")
            if a and len(sizes) > 1 and b[1] > max(TARGET_RATIO * a[1], a[1] + NOISE_MS):
                verdict.append(f"MISS: over {TARGET_RATIO}x")
        missed += any(v.startswith("MISS") for v in verdict)
        print(f"   {label:<44} {role:<14}{cells}{f'{ratio:.2f}' if ratio else '-':>8}  "
              + ("; ".join(verdict) or "ok"))
    for label, why in errors:
        print(f"   {label}: {why}")
    print(f"   (* one request: its warm-up took over {SLOW_SECONDS:.0f} s)")
    print(f"\n   {len(labels) - missed} of {len(labels)} pages met both targets (median at most {TARGET_MS:.0f} ms "
          f"at {last:,} rounds, at most {TARGET_RATIO}x the figure at {first:,})"
          + (f"; {len(errors)} pages failed" if errors else ""))
    return 1 if missed or errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], direct=True))
