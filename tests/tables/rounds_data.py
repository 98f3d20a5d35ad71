"""Hand-worked rounds of each game, as the tablet sends them, for the recording tests."""

from __future__ import annotations

import copy

HOLDEM_CORRECT = {
    "button": 1,
    "seats": [{"seat": 1, "player": "P-1001", "stack": "100.00"}, {"seat": 2, "player": "P-1002", "stack": "60.00"},
              {"seat": 4, "stack": "80.00"}],
    "actions": [
        {"action": "ante", "seat": 1, "amount": "0.50"}, {"action": "ante", "seat": 2, "amount": "0.50"},
        {"action": "ante", "seat": 4, "amount": "0.50"}, {"action": "small_blind", "seat": 2, "amount": "1.00"},
        {"action": "big_blind", "seat": 4, "amount": "2.00"}, {"action": "hole", "seat": 2, "card": "9S"},
        {"action": "hole", "seat": 4, "card": "KD"}, {"action": "hole", "seat": 1, "card": "5C"},
        {"action": "raise", "seat": 1, "amount": "4.00"}, {"action": "fold", "seat": 2},
        {"action": "call", "seat": 4, "amount": "2.00"}, {"action": "up", "seat": 4, "card": "7H"},
        {"action": "up", "seat": 1, "card": "6S"}, {"action": "check", "seat": 4},
        {"action": "bet", "seat": 1, "amount": "4.00"}, {"action": "call", "seat": 4, "amount": "4.00"},
        {"action": "stand", "seat": 4}, {"action": "hit", "seat": 1, "card": "TH"}, {"action": "stand", "seat": 1},
        {"action": "check", "seat": 4}, {"action": "bet", "seat": 1, "amount": "10.00"},
        {"action": "call", "seat": 4, "amount": "10.00"}, {"action": "showdown"},
        {"action": "award", "seat": 1, "amount": "38.50"},
    ],
}


def _holdem(**changes) -> dict:
    data = copy.deepcopy(HOLDEM_CORRECT)
    for index, action in changes.items():
        data["actions"][int(index.lstrip("a"))] = action
    return data


def _holdem_out_of_turn() -> dict:
    data = copy.deepcopy(HOLDEM_CORRECT)
    # Final round: seat 1 bets before seat 4 (first to act, left of the button) has acted.
    actions = data["actions"]
    actions[19:22] = [{"action": "bet", "seat": 1, "amount": "10.00"}, {"action": "call", "seat": 4, "amount": "10.00"}]
    return data


