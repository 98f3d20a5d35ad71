"""The application served by gunicorn with the deploy configuration, as production runs it,
for tests that must go through the real server (its worker model, its request-line limit,
the proxy header it is given)."""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
DEPLOY_CONFIG = ROOT / "deploy" / "gunicorn.conf.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: The SQLite test database as migrated, before any test's transaction (keep_migrated_sqlite).
_migrated_sqlite: sqlite3.Connection | None = None


def keep_migrated_sqlite() -> None:
    """Keep an in-memory copy of the SQLite test database just migrated: django_db_setup calls
    this once per process, while no test's transaction is open (see database_url)."""
    global _migrated_sqlite
    if connection.vendor != "sqlite":
        return
    connection.ensure_connection()
    _migrated_sqlite = sqlite3.connect(":memory:", check_same_thread=False)
    _backup(connection.connection, _migrated_sqlite)


def _backup(source: sqlite3.Connection, target: sqlite3.Connection) -> None:
    """SQLite's online backup, which fails after 10 s of a source locked by a writer: Python's
    ``backup()`` would retry such a step every 250 ms without end."""
    waits = 0

    def progress(status: int, remaining: int, total: int) -> None:
        nonlocal waits
        if status in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            waits += 1
            if waits > 40:
                raise RuntimeError("the SQLite test database stayed locked by a writer for 10 s")

    source.backup(target, progress=progress)


def database_url(tmp_path) -> str:
    """The test run's PostgreSQL database, or on SQLite (whose test database lives in this
    process's memory) a file copy of what another process would see of it."""
    db = connection.settings_dict
    if connection.vendor != "postgresql":
        path = tmp_path / "db.sqlite3"
        connection.ensure_connection()
        # Inside the test's transaction (pytest-django's ``db``) another process sees the
        # database as migrated: the test's rows are not committed, and a server on PostgreSQL
        # would not see them either. Nor can SQLite back up a database while its own connection
        # holds a write transaction on it (each step answers SQLITE_LOCKED). Outside one
        # (``transaction=True``), the copy has what the test committed, as on PostgreSQL.
        if connection.in_atomic_block:
            assert _migrated_sqlite is not None, "django_db_setup keeps the migrated database (tests/conftest.py)"
            source = _migrated_sqlite
        else:
            source = connection.connection
        copy = sqlite3.connect(path)
        try:
            _backup(source, copy)
        finally:
            copy.close()
        return f"sqlite:///{path}"
    password = f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    return f"postgres://{quote(db['USER'])}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _answers(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/healthz", headers={"Connection": "close"})
        conn.getresponse().read()
        return True
    except OSError:
        return False
    finally:
        conn.close()


@contextlib.contextmanager
def gunicorn_serving(tmp_path, *, config: Path = DEPLOY_CONFIG, port: int | None = None,
                     **env: str) -> Iterator[tuple[int, Path]]:
    """Serve the app on ``port`` (a free one by default) until the block ends; yields the port
    and the server's log. ``env`` adds to the test's environment (workers, proxies, ...); the
    database is the test run's own."""
    port = port or free_port()
    log = tmp_path / "gunicorn.log"
    environ = {**os.environ, "DEBUG": "false", "DJANGO_ENV": "development",
               "DATABASE_URL": database_url(tmp_path), **env}
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "casino.wsgi:application", "-c", str(config),
             "-b", f"127.0.0.1:{port}"], cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not _answers(port):
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield port, log
    finally:
        server.terminate()
        server.wait(timeout=30)
