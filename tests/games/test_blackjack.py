"""The shared blackjack round: JSON, validation, dealer replay, 21 bet and insurance."""

from __future__ import annotations

import pytest

from tables.games.blackjack import blackjack_tie as game
from tables.games.settings.rulesets import BlackjackTieRules
from tables.games.vocabulary.base import InvalidInput

from .blackjack_helpers import D, by_key, codes, round_, seat

RULES = BlackjackTieRules()


def run(data, rules=RULES):
    return game.audit(game.parse_round(data, rules), rules)


def errors_of(data, rules=RULES) -> dict:
    with pytest.raises(InvalidInput) as exc:
        game.parse_round(data, rules)
    return exc.value.as_dict()


# --- the 21 bet ------------------------------------------------------------------------


def test_win_lose_push_bust():
    a = run(
        round_(
            "TS 8H",
            seat(1, {"21": "10"}, ("KS 9H", "stand")),
            seat(2, {"21": "10"}, ("KD 7H", "stand")),
            seat(3, {"21": "10"}, ("QS 8D", "stand")),
            seat(4, {"21": "10"}, ("QH 5D 9C", "hit")),
        )
    )
    s = by_key(a)
    assert (
        s[(1, "21", 0)].net == D("10.00")
        and s[(1, "21", 0)].explanation == "19 beats dealer 18; wins 1 to 1"
    )
    assert s[(2, "21", 0)].net == D("-10.00")
    assert s[(3, "21", 0)].net == 0 and s[(3, "21", 0)].outcome == "push"
    assert s[(4, "21", 0)].net == D("-10.00") and "busts with 24" in s[(4, "21", 0)].explanation
    assert a.findings == ()


def test_player_bust_loses_even_when_dealer_busts():
    a = run(
        round_(
            "TS 6H 9D",
            seat(1, {"21": "10"}, ("QH 5D 9C", "hit")),
            seat(2, {"21": "5"}, ("9S 7D", "stand")),
        )
    )
    s = by_key(a)
    assert s[(1, "21", 0)].net == D("-10")
    assert s[(2, "21", 0)].net == D("5") and s[(2, "21", 0)].explanation.startswith(
        "dealer busts with 25"
    )


def test_natural_pays_3_to_2_and_6_to_5_with_rounding():
    data = round_("9S 8H", seat(1, {"21": "15"}, "AS KD"), seat(2, {"21": "7"}, "TC AH"))
    s = by_key(run(data))
    assert (
        s[(1, "21", 0)].net == D("22.50") and s[(1, "21", 0)].explanation == "blackjack pays 3 to 2"
    )
    assert s[(2, "21", 0)].net == D("10.50")
    six_five = BlackjackTieRules(
        blackjack_pays="6:5", rounding_unit=D("0.50"), rounding_direction="down"
    )
    s = by_key(run(data, six_five))
    assert s[(1, "21", 0)].net == D("18.00")
    assert s[(2, "21", 0)].net == D("8.00")  # 8.40 rounded down to the 0.50 unit


def test_double_and_split_stakes():
    data = round_(
        "TS 7H", seat(1, {"21": "10"}, ("8S 3H 9C", "split hit stand"), ("8D 2S TC", "double"))
    )
    s = by_key(run(data))
    assert s[(1, "21", 0)].net == D("10") and s[(1, "21", 0)].stake == D("10")
    assert s[(1, "21", 1)].net == D("20") and s[(1, "21", 1)].stake == D("20")
    assert "doubled" in s[(1, "21", 1)].explanation


def test_split_aces_plus_ten_is_21_not_blackjack():
    s = by_key(run(round_("TS 7H", seat(1, {"21": "10"}, ("AS KH", "split"), ("AD 5C", "")))))
    assert s[(1, "21", 0)].net == D("10") and "21 beats dealer 17" in s[(1, "21", 0)].explanation
    assert s[(1, "21", 1)].net == D("-10")


def test_dealer_natural_with_peek_ends_round():
    a = run(round_("AS KH", seat(1, {"21": "10"}, "TS 9H"), seat(2, {"21": "10"}, "AD QC")))
    s = by_key(a)
    assert s[(1, "21", 0)].net == D("-10")
    assert (
        s[(2, "21", 0)].net == 0
        and s[(2, "21", 0)].explanation == "blackjack against dealer blackjack: push"
    )
    assert a.findings == ()


def test_missed_peek_returns_doubles_and_splits():
    a = run(
        round_(
            "AS KH",
            seat(1, {"21": "10"}, ("8S 3H 9C", "split double"), ("8D 2S", "stand")),
            seat(2, {"21": "10"}, ("5S 6H KC", "double")),
        )
    )
    s = by_key(a)
    assert s[(1, "21", 0)].net == D("-10") and s[(1, "21", 1)].net == 0
    assert s[(2, "21", 0)].net == D("-10")
    (f,) = a.findings
    assert f.code == "DEALER_MISSED_PEEK" and f.kind == "procedure" and f.amount == D("30")


