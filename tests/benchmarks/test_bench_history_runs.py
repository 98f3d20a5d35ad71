"""The history benchmark still runs end to end on the schema as migrated: its loader writes
the loaded tables' columns by name (COPY), so a new NOT NULL column there breaks it silently
until someone runs it. Two tiny sizes (the timings are not judged here; `bench_history`
judges them at 1,000,000 and 5,000,000 rounds)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from django.db import connection

from tests.benchmarks.bench_reconcile import ROOT
from tests.parallel import template_database

pytestmark = pytest.mark.postgres


def test_bench_history_loads_two_sizes_times_the_pages_and_drops_its_database(db):
    if connection.vendor != "postgresql":
        pytest.skip("the benchmark loads with PostgreSQL COPY")
    settings = connection.settings_dict
    scratch = f"{settings['NAME']}_hist"[:63]
    url = f"postgres://{settings['USER']}@{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}/{scratch}"
    env = {**os.environ, "BENCH_DATABASE_URL": url}
    # One timed request a page (the structure is checked here, not the figures), and the suite's
    # migrated template copied rather than a migration run.
    template = template_database()
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_history", "--rounds", "400,800",
                           "--per-day", "100", "--busiest", "300", "--database", scratch, "--timed", "1",
                           *(["--template", template] if template else [])],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    out = done.stdout
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    # The busiest day (yesterday, 300 rounds) and the rest at 100 a day up to today.
    assert re.search(r"400 rounds over 2 gaming days \(\S+ to \S+; 300 on \S+\)", out), out[-3000:]
    assert re.search(r"800 rounds over 6 gaming days \(\S+ to \S+; 300 on \S+\)", out), out[-3000:]
    # The loaded rows the pages read: revisions, wagers, findings and their history.
    assert re.search(r"tables_roundrevision [\d,]+, tables_wager [\d,]+, audit_finding [\d,]+", out), out[-3000:]
    assert "report of" in out and " done, " in out, out[-3000:]
    # Pages of each part timed at both sizes, with a verdict; none failed with a 500.
    for page in ("tablet-floor", "tablet-table", "desk-queue ?status=all", "desk-round", "reports-day",
                 "players-top", "compliance-day", "closing-days", "round-list ?limit=50", "finding-list"):
        assert re.search(rf"^   {re.escape(page)} +\w+ +[\d.]+ +[\d.]+ +[\d.]+  ", out, re.MULTILINE), page
    # The busiest day's lists, timed at both sizes.
    for page in ("desk-queue ?gaming_day=", "finding-list ?gaming_day=", "round-list ?gaming_day="):
        assert re.search(rf"^   {re.escape(page)}\S+ +\w+ +[\d.]+ +[\d.]+ +[\d.]+  ", out, re.MULTILINE), page
    assert "ERROR" not in out, out[-3000:]
    assert re.search(r"format-suffix twin", out)
    assert "dropped it" in out
    exists = subprocess.run(["psql", "-h", settings["HOST"] or "127.0.0.1", "-U", settings["USER"], "-d", "postgres",
                             "-Atc", f"SELECT 1 FROM pg_database WHERE datname = '{scratch}'"],
                            capture_output=True, text=True)
    assert exists.stdout.strip() == ""


def test_make_bench_leaves_the_history_benchmark_out_unless_asked(monkeypatch, capsys):
    from tests.benchmarks import bench_history

    monkeypatch.delenv("BENCH_HISTORY", raising=False)
    assert bench_history.main([]) == 0
    assert "skipped" in capsys.readouterr().out
