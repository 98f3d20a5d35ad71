"""A Redis server of the test's own, which the test may really stop (an outage, not a mock).

Started on the first free port from ``OWN_REDIS_PORTS`` (default 6390-6399), never the shared
broker's; skipped, with the reason, where redis-server is not installed.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from contextlib import closing, contextmanager

import pytest


def _free_port() -> int:
    first, _, last = os.environ.get("OWN_REDIS_PORTS", "6390-6399").partition("-")
    for port in range(int(first), int(last or first) + 1):
        with closing(socket.socket()) as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    pytest.skip(f"no free port in OWN_REDIS_PORTS ({first}-{last}) for a Redis of the test's own")


class OwnRedis:
    def __init__(self):
        if not shutil.which("redis-server"):
            pytest.skip("redis-server is not installed: the outage tests stop a real Redis of their own")
        self.port = _free_port()
        self.start()

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def answers(self) -> bool:
        with closing(socket.socket()) as probe:
            return probe.connect_ex(("127.0.0.1", self.port)) == 0

    def start(self) -> None:
        subprocess.run(["redis-server", "--daemonize", "yes", "--port", str(self.port), "--save", "",
                        "--appendonly", "no", "--bind", "127.0.0.1"], check=True, capture_output=True)
        for _ in range(100):
            if self.answers():
                return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server on {self.port} did not start")

    def stop(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True)
        for _ in range(100):
            if not self.answers():
                return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server on {self.port} did not stop")


@contextmanager
def broker_at(url: str):
    """Celery sends to ``url`` (not eagerly) for the block, as a deployed web process does (a
    ``url`` where no Redis listens: a broker that is down)."""
    from casino.celery import app as celery_app

    conf = celery_app.conf
    saved = conf.broker_url, conf.broker_write_url, conf.task_always_eager
    # Celery reads the environment's CELERY_BROKER_URL before its own setting (as CI sets it).
    saved_env = os.environ.pop("CELERY_BROKER_URL", None)
    _drop_pooled_connections()
    conf.broker_url, conf.broker_write_url, conf.task_always_eager = url, None, False
    try:
        yield
    finally:
        _drop_pooled_connections()
        conf.broker_url, conf.broker_write_url, conf.task_always_eager = saved
        if saved_env is not None:
            os.environ["CELERY_BROKER_URL"] = saved_env


def _drop_pooled_connections() -> None:
    """Celery's pooled connections and producers lead to the broker they were made for: drop
    them, as Celery itself does in a forked child (``Celery._after_fork``). Not closed: kombu
    keeps the pools by broker and hands them out again for the same broker."""
    from casino.celery import app as celery_app

    celery_app._pool = None
    celery_app.amqp._producer_pool = None
