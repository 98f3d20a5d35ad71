"""Remaking the decisions' prices of a period from the rounds (the repair path, the re-audit's
and the rollups' rebuild): every round of a priced game queued again, then priced a day at a time."""

from __future__ import annotations

from datetime import date

from django.db import router

from tables.games.decision_prices import ROUND_PRICES
from tables.history.days import days_with_tables
from tables.models import Round

from .models import SeatDecisions
from .pricing import price_all_pending, rounds_queue


def day_queue(gaming_day: date, *, table_ids: list[int] | None = None) -> int:
    """Queue every round of ``gaming_day`` (at ``table_ids``) of a priced game; how many."""
    rounds = Round.objects.filter(gaming_day=gaming_day, game__in=list(ROUND_PRICES))
    if table_ids is not None:
        rounds = rounds.filter(table_id__in=table_ids)
    pairs = list(rounds.order_by().values_list("id", "gaming_day"))
    rounds_queue(pairs, using=router.db_for_write(SeatDecisions))
    return len(pairs)


def decisions_rebuild(*, since: date | None = None, until: date | None = None, queue_only: bool = False) -> tuple[int, int]:
    """Queue and (unless ``queue_only``: the workers' beat task prices them) price every round of
    the period; (days, rounds). A day's rows of rounds no longer there go too."""
    by_day = days_with_tables(Round, SeatDecisions, since=since, until=until)
    rounds = 0
    for day in sorted(by_day):
        known = set(Round.objects.filter(gaming_day=day).values_list("id", flat=True))
        SeatDecisions.objects.filter(gaming_day=day).exclude(round_id__in=known).delete()
        rounds += day_queue(day)
        if not queue_only:
            price_all_pending(gaming_day=day)
    return len(by_day), rounds
