"""Time the advantage-play page and API on a bench database: not a test.

``DATABASE_URL=postgres://.../COPY .venv/bin/python -m tests.benchmarks.advantage_pages [--day YYYY-MM-DD]``

Run it on a copy of a database made by ``tests/benchmarks/bench_history.py --keep`` (migrated to
the code under test; ``manage.py advantage_lines_rebuild`` where the lines exist): it logs in as
``bench-surveillance`` through Django's test client and prints the median of 3 requests after a
warm-up for the page and the API (the default: the current gaming day, all tables; ``--day`` for
another day). It writes nothing. ``--freeze`` keeps what is loaded out of the garbage collector's full
passes, as the production server does (deploy/gunicorn.conf.py ``pre_fork``).
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import statistics
import sys
import time

URLS = ("/desk/advantage/", "/api/v1/advantage-play/")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="time_pages")
    parser.add_argument("--day", help="gaming day (YYYY-MM-DD); default: the current one")
    parser.add_argument("--user", default="bench-surveillance")
    parser.add_argument("--freeze", action="store_true",
                        help="gc.freeze() after the warm-up, as deploy/gunicorn.conf.py does before forking a worker")
    options = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    logging.getLogger("django.request").setLevel(logging.ERROR)
    user = get_user_model().objects.get(username=options.user)
    client = Client(raise_request_exception=True)
    client.force_login(user)
    query = {"gaming_day": options.day} if options.day else {}
    for url in URLS:
        client.get(url, query)  # the warm-up
    if options.freeze:
        gc.freeze()
    for url in URLS:
        seconds, cpu = [], []
        for _ in range(3):
            t, c = time.perf_counter(), time.process_time()
            response = client.get(url, query)
            seconds.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        extra = ""
        if url.startswith("/api/"):
            body = response.json()
            extra = (f" rounds={body.get('rounds')} players={body.get('count', len(body.get('rows', ())))}"
                     f" day={body.get('gaming_day')}")
        print(f"{url:28} {response.status_code} median {statistics.median(seconds) * 1000:5.0f} ms "
              f"(runs {', '.join(f'{s * 1000:.0f}' for s in seconds)}; CPU median "
              f"{statistics.median(cpu) * 1000:.0f} ms) {len(response.content) / 1e6:.2f} MB{extra}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
