"""``gamemath edge`` joins each game's exact wagers from the modules that price them, and
``gamemath decision --wager ante`` prices Ante Up 21's fold-or-bet decision.

The figures themselves are each module's tests' (test_strategy_math, test_ante_up_math,
test_tie_math, test_poker_or_bust_exact); here the modules' answers are stood in for, so the
command's wiring is checked without a minute of math per game."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tables.games.blackjack import ante_up_math, strategy_math, tie_math
from tables.games.vocabulary.catalogue import ANTE, BET, TIE_WAGERS, W21


def gamemath(*args: str) -> dict:
    out = io.StringIO()
    call_command("gamemath", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def _entry(edge: float) -> dict:
    return {"house_edge": edge, "variance": 1.0, "method": "exact", "strategy": "stood in", "exact": {}}


@pytest.fixture
def stood_in(monkeypatch):
    monkeypatch.setattr(strategy_math, "edge_wagers", lambda rules: {W21: _entry(0.004)})
    monkeypatch.setattr(ante_up_math, "edge_wagers", lambda rules: {ANTE: _entry(0.01), BET: _entry(0.19)})
    monkeypatch.setattr(tie_math, "edge_wagers",
                        lambda rules: {key: _entry(0.08) for key in TIE_WAGERS.values()})


@pytest.mark.parametrize(("game", "expected"), [
    ("ante_up_21", {W21, ANTE, BET}),
    ("blackjack_tie", {W21, *TIE_WAGERS.values()}),
    ("upcard_luck_21", {W21}),
])
def test_edge_joins_every_module_that_prices_a_wager_of_the_game(stood_in, game, expected):
    result = gamemath("edge", "--game", game)
    assert result["game"] == game
    assert set(result["wagers"]) == expected
    assert all(w["method"] == "exact" for w in result["wagers"].values())


def test_the_ante_decision_is_fold_or_bet_per_unit_of_the_ante():
    result = gamemath("decision", "--game", "ante_up_21", "--wager", "ante", "--rules", '{"decks": 1}',
                      "--hand", "AS,AH", "--upcard", "5D")
    assert set(result["actions"]) == {"fold", "bet"}
    assert result["actions"]["fold"] == -1.0  # folding gives up the ANTE
    assert result["best"] == "bet" and result["actions"]["bet"] > -1.0


def test_the_ante_decision_is_ante_up_21s_only():
    with pytest.raises(CommandError, match="no such decision"):
        gamemath("decision", "--game", "blackjack_tie", "--wager", "ante", "--hand", "AS,AH", "--upcard", "5D")
    with pytest.raises(CommandError, match="before any split"):
        gamemath("decision", "--game", "ante_up_21", "--wager", "ante", "--after-split",
                 "--hand", "AS,AH", "--upcard", "5D")
