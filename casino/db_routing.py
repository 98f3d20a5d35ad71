"""Reads on a PostgreSQL read replica (``DATABASE_REPLICA_URL``; deploy/README.md, "Read replica").

Only reads marked replica-safe go there: a finance or surveillance page or API list served to a
GET or HEAD, wrapped in :func:`replica_reads` (function views) or :class:`ReplicaReadsMixin`
(DRF viewsets, their ``list``). Everything else reads and writes the primary (alias
``default``): every write, every read after a write in the same request, every read inside a
transaction on the primary, logins, sessions, roles, tokens and casino memberships, the tablet,
Celery tasks, management commands. With no replica configured nothing here is installed.

Read-your-writes: a request that wrote (any unsafe method, or a write by a safe one) pins its
browser (a signed cookie) and its user (the cache) to the primary for ``REPLICA_PIN_SECONDS``,
so a pit boss never misses the round they just saved on the next page.

A replica that refuses connections, or lags by more than ``REPLICA_MAX_LAG_SECONDS``, is
skipped: reads fall back to the primary with a warning in the log, never an error page.
"""

from __future__ import annotations

import functools
import logging
import time
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import Error as DatabaseError
from django.db import connections

logger = logging.getLogger(__name__)

PRIMARY = "default"
REPLICA = "replica"
SAFE_METHODS = ("GET", "HEAD")
PIN_COOKIE = "replica_pin"
_PIN_SALT = "casino.db_routing.pin"

# Read on the primary even in a replica-safe request: who is logged in, with which role, token
# and casinos, and the login lockout. A revoked token or membership must count at once, not
# after the replica's lag.
PRIMARY_ONLY = frozenset({
    "auth", "sessions", "axes", "authtoken", "contenttypes", "admin",
    "casino.apitoken", "casino.casinomembership",
})


@dataclass
class _Request:
    """What the router knows about the request this thread (or task) is serving."""

    replica_safe: bool = False
    wrote: bool = False


_current: ContextVar[_Request | None] = ContextVar("casino_replica_request", default=None)


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


# --- Marking reads replica-safe ---------------------------------------------------------


def _pin_key(user_id) -> str:
    return f"casino:replica-pin:{user_id}"


def pinned(request) -> bool:
    """Whether the browser or the user of ``request`` wrote within REPLICA_PIN_SECONDS."""
    seconds = settings.REPLICA_PIN_SECONDS
    if not seconds:
        return False
    if request.get_signed_cookie(PIN_COOKIE, default=None, salt=_PIN_SALT, max_age=seconds):
        return True
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated and cache.get(_pin_key(user.pk)))


def _pin(request, response) -> None:
    seconds = settings.REPLICA_PIN_SECONDS
    if not seconds:
        return
    response.set_signed_cookie(
        PIN_COOKIE, "1", salt=_PIN_SALT, max_age=seconds, httponly=True,
        secure=settings.SESSION_COOKIE_SECURE, samesite="Lax")
    # A token client keeps no cookie: its user is pinned in the cache (shared by gunicorn's
    # workers when CACHE_URL names Redis; per worker otherwise, deploy/README.md).
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        cache.set(_pin_key(user.pk), True, seconds)


@contextmanager
def replica_reads_for(request):
    """Within the block, reads of ``request`` may go to the replica: a GET or HEAD from a
    browser or user not pinned to the primary, in a request the middleware follows."""
    state = _current.get()
    if state is None or request.method not in SAFE_METHODS or state.replica_safe or pinned(request):
        yield
        return
    state.replica_safe = True
    try:
        yield
    finally:
        state.replica_safe = False


