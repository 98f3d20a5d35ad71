"""The engine's Hold'em next-step helper: the hand-worked hand replayed one action at a time."""

from __future__ import annotations

import copy

import pytest

from tables.games.holdem.actions import next_step
from tables.games.settings.rulesets import HoldemBlackjackRules
from tests.tables.rounds_data import HOLDEM_CORRECT

ACTIONS = HOLDEM_CORRECT["actions"]


def prefix(k: int) -> dict:
    data = copy.deepcopy(HOLDEM_CORRECT)
    data["actions"] = ACTIONS[:k]
    return data


@pytest.mark.parametrize("k", range(len(ACTIONS) - 1))
def test_every_recorded_action_of_the_correct_hand_was_suggested(k):
    step = next_step(prefix(k), HoldemBlackjackRules())
    actual = ACTIONS[k]
    if actual["action"] in ("ante", "small_blind", "big_blind"):
        assert actual in step["posts"]
    elif actual["action"] in ("hole", "up"):
        assert step["deal"] == {"action": actual["action"], "seat": actual["seat"]}
    elif actual["action"] == "showdown":
        assert step["phase"] == "showdown"
    else:
        assert step["to_act"] == actual["seat"]
        wanted = {key: value for key, value in actual.items() if key in ("action", "amount")}
        if actual["action"] == "hit":
            wanted = {"action": "hit"}
        assert wanted in step["options"], (k, step["options"])


def test_blinds_heads_up_and_fixed_sizes():
    data = {
        "button": 3,
        "seats": [{"seat": 3, "stack": "50.00"}, {"seat": 5, "stack": "50.00"}],
        "actions": [],
    }
    step = next_step(data, HoldemBlackjackRules())
    posts = {(p["action"], p["seat"]) for p in step["posts"]}
    assert ("small_blind", 3) in posts and (
        "big_blind",
        5,
    ) in posts  # heads-up: the button posts the small blind


def test_raise_cap_and_all_in_for_a_short_stack():
    rules = HoldemBlackjackRules(max_raises=1, ante_override=0)
    data = {
        "button": 1,
        "seats": [
            {"seat": 1, "stack": "100.00"},
            {"seat": 2, "stack": "100.00"},
            {"seat": 3, "stack": "3.00"},
        ],
        "actions": [
            {"action": "small_blind", "seat": 2, "amount": "1.00"},
            {"action": "big_blind", "seat": 3, "amount": "2.00"},
            {"action": "hole", "seat": 2, "card": "9S"},
            {"action": "hole", "seat": 3, "card": "KD"},
            {"action": "hole", "seat": 1, "card": "5C"},
            {"action": "raise", "seat": 1, "amount": "4.00"},
        ],
    }
    step = next_step(data, rules)
    assert step["to_act"] == 2
    kinds = [o["action"] for o in step["options"]]
    assert "raise" not in kinds and kinds[:2] == ["fold", "call"]  # bet + one raise: capped
    data["actions"] += [{"action": "call", "seat": 2, "amount": "3.00"}]
    step = next_step(data, rules)
    assert step["to_act"] == 3 and step["options"] == [
        {"action": "fold"},
        {"action": "all_in", "amount": "1.00"},
    ]


def test_a_busted_hand_may_only_stand():
    data = prefix(17)  # hand completion, seat 1 to act
    data["actions"].append({"action": "hit", "seat": 1, "card": "KS"})  # 5 + 6 + K = 21: fine
    data["actions"].append({"action": "hit", "seat": 1, "card": "QS"})  # 31: busted
    step = next_step(data, HoldemBlackjackRules())
    assert step["to_act"] == 1 and step["options"] == [{"action": "stand"}]


def test_garbage_does_not_raise():
    step = next_step(
        {"button": 9, "seats": [{"seat": 1}, {"nope": 1}], "actions": [{"action": "warp"}, 3]}
    )
    assert step["phase"] in ("posts", "hole")