#: game -> case -> (round JSON, expected finding kind or None, money at stake of that finding)
ROUNDS = {
    "ante_up_21": {
        "correct": ({"dealer": {"cards": ["QH", "7C"]}, "seats": [{
            "seat": 1, "player": "P-7", "wagers": {"21": "10.00", "ante": "10.00", "bet": "10.00"},
            "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "10.00"}, {"wager": "ante", "net": "10.00"},
                     {"wager": "bet", "net": "10.00"}]}]}, None, None),
        "underpay": ({"dealer": {"cards": ["QH", "7C"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "ante": "10.00", "bet": "10.00"},
            "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "5.00"}, {"wager": "ante", "net": "10.00"},
                     {"wager": "bet", "net": "10.00"}]}]}, "underpay", "5.00"),
        "overpay": ({"dealer": {"cards": ["QH", "7C"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "ante": "10.00", "bet": "10.00"},
            "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "10.00"}, {"wager": "ante", "net": "20.00"},
                     {"wager": "bet", "net": "10.00"}]}]}, "overpay", "10.00"),
        "procedure": ({"dealer": {"cards": ["AH", "6C"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "ante": "10.00", "bet": "10.00"},
            "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "10.00"}, {"wager": "ante", "net": "10.00"},
                     {"wager": "bet", "net": "10.00"}]}]}, "procedure", None),
        "rule_violation": ({"dealer": {"cards": ["QH", "7C"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "ante": "20.00", "bet": "20.00"},
            "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "10.00"}, {"wager": "ante", "net": "20.00"},
                     {"wager": "bet", "net": "20.00"}]}]}, "rule_violation", None),
    },
    "upcard_luck_21": {
        "correct": ({"dealer": {"cards": ["5H", "TC", "8D"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "upcard_luck": "5.00"},
            "hands": [{"cards": ["TS", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "10.00"}, {"wager": "upcard_luck", "net": "15.00"}]}]},
            None, None),
        "underpay": ({"dealer": {"cards": ["5H", "TC", "8D"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "upcard_luck": "5.00"},
            "hands": [{"cards": ["TS", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "10.00"}, {"wager": "upcard_luck", "net": "10.00"}]}]},
            "underpay", "5.00"),
        "overpay": ({"dealer": {"cards": ["5H", "TC", "8D"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "upcard_luck": "5.00"},
            "hands": [{"cards": ["TS", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "20.00"}, {"wager": "upcard_luck", "net": "15.00"}]}]},
            "overpay", "10.00"),
        "procedure": ({"dealer": {"cards": ["5H", "TC"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "upcard_luck": "5.00"},
            "hands": [{"cards": ["TS", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "10.00"}, {"wager": "upcard_luck", "net": "15.00"}]}]},
            "procedure", None),
        "rule_violation": ({"dealer": {"cards": ["5H", "TC", "8D"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "upcard_luck": "20.00"},
            "hands": [{"cards": ["TS", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "10.00"}, {"wager": "upcard_luck", "net": "60.00"}]}]},
            "rule_violation", None),
    },
    "blackjack_tie": {
        "correct": ({"dealer": {"cards": ["TH", "8C"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "tie_18": "2.00", "tie_LS": "1.00"},
            "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "0.00"}, {"wager": "tie_18", "net": "110.00"},
                     {"wager": "tie_LS", "net": "18.00"}]}]}, None, None),
        "underpay": ({"dealer": {"cards": ["TH", "8C"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "tie_18": "2.00", "tie_LS": "1.00"},
            "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "0.00"}, {"wager": "tie_18", "net": "100.00"},
                     {"wager": "tie_LS", "net": "18.00"}]}]}, "underpay", "10.00"),
        "overpay": ({"dealer": {"cards": ["TH", "8C"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "tie_18": "2.00", "tie_LS": "1.00"},
            "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "0.00"}, {"wager": "tie_18", "net": "110.00"},
                     {"wager": "tie_LS", "net": "20.00"}]}]}, "overpay", "2.00"),
        "procedure": ({"dealer": {"cards": ["AH", "6C"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "tie_18": "2.00", "tie_LS": "1.00"},
            "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "10.00"}, {"wager": "tie_18", "net": "-2.00"},
                     {"wager": "tie_LS", "net": "-1.00"}]}]}, "procedure", None),
        "rule_violation": ({"dealer": {"cards": ["TH", "8C"]}, "seats": [{
            "seat": 1, "wagers": {"21": "10.00", "tie_18": "8.00", "tie_LS": "5.00"},
            "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}],
            "paid": [{"wager": "21", "hand": 0, "net": "0.00"}, {"wager": "tie_18", "net": "440.00"},
                     {"wager": "tie_LS", "net": "90.00"}]}]}, "rule_violation", None),
    },
    "poker_or_bust": {
        "correct": ({"dealer": {"cards": ["KS", "7H", "5D", "9C"]}, "seats": [{
            "seat": 1, "player": "P-1001", "wagers": {"ante": "10.00", "odds": "10.00"},
            "cards": ["9S", "9H", "4C", "2D"],
            "paid": [{"wager": "ante", "net": "10.00"}, {"wager": "odds", "net": "-10.00"}]}]}, None, None),
        "underpay": ({"dealer": {"cards": ["KS", "7H", "5D", "9C"]}, "seats": [{
            "seat": 1, "wagers": {"ante": "10.00", "odds": "10.00"}, "cards": ["9S", "9H", "4C", "2D"],
            "paid": [{"wager": "ante", "net": "0.00"}, {"wager": "odds", "net": "-10.00"}]}]}, "underpay", "10.00"),
        "overpay": ({"dealer": {"cards": ["KS", "7H", "5D", "9C"]}, "seats": [{
            "seat": 1, "wagers": {"ante": "10.00", "odds": "10.00"}, "cards": ["9S", "9H", "4C", "2D"],
            "paid": [{"wager": "ante", "net": "10.00"}, {"wager": "odds", "net": "10.00"}]}]}, "overpay", "20.00"),
        "procedure": ({"dealer": {"cards": ["KS", "7H", "8D", "2C"]}, "seats": [{
            "seat": 1, "wagers": {"ante": "10.00", "odds": "10.00"}, "cards": ["9S", "9H", "4C", "2D"],
            "paid": [{"wager": "ante", "net": "10.00"}, {"wager": "odds", "net": "-10.00"}]}]}, "procedure", None),
        "rule_violation": ({"dealer": {"cards": ["KS", "7H", "5D", "9C"]}, "seats": [{
            "seat": 1, "wagers": {"ante": "10.00", "odds": "20.00"}, "cards": ["9S", "9H", "4C", "2D"],
            "paid": [{"wager": "ante", "net": "10.00"}, {"wager": "odds", "net": "-20.00"}]}]},
            "rule_violation", None),
    },
    "holdem_blackjack": {
        "correct": (HOLDEM_CORRECT, None, None),
        "underpay": (_holdem(a23={"action": "award", "seat": 1, "amount": "30.50"}), "underpay", "8.00"),
        "overpay": (_holdem(a23={"action": "award", "seat": 1, "amount": "40.50"}), "overpay", "2.00"),
        "procedure": (_holdem_out_of_turn(), "procedure", None),
        "rule_violation": (_holdem(a20={"action": "bet", "seat": 1, "amount": "30.00"},
                                   a21={"action": "call", "seat": 4, "amount": "30.00"},
                                   a23={"action": "award", "seat": 1, "amount": "78.50"}), "rule_violation", None),
    },
}
