"""Poker or Bust: hand-worked settlements, every finding code, impossible input, properties."""

from __future__ import annotations

import copy
import json
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games import GAMES, POKER_OR_BUST
from tables.games.poker_or_bust import game as pb
from tables.games.poker_or_bust import rounds as pbr
from tables.games.poker_or_bust import simulate as sim
from tables.games.settings.rulesets import PokerOrBustRules
from tables.games.vocabulary.base import Errors, InvalidInput, compare_recorded

RULES = PokerOrBustRules()
D = Decimal


def seat(n, cards, ante="10.00", odds="10.00", paid=None, **extra):
    wagers = {}
    if ante is not None:
        wagers["ante"] = ante
    if odds is not None:
        wagers["odds"] = odds
    item = {"seat": n, "wagers": wagers, "cards": cards.split(), **extra}
    if paid is not None:
        item["paid"] = [{"wager": w, "net": net} for w, net in paid.items()]
    return item


def rnd(dealer, *seats):
    return {"dealer": {"cards": dealer.split()}, "seats": list(seats)}


def run(data, rules=RULES):
    return pb.audit(pb.parse_round(data, rules), rules)


def nets(audit):
    return {(s.seat, s.wager): s.net for s in audit.settlements}


def codes(audit):
    return [f.code for f in audit.findings]


def errors(data, rules=RULES):
    with pytest.raises(InvalidInput) as exc:
        pb.parse_round(data, rules)
    return exc.value.as_dict()


# Dealer hands used below (points: Ace 1, ten-values 10):
KING_HIGH = "KS 7H 5D 9C"  # 22 after three cards, draws 9 -> 31, stands; K-9-7 high
DEALER_BUSTS = "2C TD TH TS"  # 22, draws a ten -> 32, busts
PAIR_OF_8S = "8C 8D 9S"  # 25 on three cards, stands


# --- settlement, hand-worked -------------------------------------------------------------


def test_higher_hand_wins_ante_and_jacks_or_better_wins_odds():
    a = run(rnd(KING_HIGH, seat(1, "QD QC 3S 2H")))  # 25: pair of Queens
    assert nets(a) == {(1, "ante"): D("10.00"), (1, "odds"): D("10.00")}
    ante, odds = a.settlements
    assert (
        ante.explanation
        == "pair of Queens, 3 kicker beats dealer's King high (K-9-7); Ante wins 1 to 1"
    )
    assert odds.explanation == "pair of Queens, 3 kicker; Odds pays 1 to 1"
    assert a.findings == ()
    assert a.summary["dealer_total"] == 31 and not a.summary["dealer_busted"]


def test_pair_below_jacks_wins_ante_but_loses_odds():
    a = run(rnd(KING_HIGH, seat(1, "9S 9H 4C 2D")))
    assert nets(a) == {(1, "ante"): D("10.00"), (1, "odds"): D("-10.00")}
    assert (
        a.settlements[1].explanation == "pair of 9s, 4 kicker is below a pair of Jacks; Odds loses"
    )


def test_lower_hand_loses_ante():
    a = run(rnd(PAIR_OF_8S, seat(1, "KS QH 5D 2C")))  # K-Q-5 high, 27
    assert nets(a) == {(1, "ante"): D("-10.00"), (1, "odds"): D("-10.00")}
    assert (
        a.settlements[0].explanation
        == "dealer's pair of 8s, 9 kicker beats King high (K-Q-5); Ante loses"
    )


def test_equal_hands_push_the_ante():
    a = run(rnd(PAIR_OF_8S, seat(1, "8H 8S 9D", ante="25.00", odds="25.00")))
    assert nets(a) == {(1, "ante"): D("0.00"), (1, "odds"): D("-25.00")}
    assert a.settlements[0].outcome == "push"
    assert (
        a.settlements[0].explanation
        == "pair of 8s, 9 kicker ties dealer's pair of 8s, 9 kicker; Ante pushes"
    )


