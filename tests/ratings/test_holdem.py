"""Hold'em Blackjack: the house has no stake in the pot; a player's theo and actual are their part
of the hand's rake, in proportion to the chips they put in the pot.

The hand of tests/tables/rounds_data.py HOLDEM_CORRECT at a table raking 10% (no cap):
  chips in the pot: seat 1 (P-1001) 0.50 + 4 + 4 + 10 = 18.50; seat 2 (P-1002) 0.50 + 1 = 1.50;
  seat 4 (no identifier) 0.50 + 2 + 2 + 4 + 10 = 18.50; pot 38.50.
  Rake due 10% of 38.50 = 3.85; the dealer takes 3.85 and pushes 34.65 to seat 1.
  P-1001: 3.85 x 18.50 / 38.50 = 1.85 (theo and actual); P-1002: 3.85 x 1.50 / 38.50 = 0.15.
  The 1.85 of seat 4 belongs to nobody rated; the three parts add up to the report's rake, 3.85.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from audit.ratings.selectors import day_ratings
from tables.games import GAMES
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.factories import DealerFactory, RulesetFactory, TableFactory, user_with_role
from tests.tables.rounds_data import HOLDEM_CORRECT

pytestmark = pytest.mark.django_db


def test_the_rake_is_shared_by_chips_in_the_pot():
    rules = GAMES["holdem_blackjack"].rules_to_dict(GAMES["holdem_blackjack"].default_rules())
    rules["rake_percent"] = "10"
    table = TableFactory(game="holdem_blackjack", seats=6,
                         ruleset=RulesetFactory(game="holdem_blackjack", config=rules))
    boss = user_with_role("pit_boss")
    at = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
    table_session_open(table=table, dealer=DealerFactory(casino=table.pit.casino), author=boss, at=at)
    data = copy.deepcopy(HOLDEM_CORRECT)
    data["actions"][-1] = {"action": "award", "seat": 1, "amount": "34.65"}
    data["actions"].append({"action": "rake", "amount": "3.85"})
    audited = round_record(table=table, data=data, author=boss, at=at)
    assert not audited.round.findings.exists()
    ratings = {r.identifier: r for r in day_ratings(casino_ids=[table.pit.casino_id], first=at.date())}
    assert set(ratings) == {"P-1001", "P-1002"}
    first, second = ratings["P-1001"], ratings["P-1002"]
    assert (first.theo, first.actual, first.stake, first.rounds) == (Decimal("1.85"), Decimal("1.85"),
                                                                     Decimal("18.50"), 1)
    assert (second.theo, second.actual, second.stake) == (Decimal("0.15"), Decimal("0.15"), Decimal("1.50"))
    assert [w.wager for w in first.wager_list()] == ["pot"]
