"""Upcard Luck 21 and Taxpayer's Fortune: every category, pay table, tax and jackpot line."""

from __future__ import annotations

import pytest

from tables.games.blackjack import upcard_luck_21 as game
from tables.games.settings.rulesets import ProgressiveLine, UpcardLuck21Rules
from tables.games.vocabulary.base import AuditContext
from tables.games.vocabulary.cards import parse_card

from .blackjack_helpers import D, by_key, codes, round_, seat

RULES = UpcardLuck21Rules()


def run(data, rules=RULES, context=None):
    return game.audit(game.parse_round(data, rules), rules, context)


def cat(a: str, b: str):
    return game.upcard_luck_category(parse_card(a), parse_card(b))


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("AS", "JS", "ace_jack_spades"),
        ("JS", "AS", "ace_jack_spades"),
        ("AH", "JH", "blackjack"),
        ("3D", "8D", "suited_3_8"),
        ("3D", "8C", "nine_ten_eleven"),
        ("2H", "9H", "suited_11"),
        ("4C", "7C", "suited_11"),
        ("5S", "6S", "suited_11"),
        ("AS", "TS", "blackjack"),
        ("4C", "5D", "nine_ten_eleven"),
        ("6C", "4D", "nine_ten_eleven"),
        ("AS", "8D", "eighteen_to_twenty"),
        ("AS", "9D", "eighteen_to_twenty"),
        ("AS", "7D", "eighteen_to_twenty"),
        ("TS", "KD", "eighteen_to_twenty"),
        ("9S", "9D", "eighteen_to_twenty"),
        ("TS", "7D", None),
        ("AS", "AD", None),
        ("2S", "6S", None),
    ],
)
def test_categories(a, b, expected):
    assert cat(a, b) == expected


@pytest.mark.parametrize(
    ("table", "cards", "net"),
    [
        ("A", "AS JS", D("1000")),
        ("B", "AS JS", D("800")),
        ("C", "AS JS", D("1000")),
        ("A", "3H 8H", D("300")),
        ("A", "5C 6C", D("150")),
        ("C", "5C 6C", D("120")),
        ("A", "AD QC", D("50")),
        ("A", "4S 6D", D("40")),
        ("A", "AH 9C", D("30")),
        ("A", "TH 6C", D("-10")),
    ],
)
def test_upcard_luck_pay_tables(table, cards, net):
    rules = UpcardLuck21Rules(upcard_luck_paytable=table)
    data = round_("5H 7C 8D", seat(1, {"21": "10", "upcard_luck": "10"}, (cards, "stand")))
    assert by_key(run(data, rules))[(1, "upcard_luck", None)].net == net


@pytest.mark.parametrize("up", ["AH", "8H", "KH"])
def test_upcard_luck_loses_unless_2_to_7(up):
    data = round_(f"{up} 9C", seat(1, {"21": "10", "upcard_luck": "10"}, ("AS JS", "")))
    s = by_key(run(data))[(1, "upcard_luck", None)]
    assert s.net == D("-10") and "is not 2 to 7" in s.explanation


def test_settled_on_first_two_cards_before_split():
    data = round_(
        "6H TC 5D",
        seat(1, {"21": "10", "upcard_luck": "5"}, ("9S 9H", "split stand"), ("9D 2C TC", "hit")),
    )
    assert by_key(run(data))[(1, "upcard_luck", None)].net == D("15")  # 9-9 = 18 pays 3 to 1


@pytest.mark.parametrize(
    ("cards", "tax"),
    [
        ("AS JS", D("5")),
        ("3H 8H", D("5")),
        ("5C 6C", D("5")),
        ("AD QC", D("2")),
        ("4S 6D", D("2")),
        ("AH 9C", D("1")),
        ("TH QC", D("1")),
        ("AH 8C", D("0")),
        ("TH 8C", D("0")),
        ("TH 6C", D("0")),
    ],
)
def test_tax_schedule(cards, tax):
    data = round_(
        "5H 7C 6D",
        seat(1, {"21": "10", "upcard_luck": "5", "taxpayers_fortune": "1"}, (cards, "stand")),
    )
    s = by_key(run(data))[(1, "taxpayers_fortune_tax", None)]
    assert s.net == -tax and s.outcome == ("lose" if tax else "push")


