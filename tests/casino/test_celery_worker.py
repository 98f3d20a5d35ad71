"""A real Celery worker process, against the Redis broker, runs a task to completion."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.skipif(not os.environ.get("CELERY_BROKER_URL"),
                       reason="needs CELERY_BROKER_URL pointing at Redis (set by .ci/run)"),
]


@pytest.fixture
def worker():
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "casino", "worker", "--pool", "solo", "--loglevel", "INFO",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"test-{os.getpid()}@%h"],
        cwd=ROOT, env={**os.environ}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_worker_runs_a_task(worker):
    from casino.tasks import ping

    started = time.monotonic()
    result = ping.delay()
    assert result.get(timeout=60) == "pong"
    assert result.successful()
    assert time.monotonic() - started < 60