def test_no_peek_dealer_natural_takes_doubles():
    rules = BlackjackTieRules(dealer_peeks=False)
    a = run(round_("AS KH", seat(2, {"21": "10"}, ("5S 6H KC", "double"))), rules)
    assert by_key(a)[(2, "21", 0)].net == D("-20") and a.findings == ()


# --- insurance and even money ------------------------------------------------------------


def test_insurance_wins_and_loses():
    s = by_key(run(round_("AS KH", seat(1, {"21": "10", "insurance": "5"}, "TS 9H"))))
    assert s[(1, "insurance", None)].net == D("10") and s[(1, "21", 0)].net == D("-10")
    s = by_key(run(round_("AS 7H", seat(1, {"21": "10", "insurance": "5"}, ("TS 9H", "stand")))))
    assert s[(1, "insurance", None)].net == D("-5") and s[(1, "21", 0)].net == D("10")


def test_even_money_is_insurance_on_a_natural():
    s = by_key(run(round_("AS 7H", seat(1, {"21": "10"}, "AH KD", even_money=True))))
    assert s[(1, "21", 0)].net + s[(1, "insurance", None)].net == D("10")
    s = by_key(run(round_("AS KH", seat(1, {"21": "10"}, "AH KD", even_money=True))))
    assert s[(1, "21", 0)].net + s[(1, "insurance", None)].net == D("10")


def test_insurance_findings():
    a = run(round_("AS 7H", seat(1, {"21": "10", "insurance": "6"}, ("TS 9H", "stand"))))
    (f,) = a.findings
    assert (
        f.code == "INSURANCE_ABOVE_HALF_BET"
        and f.amount == D("1")
        and f.path == "seats[0].wagers.insurance"
    )
    a = run(round_("9S 8H", seat(1, {"21": "10", "insurance": "5"}, ("TS 9H", "stand"))))
    assert codes(a) == ["INSURANCE_NOT_OFFERED"]


# --- dealer procedure -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("dealer", "code", "path"),
    [
        ("6S AH", "DEALER_STOOD_SOFT_17", "dealer.cards"),
        ("TS 7H 2D", "DEALER_DREW_HARD_17", "dealer.cards[2]"),
        ("TS 5H", "DEALER_STOPPED_EARLY", "dealer.cards"),
        ("7S AH 2D", "DEALER_DREW_SOFT_18_PLUS", "dealer.cards[2]"),
    ],
)
def test_dealer_findings(dealer, code, path):
    a = run(round_(dealer, seat(1, {"21": "10"}, ("TS 8H", "stand"))))
    (f,) = a.findings
    assert (f.code, f.kind, f.path) == (code, "procedure", path)
    assert f.amount == D("10")


def test_dealer_soft_17_under_s17():
    rules = BlackjackTieRules(dealer_hits_soft_17=False)
    assert run(round_("6S AH", seat(1, {"21": "10"}, ("TS 8H", "stand"))), rules).findings == ()
    a = run(round_("6S AH 2C", seat(1, {"21": "10"}, ("TS 8H", "stand"))), rules)
    assert codes(a) == ["DEALER_DREW_SOFT_17"]
    assert (
        run(round_("6S AH", seat(1, {"21": "10"}, ("TS 8H", "stand")))).findings[0].message
        == "Dealer stood on soft 17 (6S-AH) under H17."
    )


def test_dealer_drew_unneeded_and_not_needed_is_clean():
    busted = seat(1, {"21": "10"}, ("TS 5H 9C", "hit"))
    assert run(round_("TS 5H", busted)).findings == ()
    a = run(round_("TS 5H 2C", busted))
    assert codes(a) == ["DEALER_DREW_UNNEEDED"] and a.findings[0].path == "dealer.cards[2]"


# --- play rule findings ------------------------------------------------------------------


def test_play_rule_findings():
    rules = BlackjackTieRules(
        double_on="10_11", double_after_split=False, max_split_hands=2, split_any_ten_values=False
    )
    a = run(
        round_(
            "TS 7H",
            seat(
                1,
                {"21": "10"},
                ("8S 3H TC", "split split double"),
                ("8D 2S", "stand"),
                ("8C 9S", "stand"),
            ),
        ),
        rules,
    )
    assert codes(a) == ["DOUBLE_AFTER_SPLIT_NOT_ALLOWED", "SPLIT_ABOVE_MAX_HANDS"]
    a = run(round_("TS 7H", seat(1, {"21": "10"}, ("5S 4H TC", "double"))), rules)
    assert codes(a) == ["DOUBLE_NOT_ALLOWED"]
    a = run(
        round_("TS 7H", seat(1, {"21": "10"}, ("KS 9H", "split stand"), ("QD 8S", "stand"))), rules
    )
    assert codes(a) == ["SPLIT_UNEQUAL_TEN_VALUES"]
    a = run(
        round_(
            "TS 7H", seat(1, {"21": "10"}, ("AS 9H", "split"), ("AD 8S", "split"), ("AC 7S", ""))
        )
    )
    assert codes(a) == ["RESPLIT_ACES_NOT_ALLOWED"]