def test_no_tax_with_a_big_upcard():
    data = round_(
        "9H 8C", seat(1, {"21": "10", "upcard_luck": "5", "taxpayers_fortune": "1"}, "AS JS")
    )
    s = by_key(run(data))[(1, "taxpayers_fortune_tax", None)]
    assert s.net == 0 and "keeps the marker" in s.explanation


@pytest.mark.parametrize(
    ("dealer", "cards", "line", "amount"),
    [
        ("5H 2C 3D 2S TC", "AD QC", "bust5_unsuited", D("40")),
        ("5H 2C 3D 2S TC", "AS JS", "bust5_suited", D("80")),
        ("2H 2C 2D 3S 4S TC", "AH KH", "bust6_suited", D("1000")),
        ("2H 2C 2D 2S 3H 3S TC", "AH KD", "bust7_unsuited", D("4000")),
        ("2H 2C 2D 2S 3H 3S AC TC", "AC KC", "bust8plus_suited", D("20000")),
    ],
)
def test_jackpot_lines(dealer, cards, line, amount):
    data = round_(
        dealer, seat(1, {"21": "10", "upcard_luck": "5", "taxpayers_fortune": "1"}, (cards, ""))
    )
    a = run(data)
    jp = by_key(a)[(1, "taxpayers_fortune_jackpot", None)]
    assert (jp.line, jp.net, jp.stake) == (line, amount, 0)
    assert by_key(a)[(1, "taxpayers_fortune_tax", None)].net < 0
    assert a.findings == ()


def test_no_jackpot_when_dealer_busts_with_four_cards_or_player_has_no_blackjack():
    four = run(
        round_(
            "5H 2C 6D TC",
            seat(1, {"21": "10", "upcard_luck": "5", "taxpayers_fortune": "1"}, "AD QC"),
        )
    )
    assert (1, "taxpayers_fortune_jackpot", None) not in by_key(four)
    nobj = run(
        round_(
            "5H 2C 3D 2S TC",
            seat(1, {"21": "10", "upcard_luck": "5", "taxpayers_fortune": "1"}, ("4S 6D", "stand")),
        )
    )
    assert (1, "taxpayers_fortune_jackpot", None) not in by_key(nobj)


def test_live_marker_keeps_the_dealer_drawing():
    # the only 21 hand is a natural (paid at once), but the taxed marker waits for a 5-card bust
    data = round_(
        "5H TC", seat(1, {"21": "10", "upcard_luck": "5", "taxpayers_fortune": "1"}, "AD QC")
    )
    assert codes(run(data)) == ["DEALER_STOPPED_EARLY"]
    data = round_("5H TC", seat(1, {"21": "10", "upcard_luck": "5"}, "AD QC"))
    assert run(data).findings == ()


def test_progressive_line_from_context():
    rules = UpcardLuck21Rules(progressive_lines={"bust5_suited": ProgressiveLine()})
    data = round_(
        "5H 2C 3D 2S TC",
        seat(1, {"21": "10", "upcard_luck": "5", "taxpayers_fortune": "1"}, "AS JS"),
    )
    with pytest.raises(ValueError, match="bust5_suited"):
        run(data, rules)
    a = run(data, rules, AuditContext(jackpot_amounts={"bust5_suited": D("1234.56")}))
    assert by_key(a)[(1, "taxpayers_fortune_jackpot", None)].net == D("1234.56")


def test_rule_findings():
    a = run(
        round_(
            "9H 8C",
            seat(
                1, {"21": "10", "upcard_luck": "15", "taxpayers_fortune": "2"}, ("TS 9D", "stand")
            ),
        )
    )
    assert codes(a) == ["TAXPAYERS_FORTUNE_WRONG_AMOUNT", "UPCARD_LUCK_ABOVE_21_BET"]
    assert {f.amount for f in a.findings} == {D("5"), D("1")}
    a = run(round_("9H 8C", seat(1, {"21": "10", "taxpayers_fortune": "1"}, ("TS 9D", "stand"))))
    assert codes(a) == ["TAXPAYERS_FORTUNE_WITHOUT_UPCARD_LUCK"]
    rules = UpcardLuck21Rules(taxpayers_fortune=False)
    a = run(
        round_(
            "9H 8C",
            seat(1, {"21": "10", "upcard_luck": "5", "taxpayers_fortune": "1"}, ("TS 9D", "stand")),
        ),
        rules,
    )
    assert codes(a) == ["TAXPAYERS_FORTUNE_NOT_OFFERED"]
