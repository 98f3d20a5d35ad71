"""The decisions' pricing task: beat sends it every ``DECISIONS_PRICE_SECONDS``; it prices the
queued rounds in batches for at most ``PASS_SECONDS`` (a worker keeps the engine's tables warm,
so the next pass starts where this one stopped). Safe to run twice at once: each pass stores only
the queue entries still at the stamp it read. With ``DECISIONS_WARM_SECONDS`` a worker fills the
tables of the floor's rulesets before it forks its pool, so its children start warm."""

from __future__ import annotations

import logging
import time

from celery import shared_task
from celery.signals import worker_init
from django.conf import settings
from django.db import connections

from casino.collector import collector_paused, freeze_long_lived

from .pricing import price_pending, warm_tables

log = logging.getLogger(__name__)

#: One task's budget: under beat's interval times a few, far under the soft time limit.
PASS_SECONDS = 50.0


@shared_task(name="decisions.price_pending", ignore_result=True)
def price_pending_task() -> int:
    started = time.monotonic()
    total = 0
    while time.monotonic() - started < PASS_SECONDS:
        with collector_paused():  # a batch's rounds and rows (casino/collector.py)
            taken = price_pending()
        total += taken
        if not taken:
            break
    return total


@worker_init.connect
def warm_before_forking(**_kwargs) -> None:
    """In the worker's main process, before the pool forks: the children inherit warm tables.
    The connection it used is closed, so no child shares its socket."""
    budget = settings.DECISIONS_WARM_SECONDS
    if budget <= 0:
        return
    started = time.monotonic()
    try:
        warmed = warm_tables(budget=budget)
    except Exception:  # noqa: BLE001 - a worker that cannot warm still prices, cold
        log.exception("warming the decisions' tables")
        warmed = []
    finally:
        connections.close_all()
    # The warm tables live as long as the worker: no later collection, in the parent or a child,
    # walks them (a child's walk would also copy their pages).
    frozen = freeze_long_lived()
    log.info("decisions' tables warmed for %s in %.1f s; %d objects frozen before the fork",
             ", ".join(warmed) or "no ruleset", time.monotonic() - started, frozen)