def replica_reads(view):
    """Decorator: the view's reads on a GET or HEAD may go to the replica (outermost, so the
    role check's reads happen inside too; those of users and memberships stay on the primary)."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        with replica_reads_for(request):
            return view(request, *args, **kwargs)

    return wrapped


class ReplicaReadsMixin:
    """For DRF viewsets: their ``list`` reads may go to the replica (authentication, which DRF
    runs before ``list``, stays on the primary)."""

    def list(self, request, *args, **kwargs):
        with replica_reads_for(request):
            return super().list(request, *args, **kwargs)


class ReplicaPinMiddleware:
    """Follows each request for the router (what it marked, whether it wrote) and pins a
    request that wrote to the primary. Installed only with a replica (casino/settings.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        state = _Request()
        token = _current.set(state)
        try:
            response = self.get_response(request)
        finally:
            _current.reset(token)
        if request.method not in SAFE_METHODS or state.wrote:
            _pin(request, response)
        return response


# --- The replica's health ---------------------------------------------------------------


@dataclass
class _Health:
    down_until: float = 0.0
    lag_checked_at: float = float("-inf")
    lag_ok: bool = True


_health = _Health()

# How far the replica is behind: nothing when it has replayed all the primary has written
# (asked of the primary, so a replica cut off from its primary is never taken as caught up);
# else the age of the last transaction it replayed (an overestimate after an idle spell, which
# only sends reads to the primary a little longer).
_REPLAY_LSN = "SELECT pg_last_wal_replay_lsn(), EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())"
_CAUGHT_UP = "SELECT %s::pg_lsn >= pg_current_wal_lsn()"


def replica_lag_seconds() -> float:
    """The replica's lag in seconds (0 when it has replayed everything; infinity when unknown)."""
    with connections[REPLICA].cursor() as cursor:
        cursor.execute(_REPLAY_LSN)
        replayed, age = cursor.fetchone()
    if replayed is None:
        return float("inf")
    with connections[PRIMARY].cursor() as cursor:
        cursor.execute(_CAUGHT_UP, [str(replayed)])
        if cursor.fetchone()[0]:
            return 0.0
    return float("inf") if age is None else float(age)


def replica_usable() -> bool:
    """Whether reads may go to the replica now: it accepts connections and, when
    REPLICA_MAX_LAG_SECONDS is set, lags no more than that (checked every
    REPLICA_LAG_CHECK_SECONDS per process). A refused connection skips it for
    REPLICA_RETRY_SECONDS."""
    now = time.monotonic()
    if now < _health.down_until:
        return False
    connection = connections[REPLICA]
    try:
        # A connection the replica dropped since the last request is found here, not by the
        # page's first query.
        connection.close_if_health_check_failed()
        connection.ensure_connection()
        max_lag = settings.REPLICA_MAX_LAG_SECONDS
        if max_lag and now - _health.lag_checked_at >= settings.REPLICA_LAG_CHECK_SECONDS:
            lag = replica_lag_seconds()
            _health.lag_ok, _health.lag_checked_at = lag <= max_lag, now
            if not _health.lag_ok:
                logger.warning("read replica lags %.1f s (over REPLICA_MAX_LAG_SECONDS=%s): reading the primary",
                               lag, max_lag)
    except DatabaseError as exc:
        _health.down_until = now + settings.REPLICA_RETRY_SECONDS
        logger.warning("read replica unreachable, reading the primary for %s s: %s",
                       settings.REPLICA_RETRY_SECONDS, exc)
        with suppress(DatabaseError):
            connection.close()
        return False
    return _health.lag_ok


def reset_health() -> None:
    """Forget the replica's remembered state (tests; a replica just brought back)."""
    _health.down_until, _health.lag_checked_at, _health.lag_ok = 0.0, float("-inf"), True


# --- The router -------------------------------------------------------------------------


def _primary_only(model) -> bool:
    meta = model._meta
    return meta.app_label in PRIMARY_ONLY or meta.label_lower in PRIMARY_ONLY


class PrimaryReplicaRouter:
    """DATABASE_ROUTERS with a replica: reads of a marked request to ``replica``, everything
    else to ``default``; migrations only on ``default``."""

    def db_for_read(self, model, **hints):
        state = _current.get()
        if state is None or not state.replica_safe or state.wrote or _primary_only(model):
            return PRIMARY
        # Inside a transaction on the primary (an atomic block, a view's own transaction, every
        # non-transactional test) a read must see that transaction's rows: the replica cannot.
        if connections[PRIMARY].in_atomic_block:
            return PRIMARY
        return REPLICA if replica_usable() else PRIMARY

    def db_for_write(self, model, **hints):
        state = _current.get()
        if state is not None:
            # Later reads of this request see the write; the middleware pins its sender.
            state.wrote = True
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints):
        aliases = {PRIMARY, REPLICA}
        if obj1._state.db in aliases and obj2._state.db in aliases:
            return True  # the same data, one of them a copy
        return None

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == PRIMARY
