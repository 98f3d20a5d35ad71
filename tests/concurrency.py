"""Run writers at once on their own database connections (PostgreSQL row-lock tests)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections


def run_at_once(writers: int, write: Callable[[int], None]) -> list[str]:
    """Start ``write(index)`` in ``writers`` threads released together by a barrier; each closes
    its connections when done. Returns the errors they raised, as text."""
    barrier = threading.Barrier(writers)
    errors: list[str] = []

    def writer(index: int) -> None:
        try:
            barrier.wait()
            write(index)
        except Exception as exc:  # noqa: BLE001 - returned to the test, which asserts there are none
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors
