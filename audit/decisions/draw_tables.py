"""Poker or Bust's stored draw prices (:class:`~.models.DrawPriceTable`): written once by the
long solve, read by every process that prices rounds.

A process reads a settings' tables once and keeps them (about 9 MB an upcard at six decks);
settings with none stored are asked again after :data:`RECHECK`, so a worker sees a solve that
landed after it started without a restart.
"""

from __future__ import annotations

import time

from tables.games import ENGINE_VERSION
from tables.games.poker_or_bust.draw_prices import DrawPrices, UpcardPrices, settings_key
from tables.games.vocabulary.catalogue import POKER_OR_BUST
from tables.models import RulesetVersion

from .models import DrawPriceTable

#: Seconds a process trusts that no tables are stored for a settings key.
RECHECK = 60.0
_loaded: dict[str, tuple[float, DrawPrices | None]] = {}
_versions: dict[tuple, tuple[float, bool]] = {}


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


def solved(version) -> bool:
    """Whether tables are stored for the settings of ruleset ``version``, without reading them:
    the recorder and the re-audit ask per round, so the answer is kept per version (a yes for
    good, a no for :data:`RECHECK` seconds)."""
    key = (version.pk, version.created_at)  # created_at too: a test database may reuse a pk
    got = _versions.get(key)
    if got is not None and (got[1] or time.monotonic() - got[0] < RECHECK):
        return got[1]
    answer = DrawPriceTable.objects.filter(settings_key=_key(version.rules())).exists()
    _versions[key] = (time.monotonic(), answer)
    return answer


def store(rules, prices: DrawPrices) -> int:
    """Replace the stored tables of ``rules``' settings with ``prices``; how many hands were
    stored. In the caller's transaction (``pricing.draw_prices_store`` queues the rounds too)."""
    key = _key(rules)
    rows = [DrawPriceTable(settings_key=key, upcard=upcard, hands=len(table), error=table.error,
                           data=table.to_bytes(), engine_version=ENGINE_VERSION)
            for upcard, table in sorted(prices.by_upcard.items())]
    DrawPriceTable.objects.filter(settings_key=key).delete()
    DrawPriceTable.objects.bulk_create(rows)
    forget()
    return sum(r.hands for r in rows)


def versions_of(rules) -> list[int]:
    """The Poker or Bust ruleset versions whose settings are ``rules``'."""
    key = _key(rules)
    return [v.pk for v in RulesetVersion.objects.filter(game=POKER_OR_BUST) if _key(v.rules()) == key]


def forget() -> None:
    """Drop what this process read (tests; a table remade under it)."""
    _loaded.clear()
    _versions.clear()