def test_dealer_bust_pays_every_standing_ante_and_odds_still_goes_by_the_players_hand():
    a = run(
        rnd(
            DEALER_BUSTS,
            seat(1, "2H 5H 9H 7C", ante="5.00", odds="5.00"),  # 23: 9-5-2 flush in hearts
            seat(3, "KS 4D 8C 6S"),  # 28, King high: odds loses even though the dealer busts
            seat(5, "TC 9D 8S 5C"),  # 32: busted, loses both though the dealer busted too
        )
    )
    assert nets(a) == {
        (1, "ante"): D("5.00"),
        (1, "odds"): D("5.00"),  # flush pays 1 to 1 (default table)
        (3, "ante"): D("10.00"),
        (3, "odds"): D("-10.00"),
        (5, "ante"): D("-10.00"),
        (5, "odds"): D("-10.00"),
    }
    assert a.settlements[0].explanation == "dealer busts with 32 (2C-TD-TH-TS); Ante wins 1 to 1"
    assert a.settlements[1].explanation == "9-5-2 flush; Odds pays 1 to 1"
    assert a.settlements[4].explanation == "busted with 32 (TC-9D-8S-5C); Ante and Odds lose"
    assert a.summary["dealer_busted"] and a.summary["players_standing"] == 2
    assert a.findings == ()


@pytest.mark.parametrize(
    ("cards", "net"),
    [
        ("AS QS KS", "200.00"),  # royal flush 20 to 1
        ("7H 7H 7H", "100.00"),  # suited three of a kind 10 to 1
        ("2D 3D 4D", "50.00"),  # straight flush 5 to 1
        ("AD AH AC", "20.00"),  # three of a kind 2 to 1
        ("AS 2H 3D", "10.00"),  # the lowest straight, 1 to 1
        ("QC 8C 3C", "10.00"),  # flush 1 to 1
        ("JC JD 2S", "10.00"),  # pair of Jacks 1 to 1
        ("AC AD 2S", "10.00"),  # pair of Aces 1 to 1
        ("TC TD AS", "-10.00"),  # pair of 10s loses
        ("AC KD JS", "-10.00"),  # high card loses
    ],
)
def test_odds_pay_table(cards, net):
    a = run(rnd(PAIR_OF_8S, seat(2, cards)))
    assert nets(a)[(2, "odds")] == D(net)


def test_odds_pays_from_the_rulesets_table_with_its_rounding():
    rules = GAMES[POKER_OR_BUST].rules_from_dict(
        {
            "odds_paytable": {"flush": "2.5", "pair_jacks_or_better": "1"},
            "rounding_unit": "1.00",
            "rounding_direction": "down",
        }
    )
    a = run(
        rnd(PAIR_OF_8S, seat(1, "QC 8C 3C", ante="5.00", odds="5.00"), seat(2, "2D 3D 4D")), rules
    )
    assert nets(a)[(1, "odds")] == D("12.00")  # 2.5 x 5 = 12.50, rounded down to the dollar
    # RULINGS.md: a straight flush the table leaves off is paid at the best line it
    # qualifies for, here the flush (it lost under the earlier reading)
    assert nets(a)[(2, "odds")] == D("25.00")  # 2.5 x 10
    assert (
        a.settlements[3].explanation
        == "4-high straight flush, paid on the flush line; Odds pays 5 to 2"
    )


# RULINGS.md, Poker or Bust: "An Odds table need not list every category. A hand is paid
# at the best line it qualifies for: a royal flush also makes a straight flush, a straight
# and a flush; a straight flush also makes a straight and a flush; suited trips also make
# three of a kind and a flush. It loses only when it qualifies for no line."
SHORT_TABLE = {"three_of_a_kind": "4", "straight": "3", "flush": "2"}


@pytest.mark.parametrize(
    ("cards", "net", "why"),
    [
        # royal flush: no royal or straight flush line; straight 3, flush 2 -> 3 to 1
        ("AS KS QS", "30.00", "royal flush, paid on the straight line; Odds pays 3 to 1"),
        # straight flush: straight 3, flush 2 -> 3 to 1
        ("2D 3D 4D", "30.00", "4-high straight flush, paid on the straight line; Odds pays 3 to 1"),
        # suited trips: three of a kind 4, flush 2 -> 4 to 1
        ("7H 7H 7H", "40.00", "suited three 7s, paid on the three of a kind line; Odds pays 4 to 1"),
        # the categories the table lists pay as listed
        ("7H 7D 7C", "40.00", "three 7s; Odds pays 4 to 1"),
        ("QC 8C 3C", "20.00", "Q-8-3 flush; Odds pays 2 to 1"),
        # a pair of Jacks or better makes no other line: no pair line, so it loses
        ("JC JD 2S", "-10.00", "pair of Jacks, 2 kicker is not on the Odds pay table; Odds loses"),
    ],
)
def test_odds_table_without_a_category_pays_the_best_line_the_hand_qualifies_for(cards, net, why):
    rules = GAMES[POKER_OR_BUST].rules_from_dict({"odds_paytable": SHORT_TABLE})
    a = run(rnd(PAIR_OF_8S, seat(2, cards)), rules)
    odds = a.settlements[1]
    assert (odds.wager, odds.net, odds.explanation) == ("odds", D(net), why)


def test_best_line_is_the_one_that_pays_most():
    # a house that pays a flush above a straight: a straight flush takes the flush's 3 to 1
    rules = GAMES[POKER_OR_BUST].rules_from_dict({"odds_paytable": {"straight": "1", "flush": "3"}})
    a = run(rnd(PAIR_OF_8S, seat(2, "9H TH JH")), rules)
    assert nets(a)[(2, "odds")] == D("30.00")
    assert a.settlements[1].explanation == "Jack-high straight flush, paid on the flush line; Odds pays 3 to 1"


def test_settlement_does_not_depend_on_seat_order():
    seats = [seat(7, "QD QC 3S 2H"), seat(2, "9S 9H 4C 2D"), seat(4, "TC 9D 8S 5C")]
    a = run(rnd(KING_HIGH, *seats))
    b = run(rnd(KING_HIGH, *reversed(seats)))
    assert a.settlements == b.settlements
    assert [s.seat for s in a.settlements] == [2, 2, 4, 4, 7, 7]


def test_module_docstring_example():
    doc = pbr.__doc__
    start = doc.index('    {\n      "dealer"')
    data = json.loads(doc[start : doc.index("\n\n", start)])
    a = run(data)
    assert a.findings == ()  # the recorded pays in the example are the right ones
    assert nets(a) == {
        (1, "ante"): D("10.00"),
        (1, "odds"): D("-10.00"),
        (4, "ante"): D("-25.00"),
        (4, "odds"): D("-25.00"),
    }


def test_contract_entry_points_are_registered():
    module = GAMES[POKER_OR_BUST].module
    for name in ("parse_round", "audit", "round_to_dict", "simulate_round"):
        assert callable(getattr(module, name))


# --- findings -----------------------------------------------------------------------------


def test_unequal_ante_and_odds_is_a_finding_and_both_are_settled_as_placed():
    a = run(rnd(KING_HIGH, seat(3, "QD QC 3S 2H", ante="10.00", odds="25.00")))
    (f,) = a.findings
    assert (f.code, f.kind, f.path, f.expected, f.recorded, f.amount, f.seat) == (
        "ANTE_ODDS_UNEQUAL",
        "rule_violation",
        "seats[0].wagers.odds",
        "10.00",
        "25.00",
        D("15.00"),
        3,
    )
    assert "equal amounts" in f.rule
    assert nets(a) == {(3, "ante"): D("10.00"), (3, "odds"): D("25.00")}


def test_missing_odds_is_a_finding():
    a = run(rnd(KING_HIGH, seat(1, "QD QC 3S 2H", odds=None)))
    (f,) = a.findings
    assert (f.code, f.kind, f.path, f.amount) == (
        "WAGER_MISSING",
        "rule_violation",
        "seats[0].wagers.odds",
        D("10.00"),
    )
    assert nets(a) == {(1, "ante"): D("10.00")}


def test_cards_after_a_bust_are_a_finding_and_the_bust_stands():
    # 9+9+5 = 23, drew a ten: 33, busted; the dealer then gave a 2 (and the poker hand 9-9-... does not matter)
    a = run(rnd(KING_HIGH, seat(2, "9S 9H 5C TD 2S"), seat(4, "QD QC 3S 2H")))
    (f,) = a.findings
    assert (f.code, f.kind, f.path, f.seat, f.recorded) == (
        "CARDS_AFTER_BUST",
        "procedure",
        "seats[0].cards[4]",
        2,
        "2S",
    )
    assert (
        f.message
        == "Seat 2 busted with 33 (9S-9H-5C-TD) and was dealt 1 more card (2S); the bust stands."
    )
    assert nets(a)[(2, "ante")] == D("-10.00") and nets(a)[(2, "odds")] == D("-10.00")


def test_dealer_stood_short():
    a = run(
        rnd("KS 7H 5D", seat(1, "QD QC 3S 2H", ante="25.00", odds="25.00"), seat(2, "9S 9H 4C 2D"))
    )
    (f,) = a.findings
    assert (f.code, f.kind, f.path, f.amount) == (
        "DEALER_STOOD_SHORT",
        "procedure",
        "dealer.cards",
        D("35.00"),
    )
    assert f.message.startswith("Dealer stood on 22 (KS-7H-5D)")
    # settled as dealt: K-7-5 high
    assert nets(a)[(1, "ante")] == D("25.00")


