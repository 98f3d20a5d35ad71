"""Outages on the production path (docs/operations/outages.md): a Redis of the test's own really
stopped under the cache and the broker, and a database that cannot be reached; every request
through a real API token header (and a session for the pages).

The clients do not re-raise the view's exception (``raise_request_exception=False``): they see
what gunicorn would answer."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
from contextlib import closing, contextmanager
from datetime import date
from pathlib import Path

import pytest
import redis
from django.db import connections
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from audit.reports.models import DailyReport
from casino.celery import app as celery_app
from casino.tokens import api_token_issue
from tests.factories import user_with_role
from tests.own_redis import OwnRedis
from tests.own_redis import broker_at as _broker

ROOT = Path(__file__).resolve().parents[2]
DAY = date(2026, 6, 11)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def own_redis(monkeypatch):
    monkeypatch.setattr("casino.cache._FAILED_AT", {})  # no down period left by another test's Redis
    server = OwnRedis()
    yield server
    server.stop()


def _token_client(user) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_issue(user=user, author=None, name='outage')[1]}")
    return client


def _deployed_caches(redis_url: str) -> dict:
    """The CACHES that casino/settings.py builds when CACHE_URL names ``redis_url``, as deployed."""
    env = {**os.environ, "CACHE_URL": redis_url}
    env.pop("DATABASE_REPLICA_URL", None)
    shown = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c",
         "import json; from django.conf import settings; print(json.dumps(settings.CACHES))"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(shown.stdout.strip().splitlines()[-1])


# --- the cache: the throttle fails open ------------------------------------------------------


def test_with_the_caches_redis_stopped_the_api_answers_unthrottled_and_says_so(own_redis, settings, caplog,
                                                                               monkeypatch):
    settings.CACHES = _deployed_caches(own_redis.url(0))
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"user": "3/minute"}}
    client = _token_client(user_with_role("finance"))
    url = reverse("casino-list")
    assert [client.get(url).status_code for _ in range(4)] == [200, 200, 200, 429], "Redis counts while it is up"
    assert redis.Redis(port=own_redis.port).dbsize() == 1

    own_redis.stop()
    with caplog.at_level(logging.WARNING, logger="casino.cache"):
        answers = [client.get(url) for _ in range(5)]
    assert [a.status_code for a in answers] == [200] * 5, answers[0].content[:500]
    warnings = [r for r in caplog.records if r.name == "casino.cache"]
    assert len(warnings) == 1, "one warning per process per down period, not one per request"
    assert "Redis unreachable" in warnings[0].getMessage() and "throttle" in warnings[0].getMessage()

    monkeypatch.setattr("casino.cache.DOWN_SECONDS", 0.0)  # asks Redis again at once
    own_redis.start()  # empty: the counts were lost with it, which costs nothing but a fresh window
    assert [client.get(url).status_code for _ in range(4)] == [200, 200, 200, 429], "counted again once back"


# --- /healthz: the cache and the broker ------------------------------------------------------


def test_healthz_reports_the_cache_and_the_broker_and_keeps_the_app_in_service_without_redis(
        own_redis, settings, client):
    settings.CACHES = _deployed_caches(own_redis.url(0))
    with _broker(own_redis.url(3)):
        up = client.get(reverse("healthz"))
        assert up.status_code == 200
        assert up.json() == {"status": "ok", "database": "ok", "cache": "ok", "broker": "ok",
                             "outbox": {"waiting": 0, "oldest_seconds": None}}
        own_redis.stop()
        down = client.get(reverse("healthz"))
    assert down.status_code == 200, "the floor still records rounds: a load balancer keeps the app"
    body = down.json()
    assert body["status"] == "degraded" and body["database"] == "ok"
    assert body["cache"].startswith("failing: ConnectionError"), body
    assert body["broker"].startswith("failing: OperationalError"), body


def test_healthz_without_redis_configured_says_in_process(client):
    """The quick start: no CACHE_URL, no broker (tasks run in the web process, eagerly)."""
    eager, celery_app.conf.task_always_eager = celery_app.conf.task_always_eager, True
    try:
        response = client.get(reverse("healthz"))
    finally:
        celery_app.conf.task_always_eager = eager
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "in-process", "broker": "in-process",
                               "outbox": {"waiting": 0, "oldest_seconds": None}}


def test_healthz_says_degraded_when_the_database_answers_but_its_outbox_does_not(client, monkeypatch):
    """A check of the outbox that fails (a database not yet migrated) is one component
    failing, not a database outage and not an error page."""
    from django.db import OperationalError

    def refused():
        raise OperationalError("no such table: casino_outboxtask")

    monkeypatch.setattr("casino.views.outbox_waiting", refused)
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["database"]) == ("degraded", "ok"), body
    assert body["outbox"].startswith("failing: OperationalError: no such table"), body


# --- the broker: a report re-run is saved whole, and sent once the broker is back ------------


@pytest.fixture
def done_day(settings):
    from tests.reports.helpers import simulated_day

    settings.REPORTS_CHUNK_ROUNDS = 9
    sim = simulated_day(day=DAY, rounds_per_table=3, seed=7)
    from audit.reports.services.runs import report_request

    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        report_request(casino=sim["casino"], gaming_day=DAY, via="command")
    finally:
        celery_app.conf.task_always_eager = eager
    report = DailyReport.objects.get(casino=sim["casino"], gaming_day=DAY, provisional=False)
    assert report.status == DailyReport.DONE
    return sim["casino"], report


def _queued_messages(port: int, db: int) -> list[dict]:
    server = redis.Redis(port=port, db=db)
    return [json.loads(raw) for raw in server.lrange("celery", 0, -1)]


def test_a_rerun_asked_with_the_broker_stopped_is_saved_whole_and_sent_when_it_is_back(own_redis, done_day,
                                                                                     caplog):
    casino, report = done_day
    finance = user_with_role("finance", casinos=[casino])
    client = _token_client(finance)
    with _broker(own_redis.url(3)):
        own_redis.stop()
        with caplog.at_level(logging.WARNING, logger="casino.outbox"):
            response = client.post(reverse("dailyreport-list"), {"casino": casino.pk, "gaming_day": str(DAY)},
                                   format="json")
        assert response.status_code == 202, response.content[:1000]
        assert response.json()["status"] == DailyReport.QUEUED
        report.refresh_from_db()
        assert report.status == DailyReport.QUEUED and report.runs == 2
        from casino.models import OutboxTask
        from casino.outbox import DRAIN_GRACE, outbox_drain

        waiting = OutboxTask.objects.get()
        assert (waiting.task, waiting.args) == ("reports.reconcile_start", [report.pk, str(report.run_id), False])
        assert waiting.attempts == 1 and "OperationalError" in waiting.last_error
        assert "waits in the outbox" in caplog.text

        assert outbox_drain(now=timezone.now() + DRAIN_GRACE) == 0, "the broker is still down: the row waits"
        assert OutboxTask.objects.get().attempts == 2

        own_redis.start()
        assert outbox_drain(now=timezone.now() + DRAIN_GRACE) == 1
    assert not OutboxTask.objects.exists()
    [message] = _queued_messages(own_redis.port, 3)
    assert message["headers"]["task"] == "reports.reconcile_start"
    assert message["headers"]["argsrepr"] == repr([report.pk, str(report.run_id), False])


def test_with_the_broker_up_the_task_is_sent_at_the_commit_and_nothing_waits(own_redis, done_day):
    casino, report = done_day
    client = _token_client(user_with_role("finance", casinos=[casino]))
    with _broker(own_redis.url(3)):
        response = client.post(reverse("dailyreport-list"), {"casino": casino.pk, "gaming_day": str(DAY)},
                               format="json")
    assert response.status_code == 202
    from casino.models import OutboxTask

    assert not OutboxTask.objects.exists()
    report.refresh_from_db()
    [message] = _queued_messages(own_redis.port, 3)
    assert message["headers"]["argsrepr"] == repr([report.pk, str(report.run_id), False])


# --- the database: 503 and Retry-After while it cannot be reached ----------------------------


def _closed_port() -> int:
    with closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def _database_unreachable():
    """The app's connection leads to a closed port for the block: its next query fails to
    connect, as during a restart. PostgreSQL only (the tests below are marked): the SQLite test
    database lives in memory, and closing its one connection would destroy it."""
    connection = connections["default"]
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(_closed_port()))
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


@pytest.mark.postgres
def test_an_unreachable_database_answers_503_with_retry_after_to_the_api_and_the_pages(caplog):
    user = user_with_role("finance")
    api = _token_client(user)
    page = APIClient(raise_request_exception=False)
    page.force_login(user)
    assert api.get(reverse("casino-list")).status_code == 200
    with _database_unreachable(), caplog.at_level(logging.WARNING, logger="casino.db_outage"):
        answer = api.get(reverse("casino-list"))
        write = api.post(reverse("dailyreport-list"), {"casino": 1, "gaming_day": str(DAY)}, format="json")
        html = page.get(reverse("home"))
        health = page.get(reverse("healthz"))
    assert answer.status_code == 503 and answer["Retry-After"] == "5", answer.content[:500]
    assert answer["Content-Type"] == "application/json"
    assert "database is unavailable" in answer.json()["detail"] and answer.json()["retry_after"] == 5
    assert write.status_code == 503 and write["Retry-After"] == "5"
    assert html.status_code == 503 and html["Retry-After"] == "5"
    assert html["Content-Type"].startswith("text/html")
    assert "The database is unavailable for a moment" in html.content.decode()
    assert health.status_code == 503 and health.json()["status"] == "failing"
    assert "database unavailable" in caplog.text
    assert api.get(reverse("casino-list")).status_code == 200, "back as soon as it is"


def test_a_statement_the_database_refuses_is_not_taken_for_an_outage():
    from django.db import OperationalError

    from casino.db_outage import connection_failure

    class Deadlock(Exception):
        sqlstate = "40P01"

    class Timeout(Exception):
        sqlstate = "57014"

    class Shutdown(Exception):
        sqlstate = "57P01"

    def wrapped(cause):
        error = OperationalError(str(cause))
        error.__cause__ = cause
        return error

    assert not connection_failure(wrapped(Deadlock()))
    assert not connection_failure(wrapped(Timeout()))
    assert connection_failure(wrapped(Shutdown()))
    assert connection_failure(wrapped(OSError("connection refused")))
    assert not connection_failure(ValueError("not the database"))


@pytest.mark.postgres
def test_the_page_for_an_unreachable_database_needs_no_database():
    """Rendered while the database is down: it must not ask it for the user or the menu."""
    from django.test import RequestFactory

    from casino.db_outage import database_unavailable

    request = RequestFactory().get("/tables/")
    with _database_unreachable():
        response = database_unavailable(request, OSError("down"))
    assert response.status_code == 503


