"""The shared cache on Redis, answering as an empty cache while Redis cannot be reached.

What the app keeps in the cache can be lost without harm: the API throttle's recent requests
per user, the read replica's pin after a write (casino/db_routing.py). So a Redis outage must
not turn every request into an error page (Django's RedisCache raises from ``cache.get``):
reads answer as a miss, writes are dropped, and a warning is logged. The floor keeps recording
rounds; the throttle lets every request through until Redis is back.

After a failure the cache does not ask Redis again for ``DOWN_SECONDS`` (per process), so a
Redis that hangs rather than refuses costs one socket timeout per process every few seconds,
not one per request, and the log gets one warning per process per period, not one per request.
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

#: Seconds a process answers from no cache after Redis failed it, before asking Redis again.
DOWN_SECONDS = 5.0
#: Socket timeouts (seconds) unless the cache's OPTIONS set their own: a Redis host that does
#: not answer costs a request this long, not the operating system's minutes.
SOCKET_TIMEOUTS = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}

_MISSING = object()
# When each Redis (by its servers) last failed this process: Django makes a cache object per
# thread, and a gunicorn worker's threads share one down period.
_FAILED_AT: dict[tuple, float] = {}
_UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class ResilientRedisCache(RedisCache):
    """Django's RedisCache that degrades to no cache (with a warning) while Redis is unreachable."""

    def __init__(self, server, params):
        params = {**params, "OPTIONS": {**SOCKET_TIMEOUTS, **params.get("OPTIONS", {})}}
        super().__init__(server, params)
        self._key = tuple(self._servers)

    def unavailable(self) -> bool:
        """Whether Redis failed this process within the last ``DOWN_SECONDS``."""
        return time.monotonic() - _FAILED_AT.get(self._key, float("-inf")) < DOWN_SECONDS

    def _guarded(self, operation: str, call, fallback):
        if self.unavailable():
            return fallback
        try:
            return call()
        except _UNREACHABLE as exc:
            _FAILED_AT[self._key] = time.monotonic()
            log.warning(
                "cache: Redis unreachable (%s on %s: %s); answering without the cache for %.0f s "
                "(the API throttle lets requests through meanwhile)",
                type(exc).__name__, operation, exc, DOWN_SECONDS,
            )
            return fallback

    def get(self, key, default=None, version=None):
        return self._guarded("get", lambda: super(ResilientRedisCache, self).get(key, default, version), default)

    def get_many(self, keys, version=None):
        return self._guarded("get_many", lambda: super(ResilientRedisCache, self).get_many(keys, version), {})

    def has_key(self, key, version=None):
        return self._guarded("has_key", lambda: super(ResilientRedisCache, self).has_key(key, version), False)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded("add", lambda: super(ResilientRedisCache, self).add(key, value, timeout, version), False)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded("set", lambda: super(ResilientRedisCache, self).set(key, value, timeout, version), None)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded("set_many", lambda: super(ResilientRedisCache, self).set_many(data, timeout, version),
                             list(data))

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded("touch", lambda: super(ResilientRedisCache, self).touch(key, timeout, version), False)

    def delete(self, key, version=None):
        return self._guarded("delete", lambda: super(ResilientRedisCache, self).delete(key, version), False)

    def delete_many(self, keys, version=None):
        return self._guarded("delete_many", lambda: super(ResilientRedisCache, self).delete_many(keys, version), None)

    def incr(self, key, delta=1, version=None):
        value = self._guarded("incr", lambda: super(ResilientRedisCache, self).incr(key, delta, version), _MISSING)
        if value is _MISSING:  # as Django answers for a missing key: no counter to add to
            raise ValueError(f"Key '{key}' not found (the cache's Redis is unreachable)")
        return value

    def clear(self):
        return self._guarded("clear", lambda: super(ResilientRedisCache, self).clear(), False)

    def ping(self) -> None:
        """Raise when Redis does not answer (for /healthz); never answered from the down period."""
        self._cache.get_client(write=False).ping()

