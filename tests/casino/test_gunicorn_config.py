"""The production gunicorn configuration serves the application (preloaded in the master),
one request per connection."""

from __future__ import annotations

import http.client
import json
import os

import pytest

from tests.deployed import DEPLOY_CONFIG, gunicorn_serving

VIEWS = ("casino.urls", "tables.api.live", "audit.pages.views")


def _get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Connection": "close"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


@pytest.mark.django_db
def test_deploy_config_serves_the_app_from_forked_workers(tmp_path):
    # The deploy configuration, plus a hook that notes which views the master has imported.
    loaded, config = tmp_path / "loaded.txt", tmp_path / "gunicorn.conf.py"
    config.write_text(
        f"exec(compile(open({str(DEPLOY_CONFIG)!r}).read(), 'gunicorn.conf.py', 'exec'))\n"
        "def when_ready(server):\n"
        "    import sys\n"
        f"    open({str(loaded)!r}, 'w').write(' '.join(m for m in {VIEWS!r} if m in sys.modules))\n")
    with gunicorn_serving(tmp_path, config=config, GUNICORN_WORKERS="2", GUNICORN_THREADS="2",
                          LOG_LEVEL="INFO") as (port, log):
        status, body = _get(port, "/healthz")
        assert status == 200, log.read_text()
        health = json.loads(body)
        assert (health["status"], health["database"]) == ("ok", "ok"), body
        assert health["broker"] == ("ok" if os.environ.get("CELERY_BROKER_URL") else "in-process"), body
        assert [_get(port, "/healthz")[0] for _ in range(6)] == [200] * 6
        # A client asking to keep its connection is answered and let go, so that no worker
        # keeps a client to itself.
        kept = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        kept.request("GET", "/healthz")
        response = kept.getresponse()
        response.read()
        kept.close()
        assert response.status == 200 and response.getheader("Connection") == "close"
    text = log.read_text()
    assert text.count("Booting worker") == 2, text
    # The master imported the whole application, views included, before forking.
    assert loaded.read_text().split() == list(VIEWS), text
    assert "Traceback" not in text, text
