"""What the tests with a real Celery worker process share: their markers (the broker and the test
database are the worker's too), the test database's URL for the worker, starting and stopping
one, and waiting for what it does."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]

#: A real worker takes any task on the broker's queue (one such test at a time: tests/parallel.py)
#: and reads the test's own PostgreSQL database.
MARKS = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("CELERY_BROKER_URL", "").startswith("redis"),
                       reason="needs CELERY_BROKER_URL pointing at Redis (set by .ci/run)"),
    pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                       reason="needs DATABASE_URL on PostgreSQL: the worker process shares the test database"),
]


def database_url() -> str:
    """The test database, as the worker process's ``DATABASE_URL``."""
    db = connection.settings_dict
    return (f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}"
            f":{db['PORT'] or 5432}/{db['NAME']}")


def until(predicate, seconds: float = 120, what: str = "the worker", poll: float = 0.3):
    """``predicate()``'s first true value within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(poll)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


@contextmanager
def celery_worker(name: str, *, env: dict | None = None, pool: str = "solo", concurrency: int | None = None,
                  log: Path | None = None):
    """A real ``celery worker`` process of this project (``env`` over the test's environment, its
    output to ``log`` or nowhere), stopped when the block ends."""
    args = [sys.executable, "-m", "celery", "-A", "casino", "worker", "--pool", pool, "--loglevel", "INFO",
            "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{name}-{os.getpid()}@%h"]
    if concurrency is not None:
        args += ["--concurrency", str(concurrency)]
    out = log.open("w") if log is not None else subprocess.DEVNULL
    proc = subprocess.Popen(args, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=out,
                            stderr=subprocess.STDOUT if log is not None else subprocess.DEVNULL)
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        if log is not None:
            out.close()
