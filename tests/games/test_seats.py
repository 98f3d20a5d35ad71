"""Where a player sits is one rule for every game (``vocabulary.base.take_seat``): a table
position from 1 to the table's seats, each held by one seat of the round. Every game's
parser names a wrong seat in the same words."""

from __future__ import annotations

import random

import pytest

from tables.games import GAMES
from tables.games.vocabulary.base import InvalidInput


def _seat_errors(key: str, change) -> list[str]:
    game = GAMES[key]
    rules = game.default_rules()
    data = game.module.simulate_round(random.Random(5), rules, seats=3)
    change(data["seats"])
    with pytest.raises(InvalidInput) as exc:
        game.module.parse_round(data, rules)
    return exc.value.as_dict().get("seats[1].seat")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_names_a_wrong_seat_alike(key):
    # the highest position: a blackjack layout numbers up to 12, Poker or Bust seats 7,
    # Hold'em the ruleset's max_seats (6 by default)
    top = {"holdem_blackjack": 6, "poker_or_bust": 7}.get(key, 12)

    def twice(seats):
        seats[1]["seat"] = seats[0]["seat"]

    def beyond(seats):
        seats[1]["seat"] = top + 1

    def text(seats):
        seats[1]["seat"] = "2"

    def missing(seats):
        del seats[1]["seat"]

    first = GAMES[key].module.simulate_round(random.Random(5), GAMES[key].default_rules(), seats=3)["seats"][0]["seat"]
    assert _seat_errors(key, twice) == [f"seat {first} is already used by seats[0]"]
    assert _seat_errors(key, beyond) == [f"must be a table position from 1 to {top}, got {top + 1}"]
    assert _seat_errors(key, text) == [f"must be a table position from 1 to {top}, got '2'"]
    assert _seat_errors(key, missing) == ["is missing"]
