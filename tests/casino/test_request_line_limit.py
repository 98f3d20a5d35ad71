"""The request line: gunicorn, as deployed, takes every URL that nginx passes on (nginx's
``large_client_header_buffers 4 8k`` refuses longer lines itself, with the JSON 414 of
deploy/nginx/casino.conf), so the API never answers gunicorn's bare HTML 414."""

from __future__ import annotations

import http.client
import os

import pytest

from tests.deployed import gunicorn_serving


def _send(port: int, path: str) -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request("GET", path, headers={"Connection": "close", "Accept": "application/json"})
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type") or "", response.read()
    finally:
        conn.close()


@pytest.fixture
def deployed_gunicorn(tmp_path, db):
    port = int(os.environ.get("GUNICORN_TEST_PORT") or 0) or None
    with gunicorn_serving(tmp_path, port=port, GUNICORN_WORKERS="1", GUNICORN_THREADS="2",
                          LOG_LEVEL="WARNING") as (port, _):
        yield port


def _line_of(length: int) -> str:
    """A path whose request line (``GET <path> HTTP/1.1``) is ``length`` bytes."""
    head = "/api/v1/tables/?search="
    return head + "a" * (length - len("GET  HTTP/1.1") - len(head))


def test_request_lines_nginx_passes_on_reach_the_api_as_json(deployed_gunicorn):
    # 4,095 bytes: one past gunicorn's default limit; 8,190: the longest line nginx's 8k buffer holds.
    for length in (4_095, 6_000, 8_190):
        status, content_type, body = _send(deployed_gunicorn, _line_of(length))
        assert status != 414 and content_type.startswith("application/json"), (length, status, body[:200])
        assert status in (401, 403), (length, status, body[:200])  # anonymous: refused by the API itself, in JSON
