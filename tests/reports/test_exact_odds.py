"""A ruleset version's exact edges: priced once by the beat task, then the theo of every report
and rating reads them; until then the assumed figure says the exact one is coming."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest

from audit.reports import tasks
from audit.reports.models import ALL_PRICED, EXACT, WagerOddsCache
from audit.reports.services import odds
from audit.reports.theoretical import PENDING, OddsBook
from tables.games import GAMES
from tables.games.edges import NotExact, wager_edges
from tables.games.vocabulary.catalogue import (
    INSURANCE,
    POKER_OR_BUST,
    UPCARD_LUCK,
    UPCARD_LUCK_21,
    W21,
)
from tables.models import RulesetVersion
from tests.factories import RulesetFactory

pytestmark = pytest.mark.django_db

#: The 21 bet's anchor shoe of tests/games/test_strategy_math.py (6 decks, S17): on its worker the
#: dealer's odds of that shoe are computed once for both files.
S17 = {"decks": 6, "dealer_hits_soft_17": False}


def _version(game: str, config: dict) -> RulesetVersion:
    full = GAMES[game].rules_to_dict(GAMES[game].rules_from_dict(config))
    return RulesetFactory(game=game, config=full).versions.get()


@pytest.mark.slow
@pytest.mark.xdist_group("strategy-6d-s17")
def test_the_task_prices_a_new_version_and_theo_reads_it():
    version = _version(UPCARD_LUCK_21, S17)
    before = OddsBook().odds(version, W21)
    assert before.basis == "assumption" and before.note.startswith(PENDING)
    # The no-decision side bets are exact from the first use, as before.
    assert OddsBook().odds(version, UPCARD_LUCK).basis == EXACT

    assert tasks.wager_odds_compute() == 1
    engine = wager_edges(UPCARD_LUCK_21, version.rules())
    book = OddsBook()
    for wager in (W21, INSURANCE, UPCARD_LUCK):
        got = book.odds(version, wager)
        assert got.basis == EXACT, wager
        assert float(got.house_edge) == pytest.approx(engine[wager]["house_edge"], abs=1e-10), wager
        assert float(got.variance) == pytest.approx(engine[wager]["variance"], abs=1e-8), wager
    # 6 decks S17 DAS with the card's other settings: the calculator's 0.4031% is the anchor of the
    # strategy's tests; insurance is 1 - 3 x 96 / 311 exactly.
    assert book.odds(version, INSURANCE).house_edge == pytest.approx(Decimal(1) - Decimal(288) / Decimal(311),
                                                                     abs=Decimal("1e-10"))
    assert "composition-dependent" in book.odds(version, W21).note
    assert odds.versions_unpriced().count() == 0
    assert tasks.wager_odds_compute() == 0  # priced once, kept


def test_a_version_with_the_same_settings_copies_the_figures(monkeypatch):
    calls = []

    def fake_edges(game, rules, **_):
        calls.append(game)
        fig = {"house_edge": 0.0042, "variance": 1.3, "method": "exact", "strategy": "test strategy"}
        return {W21: fig, INSURANCE: {**fig, "house_edge": 0.07}}

    monkeypatch.setattr(odds, "wager_edges", fake_edges)
    first = _version(UPCARD_LUCK_21, S17)
    odds.wager_odds_compute(version=first)
    # The same settings spelled differently (defaults left out), then other settings.
    same = RulesetFactory(game=UPCARD_LUCK_21, config=S17).versions.get()
    other = _version(UPCARD_LUCK_21, {**S17, "decks": 2})
    assert "copied from ruleset version" in odds.wager_odds_compute(version=same)
    assert "computed by the engine" in odds.wager_odds_compute(version=other)
    assert calls == [UPCARD_LUCK_21, UPCARD_LUCK_21]
    assert OddsBook().odds(same, W21).house_edge == Decimal("0.0042")
    assert odds.wager_odds_compute(version=same) == "already priced"


def test_a_game_beyond_exact_enumeration_keeps_its_assumed_figure_and_says_why(monkeypatch):
    def too_large(game, rules, **_):
        raise NotExact("the shoe is too large for exact enumeration")

    monkeypatch.setattr(odds, "wager_edges", too_large)
    version = _version(POKER_OR_BUST, {})
    assert OddsBook().odds(version, "ante").note.startswith(PENDING)
    odds.wager_odds_compute(version=version)
    marker = WagerOddsCache.objects.get(ruleset_version=version, wager=ALL_PRICED)
    assert marker.method == "no exact figures: the shoe is too large for exact enumeration"
    got = OddsBook().odds(version, "ante")
    assert got.basis == "assumption" and not got.note.startswith(PENDING)


def test_the_long_solve_prices_a_version_the_task_left_without_figures_once(monkeypatch):
    from django.core.management import call_command

    calls = []

    from audit.decisions.models import DrawPriceTable
    from tables.games.poker_or_bust.draw_prices import DrawPrices, UpcardPrices

    def engine(game, rules, long_solve=False, jobs=1, draw_prices=None, **_):
        calls.append((long_solve, jobs))
        if not long_solve:
            raise NotExact("12 CPU-hours: `manage.py price_rulesets --long` solves it")
        # the same solve keeps the draw prices of the rounds (one hand here)
        draw_prices.append(DrawPrices({0: UpcardPrices(0, [1], [-0.5], [-0.25], [1e-9])}, whole_shoe=True))
        return {"ante": {"house_edge": 0.0123, "variance": 0.98, "method": "exact", "strategy": "optimal"},
                "odds": {"house_edge": 0.0456, "variance": 1.7, "method": "exact", "strategy": "optimal"}}

    monkeypatch.setattr(odds, "wager_edges", engine)
    version = _version(POKER_OR_BUST, {})
    assert tasks.wager_odds_compute() == 1  # the beat task: the reason, no figures
    assert OddsBook().odds(version, "ante").basis == "assumption"
    out = io.StringIO()
    call_command("price_rulesets", "--long", "--jobs", "2", stdout=out)
    assert "computed by the engine" in out.getvalue()
    assert calls == [(False, 1), (True, 2)]
    book = OddsBook()
    assert book.odds(version, "ante").basis == EXACT and book.odds(version, "ante").house_edge == Decimal("0.0123")
    assert book.odds(version, "odds").house_edge == Decimal("0.0456")
    [(upcard, hands, error)] = DrawPriceTable.objects.values_list("upcard", "hands", "error")
    assert (upcard, hands) == (0, 1) and error == pytest.approx(1e-9, rel=1e-5)
    # priced now: neither the task nor another long run solves it again
    assert tasks.wager_odds_compute() == 0
    call_command("price_rulesets", "--long", stdout=io.StringIO())
    assert len(calls) == 2


def test_poker_or_bust_six_decks_is_left_to_the_long_solve_by_the_background_task():
    # 12.3 billion hands to solve, hours of CPU: the beat task names the count and the command
    with pytest.raises(NotExact, match=r"12,331,667,818 player hands to solve.*CPU-hours.*--long"):
        wager_edges(POKER_OR_BUST, GAMES[POKER_OR_BUST].default_rules())


def test_holdem_has_nothing_to_price():
    version = _version("holdem_blackjack", {})
    assert odds.wager_odds_compute(version=version) == "no house wager to price"
    assert not odds.versions_unpriced().filter(pk=version.pk).exists()


def test_the_command_prices_what_is_unpriced_and_names_a_wrong_version(monkeypatch):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    monkeypatch.setattr(odds, "wager_edges", lambda game, rules, **_: {
        W21: {"house_edge": 0.005, "variance": 1.3, "method": "exact", "strategy": "test strategy"}})
    version = _version(UPCARD_LUCK_21, S17)
    out = io.StringIO()
    call_command("price_rulesets", stdout=out)
    assert f", version {version.number} (Upcard Luck 21): computed by the engine" in out.getvalue()
    out = io.StringIO()
    call_command("price_rulesets", stdout=out)
    assert out.getvalue().strip() == "every ruleset version is priced"
    with pytest.raises(CommandError, match="--ruleset-version 999999: no such ruleset version"):
        call_command("price_rulesets", "--ruleset-version", "999999")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_pricing_one_version_at_once_store_it_once(monkeypatch):
    """Two connections meet the same new version together (two beat deliveries): both compute,
    the row lock lets one store, the other finds it priced."""
    from django.db import connection

    from tests.concurrency import run_at_once

    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL")

    def slow_edges(game, rules, **_):
        import time

        time.sleep(0.3)  # both are computing when the first stores
        return {W21: {"house_edge": 0.005, "variance": 1.3, "method": "exact", "strategy": "test"}}

    monkeypatch.setattr(odds, "wager_edges", slow_edges)
    version = _version(UPCARD_LUCK_21, S17)
    said: list[str] = []
    errors = run_at_once(2, lambda _: said.append(odds.wager_odds_compute(version=RulesetVersion.objects.get(
        pk=version.pk))))
    assert errors == []
    assert sorted(s.split(" by")[0] for s in said) == ["already priced", "computed"]
    assert WagerOddsCache.objects.filter(ruleset_version=version, wager=ALL_PRICED).count() == 1
    assert WagerOddsCache.objects.filter(ruleset_version=version, wager=W21).count() == 1


def test_a_version_priced_before_the_draw_prices_were_kept_is_solved_again_by_the_long_solve(monkeypatch):
    from audit.decisions.models import DrawPriceTable
    from tables.games.poker_or_bust.draw_prices import DrawPrices, UpcardPrices

    calls = []

    def engine(game, rules, long_solve=False, draw_prices=None, **_):
        calls.append(long_solve)
        draw_prices.append(DrawPrices({0: UpcardPrices(0, [1], [-0.5], [-0.25], [0.0])}, whole_shoe=True))
        return {"ante": {"house_edge": 0.0123, "variance": 0.98, "method": "exact", "strategy": "optimal"},
                "odds": {"house_edge": 0.0456, "variance": 1.7, "method": "exact", "strategy": "optimal"}}

    monkeypatch.setattr(odds, "wager_edges", engine)
    version = _version(POKER_OR_BUST, {})
    twin = _version(POKER_OR_BUST, {})
    odds.wager_odds_compute(version=version, long_solve=True)
    DrawPriceTable.objects.all().delete()  # as a deployment's figures from before the tables were kept
    # a twin with figures but no tables is no source: the long solve runs (once) for the tables
    assert odds.wager_odds_compute(version=twin, long_solve=True).startswith("computed by the engine")
    assert DrawPriceTable.objects.count() == 1
    assert odds.wager_odds_compute(version=version, long_solve=True) == "already priced"
    assert calls == [True, True]
