"""The read replica in tests: is it there, and has it replayed what the primary committed.

Talks to both servers with psycopg directly, outside Django's connections, so a wait neither
counts in a test's captured queries nor trips a test that may not use the replica alias.
"""

from __future__ import annotations

import os
import time

import psycopg
import pytest
from django.conf import settings

from casino.db_routing import PRIMARY, REPLICA


def _connect(alias: str) -> psycopg.Connection:
    s = settings.DATABASES[alias]
    return psycopg.connect(host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, dbname=s["NAME"],
                           user=s["USER"], password=s["PASSWORD"] or None, connect_timeout=2, autocommit=True)


def replica_missing() -> str | None:
    """Why the replica tests cannot run here, or None when they can."""
    if REPLICA not in settings.DATABASES:
        return ("DATABASE_REPLICA_URL is not set: start a replica with .ci/replica and set "
                "DATABASE_REPLICA_URL=<its URL>/<database>")
    try:
        with _connect(REPLICA) as conn:
            if not conn.execute("SELECT pg_is_in_recovery()").fetchone()[0]:
                return f"DATABASE_REPLICA_URL names {settings.DATABASES[REPLICA]['PORT']}, not a replica in recovery"
    except psycopg.Error as exc:
        return f"the read replica does not answer ({exc}); start it with .ci/replica"
    return None


def require_replica() -> None:
    """Skip the test without a replica; in CI (CI=true, as .ci/run sets) fail instead: the
    replica tests must run there."""
    reason = replica_missing()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI runs the read-replica tests: {reason}")
    pytest.skip(reason)


class Replay:
    """Open connections to both servers, for waiting on the replay many times in one test."""

    def __init__(self):
        self.primary, self.replica = _connect(PRIMARY), _connect(REPLICA)

    def wait(self, timeout: float = 10.0) -> bool:
        target = self.primary.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
        deadline = time.monotonic() + timeout
        while not self.replica.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target]).fetchone()[0]:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def close(self) -> None:
        self.primary.close()
        self.replica.close()


def wait_for_replay(timeout: float = 30.0, *, database_appears: bool = False) -> bool:
    """Wait until the replica has replayed all the primary has written so far (True), or the
    timeout passes (False). ``database_appears``: the test database may not exist on the
    replica yet (just created); an unreachable replica gives up at once."""
    with _connect(PRIMARY) as primary:
        target = primary.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with _connect(REPLICA) as replica:
                while time.monotonic() < deadline:
                    if replica.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target]).fetchone()[0]:
                        return True
                    time.sleep(0.02)
        except psycopg.OperationalError as exc:
            if not (database_appears and "does not exist" in str(exc)):
                return False
            time.sleep(0.1)
    return False