def test_dealer_took_no_third_card():
    a = run(rnd("KS QH", seat(1, "9S 9H 4C 2D")))
    (f,) = a.findings
    assert f.code == "DEALER_STOOD_SHORT"
    assert f.message.startswith("Dealer took no third card (KS-QH, 20)")
    assert (
        a.settlements[0].explanation
        == "pair of 9s, 4 kicker beats dealer's two cards (KS-QH); Ante wins 1 to 1"
    )
    # a dealer's two-card pair plays as a pair with no kicker
    b = run(rnd("9C 9D", seat(1, "9S 9H 4C 2D")))
    assert nets(b)[(1, "ante")] == D("10.00")
    c = run(rnd("TC TD", seat(1, "9S 9H 4C 2D")))
    assert nets(c)[(1, "ante")] == D("-10.00")


def test_dealer_drew_on_a_standing_total_is_settled_as_dealt_with_the_money_moved():
    # 8+8+9 = 25: must stand on the pair of 8s; drew 5S (30), which changes no result here.
    a = run(rnd("8C 8D 9S 5S", seat(1, "KS QH 5D 2C")))
    (f,) = a.findings
    assert (f.code, f.kind, f.path, f.amount) == (
        "DEALER_DREW_ON_STANDING_TOTAL",
        "procedure",
        "dealer.cards[3]",
        D("0.00"),
    )
    assert f.expected == "stand on 25" and f.recorded == "drew to 30"
    c = run(rnd("6C 8D 9S 7H", seat(1, "JC JH 2S 3D", ante="20.00", odds="20.00")))
    (h,) = c.findings
    # should have stood on 23 with 9-8-6 high, which the player's Jacks beat; the extra 7H makes
    # a 9-high straight (9-8-7) that beats them: a 20.00 win became a 20.00 loss, 40.00 moved.
    assert h.amount == D("40.00")
    assert nets(c)[(1, "ante")] == D("-20.00")


def test_dealer_drew_after_busting():
    a = run(rnd("2C TD TH TS 4S", seat(1, "KS QH 5D 2C")))
    (f,) = a.findings
    assert (f.code, f.kind, f.path, f.recorded) == (
        "DEALER_DREW_AFTER_BUST",
        "procedure",
        "dealer.cards[4]",
        "4S",
    )
    assert nets(a)[(1, "ante")] == D("10.00")  # the bust stands


def test_dealer_drew_when_every_player_busted():
    a = run(rnd("KS 7H 5D", seat(1, "TC 9D 8S 5C"), seat(2, "9S 9H 5C TD")))
    (f,) = a.findings
    assert (f.code, f.kind, f.path, f.amount) == (
        "DEALER_DREW_ALL_BUST",
        "procedure",
        "dealer.cards[2]",
        D("0.00"),
    )
    # and the correct procedure: no card
    assert run(rnd("KS 7H", seat(1, "TC 9D 8S 5C"))).findings == ()


def test_wrong_pays_are_overpay_and_underpay_findings():
    data = rnd(
        KING_HIGH,
        seat(1, "QD QC 3S 2H", paid={"ante": "10.00", "odds": "20.00"}),
        seat(2, "9S 9H 4C 2D", paid={"odds": "-10.00", "ante": "0.00"}),
    )
    a = run(data)
    assert codes(a) == ["PAY_ABOVE_EXPECTED", "PAY_BELOW_EXPECTED"]
    over, under = a.findings
    assert (over.path, over.expected, over.recorded, over.amount, over.kind) == (
        "seats[0].paid[1]",
        "10.00",
        "20.00",
        D("10.00"),
        "overpay",
    )
    assert (under.path, under.expected, under.recorded, under.amount, under.kind) == (
        "seats[1].paid[1]",
        "10.00",
        "0.00",
        D("10.00"),
        "underpay",
    )
    # the same answer as comparing every recorded pay through the shared helper
    rounded = pb.parse_round(data, RULES)
    assert list(a.findings) == compare_recorded(a.settlements, pb.recorded_pays(rounded))


