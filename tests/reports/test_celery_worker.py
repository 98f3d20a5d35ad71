"""A day reconciled by real Celery workers (Redis broker) against the test database; its files open."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.db import connection
from openpyxl import load_workbook
from pypdf import PdfReader

from audit.reports.models import DailyReport, ReportLine
from audit.reports.services.runs import report_request
from tests.reports.helpers import independent_totals, simulated_day

ROOT = Path(__file__).resolve().parents[2]
DAY = date(2026, 8, 3)

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.skipif(
        not os.environ.get("CELERY_BROKER_URL"),
        reason="needs CELERY_BROKER_URL pointing at Redis (set by .ci/run)",
    ),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs DATABASE_URL on PostgreSQL: the worker process shares the test database",
    ),
]


@pytest.fixture
def workers(settings, tmp_path):
    """Two worker processes (prefork, 2 each) on the test database, writing files under tmp_path."""
    db = connection.settings_dict
    url = f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    settings.REPORTS_ROOT = tmp_path
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "REPORTS_ROOT": str(tmp_path),
        "REPORTS_CHUNK_ROUNDS": "10",
    }
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "casino",
                "worker",
                "--pool",
                "prefork",
                "--concurrency",
                "2",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"reports-{os.getpid()}-{i}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for i in range(2)
    ]
    yield procs
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.mark.django_db(transaction=True)
def test_workers_reconcile_a_day_and_the_files_open(workers, settings):
    settings.REPORTS_CHUNK_ROUNDS = 10  # several slices, taken by whichever worker is free
    sim = simulated_day(day=DAY, rounds_per_table=8, seed=23)
    report = report_request(casino=sim["casino"], gaming_day=DAY, via="command")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        report.refresh_from_db()
        if report.status in (DailyReport.DONE, DailyReport.FAILED):
            break
        time.sleep(0.5)
    assert report.status == DailyReport.DONE, (report.status, report.error)
    assert report.chunks_total >= 4 and report.chunks_done == report.chunks_total
    floor = ReportLine.objects.get(report=report, level="floor")
    expected = independent_totals(sim["casino"], DAY)["floor"]
    assert (floor.handle, floor.win, floor.rounds) == (
        expected["handle"],
        expected["win"],
        expected["rounds"],
    )
    files = {
        fmt: (Path(settings.REPORTS_ROOT) / rel).read_bytes() for fmt, rel in report.files.items()
    }
    rows = list(csv.reader(io.StringIO(files["csv"].decode("utf-8-sig"))))
    assert (
        Decimal(next(r for r in rows if r and r[0] == "floor")[rows[0].index("Win")]) == floor.win
    )
    sheet = load_workbook(io.BytesIO(files["xlsx"]))["Floor"]
    assert (
        Decimal(
            str(sheet.cell(row=2, column=[c.value for c in sheet[1]].index("Handle") + 1).value)
        )
        == floor.handle
    )
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(files["pdf"])).pages)
    assert f"gaming day {DAY}" in text
