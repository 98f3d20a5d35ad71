"""Beat's pricing task, queued to Redis and run by a real Celery worker: a version with a priced
twin copies its rows; Poker or Bust's is refused by the engine with the reason stored."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest

from audit.reports.models import ALL_PRICED, EXACT, WagerOddsCache
from audit.reports.tasks import wager_odds_compute
from audit.reports.theoretical import OddsBook
from tables.games import ENGINE_VERSION, GAMES
from tables.games.vocabulary.catalogue import POKER_OR_BUST, UPCARD_LUCK_21, W21
from tests.factories import RulesetFactory
from tests.reports.test_celery_worker import pytestmark as worker_marks
from tests.reports.test_celery_worker import workers  # noqa: F401 - the fixture

pytestmark = worker_marks


def _version(game: str, config: dict):
    full = GAMES[game].rules_to_dict(GAMES[game].rules_from_dict(config))
    return RulesetFactory(game=game, config=full).versions.get()


@pytest.mark.django_db(transaction=True)
def test_a_worker_prices_the_new_versions_beat_sends_it(workers):  # noqa: F811
    twin = _version(UPCARD_LUCK_21, {"decks": 6})
    # The twin priced before (its figure is made up: the worker must copy it, not compute).
    WagerOddsCache.objects.create(ruleset_version=twin, wager=W21, basis=EXACT, house_edge=Decimal("0.0061234"),
                                  variance=Decimal("1.3"), engine_version=ENGINE_VERSION, method="exact: test")
    WagerOddsCache.objects.create(ruleset_version=twin, wager=ALL_PRICED, basis=EXACT, house_edge=0, variance=0,
                                  engine_version=ENGINE_VERSION, method="test")
    same = _version(UPCARD_LUCK_21, {"decks": 6})
    poker = _version(POKER_OR_BUST, {})
    wager_odds_compute.delay()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and WagerOddsCache.objects.filter(wager=ALL_PRICED).count() < 3:
        time.sleep(0.5)
    markers = dict(WagerOddsCache.objects.filter(wager=ALL_PRICED).values_list("ruleset_version", "method"))
    assert markers[same.pk] == f"copied from ruleset version {twin.pk}, whose settings are the same"
    assert markers[poker.pk].startswith("no exact figures: ") and "CPU-hours" in markers[poker.pk] and "--long" in markers[poker.pk]
    got = OddsBook().odds(same, W21)
    assert (got.basis, got.house_edge) == (EXACT, Decimal("0.0061234"))