# --- recorded pays ----------------------------------------------------------------------


def test_recorded_pays_compared():
    s1 = seat(
        1, {"21": "10"}, ("TS 9H", "stand"), paid=[{"wager": "21", "hand": 0, "net": "15.00"}]
    )
    a = run(round_("TS 8H", s1))
    (f,) = a.findings
    assert (f.code, f.kind, f.amount, f.path, f.expected, f.recorded) == (
        "PAY_ABOVE_EXPECTED",
        "overpay",
        D("5.00"),
        "seats[0].paid[0]",
        "10.00",
        "15.00",
    )
    s1["paid"] = [{"wager": "21", "hand": 0, "net": "10.00"}]
    assert run(round_("TS 8H", s1)).findings == ()


# --- impossible input -------------------------------------------------------------------


def test_every_error_is_listed_with_its_path():
    errs = errors_of(
        {
            "dealer": {"cards": ["XX", "TS"]},
            "seats": [
                {
                    "seat": 1,
                    "wagers": {"21": "-5", "tie_17": 1.5},
                    "hands": [{"cards": ["AS", "1Z"]}],
                },
                {
                    "seat": 1,
                    "wagers": {"21": "0"},
                    "hands": [{"cards": ["9S", "8S"], "actions": ["fly"]}],
                },
            ],
        }
    )
    assert set(errs) >= {
        "dealer.cards[0]",
        "seats[0].wagers.21",
        "seats[0].wagers.tie_17",
        "seats[0].hands[0].cards[1]",
        "seats[1].seat",
        "seats[1].wagers.21",
        "seats[1].hands[0].actions[0]",
    }


@pytest.mark.parametrize(
    ("hands", "path"),
    [
        ([("8S 9H", "split"), ("9D 2C", "")], "seats[0].hands[0].actions[0]"),  # unequal split
        ([("5S 6H TC 2D", "double")], "seats[0].hands[0].cards[3]"),  # a double takes one card
        ([("TS 6H 9C 2D", "hit hit")], "seats[0].hands[0].cards[3]"),  # drew after busting
        ([("AS 9H 2C", "split hit"), ("AD 8S", "")], "seats[0].hands[0].cards[2]"),  # split Ace hit
        ([("TS 6H", ""), ("9S 9D", "")], "seats[0].hands[1]"),  # a hand no split made
        ([("TS 6H 5C", "")], "seats[0].hands[0].cards[2]"),  # a card with no hit
        ([("AS KH 5C", "hit")], "seats[0].hands[0].actions[0]"),  # a natural takes no card
    ],
)
def test_impossible_hands(hands, path):
    errs = errors_of(round_("TS 7H", seat(1, {"21": "10"}, *hands)))
    assert path in errs, errs


def test_too_many_copies_across_the_round():
    rules = BlackjackTieRules(decks=1)
    errs = errors_of(round_("AS 7H", seat(1, {"21": "10"}, ("AS 9H", "stand"))), rules)
    assert list(errs) == ["seats[0].hands[0].cards[0]"]
    assert "1-deck shoe" in errs["seats[0].hands[0].cards[0]"][0]


def test_dealer_card_after_bust_and_even_money_without_natural():
    assert "dealer.cards[3]" in errors_of(
        round_("TS 6H 9D 2C", seat(1, {"21": "10"}, ("TS 8H", "stand")))
    )
    assert "seats[0].even_money" in errors_of(
        round_("AS 7H", seat(1, {"21": "10"}, ("TS 8H", "stand"), even_money=True))
    )


def test_floats_and_unknown_fields_refused():
    errs = errors_of(
        {
            "dealer": {"cards": ["TS", "7H"]},
            "table": 3,
            "seats": [{"seat": 1, "wagers": {"21": 10.0}, "hands": [{"cards": ["TS", "8H"]}]}],
        }
    )
    assert "table" in errs and "seats[0].wagers.21" in errs


def test_round_trip_and_card_forms():
    data = round_(
        "10s 7h",
        seat(3, {"21": 10}, ("8s 3H 9C", "split hit stand"), ("8D 2S TC", "double"), player="P-1"),
    )
    rnd = game.parse_round(data, RULES)
    out = game.round_to_dict(rnd)
    assert out["dealer"]["cards"] == ["TS", "7H"] and out["seats"][0]["wagers"] == {"21": "10.00"}
    assert game.round_to_dict(game.parse_round(out, RULES)) == out
