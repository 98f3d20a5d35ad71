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


def database_url(tmp_path) -> str:
    """The test run's PostgreSQL database, or on SQLite (whose test database lives in this
    process's memory) a file copy of it, migrated as it is."""
    db = connection.settings_dict
    if connection.vendor != "postgresql":
        path = tmp_path / "db.sqlite3"
        connection.ensure_connection()
        copy = sqlite3.connect(path)
        try:
            connection.connection.backup(copy)
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