def test_a_pay_recorded_for_a_wager_not_placed_is_an_overpay():
    a = run(
        rnd(KING_HIGH, seat(1, "QD QC 3S 2H", odds=None, paid={"ante": "10.00", "odds": "10.00"}))
    )
    assert codes(a) == ["WAGER_MISSING", "PAY_ABOVE_EXPECTED"]


# --- impossible input ---------------------------------------------------------------------


def test_every_error_is_reported_with_its_path():
    data = rnd(
        "KS 1X",
        seat(1, "QD QC"),
        seat(1, "9S 9H 4C", ante="-5", odds=2.5),
        {"seat": 9, "wagers": {"ante": "0", "bonus": "1"}, "cards": ["AS", "2S", 7], "hat": 1},
    )
    errs = errors(data)
    assert errs == {
        "dealer.cards[1]": ['"1X" is not a card'],
        "seats[0].cards": ["a player must hold at least 3 cards, got 2"],
        "seats[1].seat": ["seat 1 is already used by seats[0]"],
        "seats[1].wagers.ante": ["must be more than 0, got -5.00"],
        "seats[1].wagers.odds": ['2.5 is a float; send amounts as strings such as "12.50"'],
        "seats[2].hat": ["unknown field; expected one of cards, paid, player, seat, wagers"],
        "seats[2].seat": ["must be a table position from 1 to 7, got 9"],
        "seats[2].wagers.bonus": ['unknown wager; Poker or Bust has "ante" and "odds"'],
        "seats[2].wagers.ante": ["must be more than 0, got 0.00"],
        "seats[2].cards[2]": ["7 is not a card"],
    }


def test_more_copies_than_the_shoe_holds():
    rules = GAMES[POKER_OR_BUST].rules_from_dict({"decks": 1})
    errs = errors(rnd("AS KD 5C", seat(1, "AS 9H 4C"), seat(2, "KD 2S 3S KD")), rules)
    assert errs == {
        "seats[0].cards[0]": ["AS appears 2 times in the round; a 1-deck shoe holds 1"],
        "seats[1].cards[0]": ["KD appears 3 times in the round; a 1-deck shoe holds 1"],
    }
    # six decks hold six of each card
    six = rnd("AS AS AS", seat(1, "AS AS AS 2C"))
    assert run(six).settlements
    seven = rnd("AS AS AS", seat(1, "AS AS AS AS"))
    assert errors(seven) == {
        "seats[0].cards[3]": ["AS appears 7 times in the round; a 6-deck shoe holds 6"]
    }


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ([], "non_field_errors"),
        ({"dealer": {"cards": ["KS", "7H"]}}, "seats"),
        ({"dealer": {"cards": ["KS"]}, "seats": [seat(1, "2C 3C 4C")]}, "dealer.cards"),
        ({"dealer": ["KS", "7H"], "seats": [seat(1, "2C 3C 4C")]}, "dealer"),
        ({"dealer": {"cards": ["KS", "7H"]}, "seats": []}, "seats"),
        (
            {
                "dealer": {"cards": ["KS", "7H"]},
                "seats": [seat(n, "2C 3C 4C") for n in range(1, 9)],
            },
            "seats",
        ),
        ({"dealer": {"cards": ["KS", "7H"]}, "seats": [seat(1, "2C 3C 4C")], "table": 3}, "table"),
        ({"dealer": {"cards": ["KS", "7H"]}, "seats": [seat(True, "2C 3C 4C")]}, "seats[0].seat"),
        (
            {
                "dealer": {"cards": ["KS", "7H"]},
                "seats": [seat(1, "2C 3C 4C", ante=None, odds=None)],
            },
            "seats[0].wagers",
        ),
        (
            {"dealer": {"cards": ["KS", "7H"]}, "seats": [seat(1, "2C 3C 4C", player="")]},
            "seats[0].player",
        ),
        (
            {
                "dealer": {"cards": ["KS", "7H"]},
                "seats": [{"seat": 1, "wagers": {"ante": "1", "odds": "1"}}],
            },
            "seats[0].cards",
        ),
        (
            {
                "dealer": {"cards": ["KS", "7H"]},
                "seats": [seat(1, "2C 3C 4C", paid={"bonus": "1"})],
            },
            "seats[0].paid[0].wager",
        ),
        (
            {"dealer": {"cards": ["KS", "7H"]}, "seats": [seat(1, "2C 3C 4C", paid={"ante": 1.5})]},
            "seats[0].paid[0].net",
        ),
    ],
)
def test_impossible_input(data, path):
    assert path in errors(data)


