"""The production gunicorn configuration serves the application (preloaded in the master),
one request per connection."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ("casino.urls", "tables.api.live", "audit.pages.views")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Connection": "close"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def _database_url(tmp_path) -> str:
    """The test run's PostgreSQL database, or a scratch SQLite file."""
    db = connection.settings_dict
    if connection.vendor != "postgresql":
        return f"sqlite:///{tmp_path / 'db.sqlite3'}"
    password = f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    return f"postgres://{quote(db['USER'])}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.mark.django_db
def test_deploy_config_serves_the_app_from_forked_workers(tmp_path):
    port = _free_port()
    log = tmp_path / "gunicorn.log"
    env = {**os.environ, "GUNICORN_WORKERS": "2", "GUNICORN_THREADS": "2", "DEBUG": "false",
           "DJANGO_ENV": "development", "LOG_LEVEL": "INFO", "DATABASE_URL": _database_url(tmp_path)}
    # The deploy configuration, plus a hook that notes which views the master has imported.
    loaded, config = tmp_path / "loaded.txt", tmp_path / "gunicorn.conf.py"
    config.write_text(
        f"exec(compile(open({str(ROOT / 'deploy' / 'gunicorn.conf.py')!r}).read(), 'gunicorn.conf.py', 'exec'))\n"
        "def when_ready(server):\n"
        "    import sys\n"
        f"    open({str(loaded)!r}, 'w').write(' '.join(m for m in {VIEWS!r} if m in sys.modules))\n")
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "casino.wsgi:application", "-c", str(config),
             "-b", f"127.0.0.1:{port}"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, body = _get(port, "/healthz")
                break
            except OSError:
                assert server.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        assert status == 200, log.read_text()
        health = json.loads(body)
        assert (health["status"], health["database"]) == ("ok", "ok"), body
        assert health["broker"] == ("ok" if env.get("CELERY_BROKER_URL") else "in-process"), body
        assert [_get(port, "/healthz")[0] for _ in range(6)] == [200] * 6
        # A client asking to keep its connection is answered and let go, so that no worker
        # keeps a client to itself.
        kept = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        kept.request("GET", "/healthz")
        response = kept.getresponse()
        response.read()
        kept.close()
        assert response.status == 200 and response.getheader("Connection") == "close"
    finally:
        server.terminate()
        server.wait(timeout=30)
    text = log.read_text()
    assert text.count("Booting worker") == 2, text
    # The master imported the whole application, views included, before forking.
    assert loaded.read_text().split() == list(VIEWS), text
    assert "Traceback" not in text, text
