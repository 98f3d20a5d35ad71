"""Poker or Bust's stored draw prices (:class:`~.models.DrawPriceTable`): written once by the
long solve, read by every process that prices rounds.

A process reads a settings' tables once and keeps them (about 9 MB an upcard at six decks);
settings with none stored are asked again after :data:`RECHECK`, so a worker sees a solve that
landed after it started without a restart.
"""

from __future__ import annotations

import time

from django.db import transaction

from tables.games import ENGINE_VERSION
from tables.games.poker_or_bust.draw_prices import DrawPrices, UpcardPrices, settings_key
from tables.games.vocabulary.catalogue import POKER_OR_BUST
from tables.models import RulesetVersion

from .models import DrawPriceTable, SeatDecisions
from .pricing import rounds_queue

#: Seconds a process trusts that no tables are stored for a settings key.
RECHECK = 60.0
_loaded: dict[str, tuple[float, DrawPrices | None]] = {}


def _key(rules) -> str:
    return settings_key(rules.decks, rules.odds_paytable)


def stored(rules) -> DrawPrices | None:
    """The stored tables of ``rules``' settings, or None (the source ``draw_prices`` reads)."""
    key = _key(rules)
    got = _loaded.get(key)
    if got is not None and (got[1] is not None or time.monotonic() - got[0] < RECHECK):
        return got[1]
    rows = list(DrawPriceTable.objects.filter(settings_key=key).values_list("upcard", "data"))
    prices = None
    if rows:
        by_upcard = {upcard: UpcardPrices.from_bytes(bytes(data)) for upcard, data in rows}
        prices = DrawPrices(by_upcard, whole_shoe=True)
    _loaded[key] = (time.monotonic(), prices)
    return prices


def missing(game: str, rules) -> bool:
    """Whether ``game`` keeps draw prices (Poker or Bust) and none are stored for ``rules``."""
    return game == POKER_OR_BUST and not DrawPriceTable.objects.filter(settings_key=_key(rules)).exists()


def store(rules, prices: DrawPrices) -> int:
    """Replace the stored tables of ``rules``' settings with ``prices``, in one transaction, and
    queue for pricing again the rounds of those settings priced without them; how many hands
    were stored."""
    key = _key(rules)
    rows = [DrawPriceTable(settings_key=key, upcard=upcard, hands=len(table), error=table.error,
                           data=table.to_bytes(), engine_version=ENGINE_VERSION)
            for upcard, table in sorted(prices.by_upcard.items())]
    with transaction.atomic():
        DrawPriceTable.objects.filter(settings_key=key).delete()
        DrawPriceTable.objects.bulk_create(rows)
        rounds_queue(_priced_without(key))
    _loaded.pop(key, None)
    return sum(r.hands for r in rows)


def _priced_without(key: str) -> list[tuple[int, object]]:
    """(round id, gaming day) of the Poker or Bust rounds of settings ``key`` whose seats were
    priced with no table (every decision unpriced: no priced handle)."""
    versions = [v for v in RulesetVersion.objects.filter(game=POKER_OR_BUST) if _key(v.rules()) == key]
    return list(SeatDecisions.objects.filter(ruleset_version__in=versions, handle=0).order_by()
                .values_list("round_id", "gaming_day").distinct())


def forget() -> None:
    """Drop what this process read (tests; a table remade under it)."""
    _loaded.clear()
