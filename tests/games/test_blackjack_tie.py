"""Blackjack Tie: every bonus wager, what counts as a tie, and the bonus-total finding."""

from __future__ import annotations

import pytest

from tables.games.blackjack import blackjack_tie as game
from tables.games.settings.rulesets import BlackjackTieRules

from .blackjack_helpers import D, by_key, codes, round_, seat

RULES = BlackjackTieRules()
ALL = {
    "21": "80",
    **{f"tie_{b}": "10" for b in ("LS", "RS", "17", "18", "19", "20", "21", "blackjack")},
}


def run(data, rules=RULES):
    return game.audit(game.parse_round(data, rules), rules)


def nets(a, number=1) -> dict:
    return {
        s.wager: s.net for s in a.settlements if s.seat == number and s.wager.startswith("tie_")
    }


@pytest.mark.parametrize(
    ("dealer", "hand", "winners"),
    [
        ("TS 7H", ("9S 8D", "stand"), {"tie_LS": D("180"), "tie_17": D("500")}),
        ("TS 8H", ("9S 9D", "stand"), {"tie_LS": D("180"), "tie_18": D("550")}),
        ("TS 9H", ("9S KD", "stand"), {"tie_LS": D("180"), "tie_19": D("550")}),
        ("TS QH", ("KS KD", "stand"), {"tie_RS": D("240"), "tie_20": D("250")}),
        ("TS 5H 6C", ("5S 6D KC", "hit stand"), {"tie_RS": D("240"), "tie_21": D("2500")}),
        ("AS KH", ("AD QC", ""), {"tie_RS": D("240"), "tie_blackjack": D("4000")}),
    ],
)
def test_every_bonus(dealer, hand, winners):
    a = run(round_(dealer, seat(1, ALL, hand)))
    got = nets(a)
    for wager, net in got.items():
        assert net == winners.get(wager, D("-10")), wager
    assert by_key(a)[(1, "21", 0)].net == 0  # on a tie the primary wager pushes


def test_natural_only_ties_natural_and_21_only_21():
    a = run(round_("TS 5H 6C", seat(1, ALL, ("AD QC", ""))))  # blackjack against three-card 21
    assert all(n < 0 for n in nets(a).values()) and by_key(a)[(1, "21", 0)].net == D("120")
    a = run(round_("AS KH", seat(1, ALL, ("5S 6D", ""))))
    assert all(n < 0 for n in nets(a).values())


def test_split_aces_with_ten_ties_21_not_blackjack():
    a = run(
        round_(
            "TS 5H 6C",
            seat(
                1,
                {"21": "10", "tie_21": "5", "tie_blackjack": "5"},
                ("AS KH", "split"),
                ("AD 5C", ""),
            ),
        )
    )
    assert nets(a) == {"tie_21": D("1250"), "tie_blackjack": D("-5")}


def test_only_first_hand_counts_and_busts_never_tie():
    a = run(
        round_(
            "TS 8H",
            seat(
                1, {"21": "10", "tie_18": "5"}, ("8S 5H 6C", "split hit stand"), ("8D KC", "stand")
            ),
        )
    )
    assert nets(a) == {"tie_18": D("-5")}  # the second hand's 18 does not count
    a = run(round_("TS 6H 8C", seat(1, {"21": "10", "tie_LS": "5"}, ("TD 5S 9C", "hit"))))
    assert nets(a) == {"tie_LS": D("-5")}


def test_bonuses_above_primary_is_a_finding():
    a = run(
        round_("TS 8H", seat(1, {"21": "10", "tie_17": "6", "tie_RS": "5"}, ("9S 9D", "stand")))
    )
    (f,) = a.findings
    assert (f.code, f.kind, f.amount, f.expected, f.recorded) == (
        "TIE_BONUSES_ABOVE_PRIMARY",
        "rule_violation",
        D("1"),
        "at most 10.00",
        "11.00",
    )


def test_tie_bonus_keeps_dealer_drawing_only_while_it_can_win():
    # every 21 hand is gone (hand 0 stands on 18 with a tie_18 bet... and the primary is live anyway)
    assert codes(
        run(round_("TS 5H", seat(1, {"21": "10", "tie_18": "5"}, ("9S 9D", "stand"))))
    ) == ["DEALER_STOPPED_EARLY"]
    # a first hand of 15 cannot tie a dealer who follows the rules: the bonus is not live
    hand = seat(1, {"21": "10", "tie_17": "5"}, ("9S 6D", "stand"))
    assert (
        game.SPEC.side_live(game.parse_round(round_("TS 5H", hand), RULES).seats[0], 0, RULES) == 0
    )
