"""The engine's exact edges of a ruleset version, computed once and kept (``WagerOddsCache``).

The no-decision side bets are priced on first use (``theoretical._exact_odds``: milliseconds).
The wagers that turn on the player's play (the 21 bet, insurance, Ante Up 21's ANTE and BET,
Blackjack Tie's bonuses, Poker or Bust's ANTE and ODDS) take the engine's optimal-strategy
math (``tables.games.edges``): 10 to 50 s of CPU per blackjack shoe, so a Celery task prices
them (``reports.wager_odds_compute``, every minute from beat, for each version without them)
and no page or report waits for it. Until then a wager reads the house's assumed figure, and
says the exact one is coming (``theoretical.OddsBook``).

A version whose settings equal an already priced version's (same game, same settings once the
card's defaults are filled in, same engine) copies that version's rows: a ruleset edited back
and forth, or the same rules at many tables, is priced once.
"""

from __future__ import annotations

import json
import logging
import os
import time
from decimal import Decimal

from django.db import transaction

from audit.decisions import draw_tables
from audit.decisions.pricing import draw_prices_store
from tables.games import ENGINE_VERSION, GAMES
from tables.games.edges import NotExact, wager_edges
from tables.models import RulesetVersion

from ..models import ALL_PRICED, EXACT, WagerOddsCache
from ..theoretical import PRICED_GAMES

log = logging.getLogger(__name__)


def _settings_key(version: RulesetVersion) -> str:
    game = GAMES[version.game]
    return json.dumps(game.rules_to_dict(game.rules_from_dict(version.config)), sort_keys=True, default=str)


def _decimal(value) -> Decimal:
    return Decimal(repr(float(value)))


def _twin(version: RulesetVersion) -> RulesetVersion | None:
    """An already priced version with the same game, settings and engine, if any."""
    key = _settings_key(version)
    priced = (WagerOddsCache.objects.filter(wager=ALL_PRICED, engine_version=ENGINE_VERSION,
                                            ruleset_version__game=version.game)
              .exclude(ruleset_version=version).select_related("ruleset_version"))
    for row in priced:
        if _settings_key(row.ruleset_version) == key:
            return row.ruleset_version
    return None


def _rules(version: RulesetVersion):
    return GAMES[version.game].rules_from_dict(version.config)


def _rows_from_engine(version: RulesetVersion, **options) -> tuple[list[WagerOddsCache], str]:
    rules = _rules(version)
    started, wall = _cpu(), time.perf_counter()
    # Poker or Bust's whole-game solve also keeps the values its rounds' decisions are priced from.
    kept: list = []
    try:
        edges = wager_edges(version.game, rules, **options, draw_prices=kept)
    except NotExact as exc:
        return [], f"no exact figures: {exc}"
    kept_how = ""
    if kept:
        hands = draw_prices_store(rules, kept[0])
        kept_how = f"; the draw prices of {hands:,} hands stored"
    rows = [
        WagerOddsCache(ruleset_version=version, wager=wager, basis=EXACT, house_edge=_decimal(fig["house_edge"]),
                       variance=_decimal(fig["variance"]), engine_version=ENGINE_VERSION,
                       method=f"{fig['method']}: {fig['strategy']}"[:300])
        for wager, fig in edges.items()
    ]
    precision = {fig.get("exact", {}).get("precision") for fig in edges.values()} - {None}
    return rows, (f"computed by the engine {ENGINE_VERSION} in {_cpu() - started:.1f} s of CPU "
                  f"({time.perf_counter() - wall:.0f} s)" + "".join(f"; {p}" for p in sorted(precision)) + kept_how)


def _cpu() -> float:
    """CPU seconds of this process and of the processes it waited for (a long solve's)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _left_without(version: RulesetVersion) -> bool:
    """Whether ``version`` was marked priced with no exact figure of its own (the engine named
    why: Poker or Bust's long solve, for one)."""
    return not WagerOddsCache.objects.filter(ruleset_version=version, basis=EXACT).exclude(
        wager__in=("", ALL_PRICED)).exists()


def wager_odds_compute(*, version: RulesetVersion, long_solve: bool = False, jobs: int = 1) -> str:
    """Store every exact figure of ``version`` (once: a version already priced is left as is).

    ``long_solve`` (``price_rulesets --long``) also solves what takes hours (Poker or Bust's
    whole decks, ``jobs`` processes), for a version left without figures, in this process: the
    background task never does (its time limit is minutes).

    The engine computes outside any transaction (on SQLite a transaction holds the writer's
    lock, on PostgreSQL a minute-long transaction holds back vacuum); the rows are then written
    in one short transaction that locks the version's row (``FOR NO KEY UPDATE``: recording at
    its tables only references the row and is not held up) and checks again that no one stored
    them meanwhile. Two workers that met the same new version both compute; the first to store
    wins and the other's figures, the same, are dropped.
    """
    if version.game not in PRICED_GAMES:
        return "no house wager to price"
    marked = WagerOddsCache.objects.filter(ruleset_version=version, wager=ALL_PRICED).exists()
    # a long solve is run (again) for what it alone makes: figures left out, or Poker or Bust's draw
    # prices (stored per settings; missing where the settings were priced before they were kept)
    tables = long_solve and draw_tables.missing(version.game, _rules(version))
    again = long_solve and marked and (_left_without(version) or tables)
    if marked and not again:
        return "already priced"
    twin = _twin(version)
    if twin is not None and (tables or (again and _left_without(twin))):
        twin = None
    if twin is not None:
        rows = [WagerOddsCache(ruleset_version=version, wager=r.wager, basis=r.basis, house_edge=r.house_edge,
                               variance=r.variance, engine_version=r.engine_version, method=r.method)
                for r in WagerOddsCache.objects.filter(ruleset_version=twin).exclude(wager__in=("", ALL_PRICED))]
        how = f"copied from ruleset version {twin.pk}, whose settings are the same"
    else:
        rows, how = _rows_from_engine(version, long_solve=long_solve, jobs=jobs)
    with transaction.atomic():
        RulesetVersion.objects.select_for_update(no_key=True).filter(pk=version.pk).first()
        if again:
            if not rows:
                return how
            WagerOddsCache.objects.filter(ruleset_version=version, wager=ALL_PRICED).delete()
        elif WagerOddsCache.objects.filter(ruleset_version=version, wager=ALL_PRICED).exists():
            return "already priced"
        # The engine's figures replace the side bets' first-use rows of the same wagers: one source.
        WagerOddsCache.objects.filter(ruleset_version=version, wager__in=[r.wager for r in rows]).delete()
        WagerOddsCache.objects.bulk_create(rows)
        WagerOddsCache.objects.create(ruleset_version=version, wager=ALL_PRICED, basis=EXACT, house_edge=0,
                                      variance=0, engine_version=ENGINE_VERSION, method=how[:300])
    log.info("ruleset version %s: %s", version.pk, how)
    return how


def versions_unpriced():
    """The ruleset versions of the priced games whose exact figures are not stored yet, oldest first."""
    return (RulesetVersion.objects.filter(game__in=PRICED_GAMES)
            .exclude(pk__in=WagerOddsCache.objects.filter(wager=ALL_PRICED).values("ruleset_version"))
            .order_by("pk"))
