from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from casino.cache import ResilientRedisCache
from casino.celery import app as celery_app
from casino.db_outage import RETRY_AFTER_SECONDS
from casino.outbox import outbox_waiting


@login_required
def home(request):
    return render(request, "home.html")


#: Tasks waiting in the outbox longer than this mean beat or the workers are not draining it.
OUTBOX_STUCK_SECONDS = 60


@never_cache
def healthz(request):
    """For load balancers and monitoring (docs/operations/outages.md).

    HTTP 200 while the database answers: the app records rounds and answers the API without
    Redis, so a load balancer keeps it in service; ``status`` is "degraded" when the cache's
    Redis, the broker or the task outbox is failing, for monitoring to alert on. HTTP 503
    (``status`` "failing") when the database does not answer: nothing works without it.
    """
    database = _check(_database)
    body = {"status": "ok", "database": database, "cache": _check(_cache), "broker": _check(_broker)}
    if database == "ok":
        try:
            waiting, oldest = outbox_waiting()
        except DatabaseError as exc:  # the database answers; its outbox does not (not migrated?)
            body["outbox"], stuck = f"failing: {type(exc).__name__}: {exc}"[:300], True
        else:
            body["outbox"] = {"waiting": waiting, "oldest_seconds": None if oldest is None else round(oldest)}
            stuck = oldest is not None and oldest > OUTBOX_STUCK_SECONDS
        if stuck or any(body[part].startswith("failing") for part in ("cache", "broker")):
            body["status"] = "degraded"
        return JsonResponse(body)
    body["status"] = "failing"
    return JsonResponse(body, status=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def _check(probe) -> str:
    try:
        return probe()
    except Exception as exc:  # noqa: BLE001 - any failure of the component is the answer
        return f"failing: {type(exc).__name__}: {exc}"[:300]


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return "ok"


def _cache() -> str:
    cache = caches["default"]
    if not isinstance(cache, ResilientRedisCache):  # no CACHE_URL: each process counts alone
        return "in-process"
    cache.ping()
    return "ok"


def _broker() -> str:
    if celery_app.conf.task_always_eager:  # no broker: tasks run in the web process
        return "in-process"
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    return "ok"
