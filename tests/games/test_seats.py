"""Where a player sits is one rule for every game (``vocabulary.base.take_seat``): a table
position from 1 to the table's seats, each held by one seat of the round. Every game's
parser names a wrong seat in the same words."""

from __future__ import annotations

import copy
import random

import pytest

from tables.games import GAMES
from tables.games.vocabulary.base import InvalidInput

#: The highest position: a blackjack layout numbers up to 12, Poker or Bust seats 7,
#: Hold'em the ruleset's max_seats (6 by default).
TOP = {"holdem_blackjack": 6, "poker_or_bust": 7}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_names_a_wrong_seat_alike(key):
    game, top = GAMES[key], TOP.get(key, 12)
    rules = game.default_rules()
    data = game.module.simulate_round(random.Random(5), rules, seats=3)
    first = data["seats"][0]["seat"]
    cases = [(first, f"seat {first} is already used by seats[0]"),
             (top + 1, f"must be a table position from 1 to {top}, got {top + 1}"),
             ("2", f"must be a table position from 1 to {top}, got '2'"),
             (None, "is missing")]
    for seat, words in cases:
        wrong = copy.deepcopy(data)
        if seat is None:
            del wrong["seats"][1]["seat"]
        else:
            wrong["seats"][1]["seat"] = seat
        with pytest.raises(InvalidInput) as exc:
            game.module.parse_round(wrong, rules)
        assert exc.value.as_dict().get("seats[1].seat") == [words], seat