def test_a_pay_recorded_twice_and_a_hand_index():
    data = rnd(KING_HIGH, seat(1, "2C 3C 4C"))
    data["seats"][0]["paid"] = [
        {"wager": "ante", "net": "1"},
        {"wager": "ante", "net": "1"},
        {"wager": "odds", "net": "1", "hand": 1},
    ]
    assert errors(data) == {
        "seats[0].paid[1].wager": ["the Ante pay is recorded twice"],
        "seats[0].paid[2].hand": ['Poker or Bust has one hand per seat: leave "hand" out (or 0)'],
    }
    data["seats"][0]["paid"] = [{"wager": "ante", "net": "10.00", "hand": 0}]
    assert run(data).findings == ()


def test_card_text_is_lenient_in_and_canonical_out():
    data = rnd(
        "ks 10h 5d 9c", seat(1, "qd Qc 3s 2H", player="P-7", paid={"ante": 10, "odds": "10"})
    )
    r = pb.parse_round(data, RULES)
    assert pb.round_to_dict(r) == {
        "dealer": {"cards": ["KS", "TH", "5D", "9C"]},
        "seats": [
            {
                "seat": 1,
                "player": "P-7",
                "wagers": {"ante": "10.00", "odds": "10.00"},
                "cards": ["QD", "QC", "3S", "2H"],
                "paid": [{"wager": "ante", "net": "10.00"}, {"wager": "odds", "net": "10.00"}],
            }
        ],
    }


# --- properties over simulated rounds -----------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 7))
def test_simulated_rounds_are_clean_and_round_trip(seed, seats):
    data = pb.simulate_round(random.Random(seed), RULES, seats=seats)
    r = pb.parse_round(data, RULES)
    assert pb.parse_round(pb.round_to_dict(r), RULES) == r
    a = pb.audit(r, RULES)
    assert a.findings == ()
    for s in a.settlements:
        if s.wager == "ante":
            assert s.net in (s.stake, -s.stake, 0)
        else:
            assert s.net >= -s.stake
        assert (s.outcome == "win") == (s.net > 0) and (s.outcome == "lose") == (s.net < 0)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 7))
def test_busted_players_lose_both_and_standing_players_win_when_the_dealer_busts(seed, seats):
    data = pb.simulate_round(random.Random(seed), RULES, seats=seats)
    a = run(data)
    dealer_bust = a.summary["dealer_busted"]
    by_seat = {s["seat"]: s for s in data["seats"]}
    for s in a.settlements:
        points = pb.points(pb.parse_round(rnd("2C 3C", by_seat[s.seat]), RULES).seats[0].cards)
        if points > 31:
            assert s.outcome == "lose"
        elif s.wager == "ante" and dealer_bust:
            assert s.outcome == "win"


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 7), st.randoms(use_true_random=False))
def test_seat_order_never_changes_the_answer(seed, seats, rng):
    data = pb.simulate_round(random.Random(seed), RULES, seats=seats, inject=frozenset({"overpay"}))
    shuffled = copy.deepcopy(data)
    rng.shuffle(shuffled["seats"])
    a, b = run(data), run(shuffled)
    assert a.settlements == b.settlements
    assert sorted(codes(a)) == sorted(codes(b))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 7), st.sampled_from(sim.INJECT_KINDS))
def test_each_injected_error_is_found(seed, seats, kind):
    data = pb.simulate_round(random.Random(seed), RULES, seats=seats, inject=frozenset({kind}))
    assert codes(run(data)) == [sim.INJECT_FINDINGS[kind]]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 7))
def test_the_parsers_memos_change_no_answer(seed, seats):
    """The one parser remembers the amounts, wagers and pays it accepted: a seat read with its
    memos empty and read again from them is the same seat."""
    data = pb.simulate_round(random.Random(seed), RULES, seats=seats)
    for i, raw in enumerate(data["seats"]):
        c = pbr.PokerOrBustCompiled(RULES)  # empty memos
        errs = Errors()
        cold = pbr._parse_seat(raw, i, errs, {}, c)
        assert c.positive and (not raw.get("paid") or c.pairs)
        warm = pbr._parse_seat(raw, i, errs, {}, c)
        assert not errs and cold == warm


def test_unknown_injection_is_refused():
    with pytest.raises(ValueError):
        pb.simulate_round(random.Random(1), RULES, seats=3, inject=frozenset({"dealer_cheated"}))
