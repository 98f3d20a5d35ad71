"""Gunicorn configuration for the casino web service.

Used by deploy/systemd/casino-web.service:
    gunicorn casino.wsgi:application -c deploy/gunicorn.conf.py

Tunables (optional, set in /etc/casino/casino.env):
    GUNICORN_WORKERS  worker processes (default: CPU cores + 1)
    GUNICORN_THREADS  threads per worker (default: 2)
    LOG_LEVEL         also used for gunicorn's error log (default: INFO)

The defaults served recorded rounds as fast as any other shape on the project's 2-core
machine (tests/benchmarks/bench_ingest.py, 2026-11-21: 3 x 2, 2 x 2, 4 x 1 and 3 x 1 all
gave 313-331 rounds/s): the work is mostly Python, so processes scale with cores, and a
second thread covers database waits.

Every worker thread can hold its own PostgreSQL connection, so keep
GUNICORN_WORKERS * GUNICORN_THREADS (+ Celery concurrency) below max_connections.
"""

import os


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


# nginx on the same host is the only client.
bind = "127.0.0.1:8000"

workers = int(os.environ.get("GUNICORN_WORKERS") or _cpu_count() + 1)
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS") or 2)

# Worker heartbeat timeout, and how long workers get to finish in-flight
# requests on restart (systemd's TimeoutStopSec is a little longer).
timeout = 60
graceful_timeout = 30

# One request per connection. nginx (deploy/nginx/casino.conf) opens a new upstream
# connection per request anyway; a client that kept its connection would stay with the
# worker that accepted it, and a few such clients can load one worker while the others
# idle (measured: 190-220 rounds/s instead of 270 with the same code).
keepalive = 0

# The application is imported once, in the master, and the workers fork from it: a worker
# starts in milliseconds instead of re-importing Django and the engine (about 0.6 s of CPU),
# and shares those pages with its siblings. Code changes therefore need
# `systemctl restart casino-web`; a reload (HUP) re-reads this file only.
preload_app = True

# Recycle workers now and then (a guard against slow leaks); jitter avoids all workers
# restarting at once. At 1,000 requests a worker restarted every few seconds under
# recording load.
max_requests = 10000
max_requests_jitter = 1000

# The longest request line (method, URL with its query, protocol) gunicorn reads: its most,
# 8,190 bytes, the line nginx's `large_client_header_buffers 4 8k` holds. The API's own URLs
# are far shorter (the longest, /api/v1/findings/ with all 14 of its filters, about 430 bytes);
# gunicorn's default of 4,094 let nginx pass lines of 4-8 KB on and answered them with a
# bare HTML 414. Longer lines are refused by nginx with the API's JSON error
# (deploy/nginx/casino.conf) before they reach gunicorn. Headers keep gunicorn's limits.
limit_request_line = 8190

# Trust X-Forwarded-Proto / X-Forwarded-For only from nginx on localhost.
forwarded_allow_ips = "127.0.0.1,::1"

# Logs go to stdout/stderr and are collected by journald.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "INFO").lower()
access_log_format = (
    '%({x-forwarded-for}i)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'
)

# No runtime control socket (gunicornc); the service is managed by systemd.
control_socket_disable = True

proc_name = "casino-web"


def pre_fork(server, worker):
    """Keep the loaded application out of the garbage collector's full passes.

    Everything the master imported (Django, the apps, the URLconf, the engine) lives as
    long as the workers; frozen before the fork, no worker's full collection walks it on
    the request path, and its pages stay shared between the workers.
    """
    import gc

    gc.freeze()
