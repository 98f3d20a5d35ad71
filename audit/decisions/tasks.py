"""The decisions' pricing task: beat sends it every ``DECISIONS_PRICE_SECONDS``; it prices the
queued rounds in batches for at most ``PASS_SECONDS`` (a worker keeps the engine's tables warm,
so the next pass starts where this one stopped). Safe to run twice at once: each pass stores only
the queue entries still at the stamp it read."""

from __future__ import annotations

import time

from celery import shared_task

from .pricing import price_pending

#: One task's budget: under beat's interval times a few, far under the soft time limit.
PASS_SECONDS = 50.0


@shared_task(name="decisions.price_pending", ignore_result=True)
def price_pending_task() -> int:
    started = time.monotonic()
    total = 0
    while time.monotonic() - started < PASS_SECONDS:
        taken = price_pending()
        total += taken
        if not taken:
            break
    return total
