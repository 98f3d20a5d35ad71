"""Python's cycle collector around batch work: paused while a batch holds tens of thousands of
fresh objects, and the long-lived engine tables kept out of its reach.

Why: a report's slice decodes 20,000 rounds, parses them and builds 40,000 rows of prices, all
alive until the slice ends; the collector, triggered every few hundred allocations, walked that
growing heap again and again, and the engine's warm tables (millions of objects) with it. Measured
on one 20,000-round slice of the re-audit with pricing (docs/benchmarks.md): 6.6-6.9 s with the
collector, 4.3-4.5 s with it paused. Reference counting still frees everything that is not in a
cycle; the few cycles a batch makes (Django's querysets, exceptions' tracebacks) wait for the
first collection after the batch, which is bounded by one batch's size.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic cycle collection inside the block (restored after it, also on error; nests)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def freeze_long_lived() -> int:
    """Move every object alive now to the collector's permanent generation: called once a process
    has built its long-lived tables (a Celery worker's parent after warming, before it forks), so no
    later collection walks them, and no forked child's collection copies their pages. How many
    objects the permanent generation holds."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
