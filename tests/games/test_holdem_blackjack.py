"""Hold'em Blackjack: the hand log, its legality, settlement and recorded awards (pure engine).

Every hand here is worked by hand; stakes are the card's defaults (2/4/4-20: big blind
2.00, small blind 1.00, ante 0.50, round 2 bets 4.00, final round 4.00 to 20.00).
"""

from __future__ import annotations

import json
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games.holdem import game as hb
from tables.games.holdem import state as hs
from tables.games.holdem.simulate import INJECTIONS, _Sim
from tables.games.settings.rulesets import HoldemBlackjackRules
from tables.games.vocabulary.base import AuditContext, InvalidInput

RULES = HoldemBlackjackRules()
D = Decimal


def A(kind: str, seat: int | None = None, x: str | None = None) -> dict:  # noqa: N802 - reads like a log line
    out: dict = {"action": kind}
    if seat is not None:
        out["seat"] = seat
    if x is not None:
        out["card" if kind in ("hole", "up", "hit") else "amount"] = x
    return out


def hand(actions: list[dict], button: int = 3, stacks: dict[int, str] | None = None) -> dict:
    stacks = stacks or {1: "100.00", 2: "100.00", 3: "100.00"}
    return {
        "button": button,
        "seats": [{"seat": s, "stack": v} for s, v in stacks.items()],
        "actions": actions,
    }


def run(data: dict, rules: HoldemBlackjackRules = RULES, context: AuditContext | None = None):
    return hb.audit(hb.parse_round(data, rules), rules, context)


def nets(audit) -> dict[int, Decimal]:
    return {s.seat: s.net for s in audit.settlements}


def codes(audit) -> list[str]:
    return [f.code for f in audit.findings]


def only(audit, code: str):
    found = [f for f in audit.findings if f.code == code]
    assert len(found) == 1, audit.findings
    return found[0]


# Three seats, button at 3: small blind seat 1, big blind seat 2; round 1 starts at seat 3,
# later rounds at seat 1; hand completion 1, 2, 3.
POSTS = [
    A("ante", 1, "0.50"),
    A("ante", 2, "0.50"),
    A("ante", 3, "0.50"),
    A("small_blind", 1, "1.00"),
    A("big_blind", 2, "2.00"),
]
HOLES = [A("hole", 1, "9S"), A("hole", 2, "KD"), A("hole", 3, "AH")]
UPS = [A("up", 1, "7C"), A("up", 2, "QD"), A("up", 3, "6S")]
LIMP = [A("call", 3, "2.00"), A("call", 1, "1.00"), A("check", 2)]
CHECKS = [A("check", 1), A("check", 2), A("check", 3)]
STANDS = [A("stand", 1), A("stand", 2), A("stand", 3)]


def checked_down(r1=LIMP, r2=CHECKS, completion=STANDS, final=CHECKS, tail=()) -> dict:
    return hand(
        POSTS
        + HOLES
        + list(r1)
        + UPS
        + list(r2)
        + list(completion)
        + list(final)
        + [A("showdown")]
        + list(tail)
    )


# Seat 3 is short (10.50) and goes all in in round 2; seats 1 and 2 play on for a side pot.
SIDE_POT_LOG = (
    POSTS
    + HOLES
    + [
        A("raise", 3, "4.00"),
        A("call", 1, "3.00"),
        A("call", 2, "2.00"),
        *UPS,
        A("check", 1),
        A("bet", 2, "4.00"),
        A("all_in", 3, "6.00"),
        A("call", 1, "6.00"),
        A("call", 2, "2.00"),
        A("hit", 1, "4D"),
        A("stand", 1),
        A("stand", 2),
        A("hit", 3, "4C"),
        A("stand", 3),
        A("check", 1),
        A("bet", 2, "4.00"),
        A("call", 1, "4.00"),
        A("showdown"),
    ]
)
SIDE_POT_STACKS = {1: "100.00", 2: "100.00", 3: "10.50"}


def side_pot_hand(tail=()) -> dict:
    return hand(SIDE_POT_LOG + list(tail), stacks=SIDE_POT_STACKS)


def every_action_was_legal(data: dict, rules: HoldemBlackjackRules) -> bool:
    """Whether the State's ``can_*`` allowed each betting action and each hit or stand of
    the log just before it was applied (what the tablet and the simulator ask)."""
    rnd = hb.parse_round(data, rules)
    state = hs.State(hs.compiled(rules), rnd.button, [(s.seat, s.stack_cents) for s in rnd.seats])
    for a in rnd.actions:
        if a.action in hs.BETTING:
            target = hs.BET_PHASE[state.phase]
            if target > state.phase:
                state.advance(target)
            if not state.can_bet(a.action, a.seat, a.cents):
                return False
        elif a.action in (hs.HIT, hs.STAND) and not (
            state.can_hit(a.seat) if a.action == hs.HIT else state.can_stand(a.seat)
        ):
            return False
        state.apply(a)
    state.finish()
    return not state.findings and not state.errors


def docstring_example() -> dict:
    doc = hb.__doc__
    start = doc.index('    {\n      "button"')
    return json.loads(doc[start : doc.index("\n\nSeat 1 (5-6-T")])


# --- settlement ------------------------------------------------------------------------------


def test_docstring_example_settles_and_round_trips():
    data = docstring_example()
    rnd = hb.parse_round(data, RULES)
    audit = hb.audit(rnd, RULES)
    assert audit.findings == ()
    assert nets(audit) == {1: D("20.00"), 2: D("-1.50"), 4: D("-18.50"), 0: D("0.00")}
    seat1 = audit.settlements[0]
    assert (seat1.wager, seat1.stake, seat1.outcome) == ("pot", D("18.50"), "win")
    assert seat1.explanation == "21 (5C-6S-TH) wins the main pot of 38.50 over seat 4 (17)"
    assert (
        audit.settlements[2].explanation
        == "17 (KD-7H) loses the main pot to seat 1's 21 (5C-6S-TH)"
    )
    assert audit.settlements[1].explanation == "folded in round 1, 1.50 in the pot lost"
    assert hb.round_to_dict(rnd) == data
    assert hb.parse_round(hb.round_to_dict(rnd), RULES) == rnd


def test_side_pot_main_to_the_short_all_in_side_pot_split():
    audit = run(
        side_pot_hand([A("award", 3, "31.50"), A("award", 1, "4.00"), A("award", 2, "4.00")])
    )
    assert audit.findings == ()
    assert nets(audit) == {1: D("-10.50"), 2: D("-10.50"), 3: D("21.00"), 0: D("0.00")}
    main, side = audit.summary["pots"]
    assert main == {
        "name": "main pot",
        "amount": "31.50",
        "eligible": [1, 2, 3],
        "winners": [3],
        "shares": ["31.50"],
        "rake": "0.00",
    }
    assert side == {
        "name": "side pot 1",
        "amount": "8.00",
        "eligible": [1, 2],
        "winners": [1, 2],
        "shares": ["4.00", "4.00"],
        "rake": "0.00",
    }
    by_seat = {s.seat: s for s in audit.settlements}
    assert (
        by_seat[3].explanation
        == "21 (AH-6S-4C) wins the main pot of 31.50 over seats 1 (20), 2 (20)"
    )
    assert by_seat[1].explanation == (
        "20 (9S-7C-4D) loses the main pot to seat 3's 21 (AH-6S-4C); "
        "20 (9S-7C-4D) ties seat 2 for the side pot 1 of 8: gets 4"
    )


def test_walk_returns_the_uncalled_big_blind_and_is_not_raked():
    rules = HoldemBlackjackRules(rake_percent=D("5"))
    data = hand(POSTS + HOLES + [A("fold", 3), A("fold", 1), A("award", 2, "4.50")])
    audit = run(data, rules)
    assert audit.findings == ()
    assert nets(audit) == {1: D("-1.50"), 2: D("2.00"), 3: D("-0.50"), 0: D("0.00")}
    assert audit.summary["ended_in"] == "round 1"
    assert audit.summary["returned"] == {"2": "1.00"}
    explanation = audit.settlements[1].explanation
    assert "everyone else folded" in explanation and "uncalled 1 returned" in explanation
    assert (
        audit.settlements[-1].explanation == "no rake: the hand ended in round 1 (no flop, no drop)"
    )


def test_hand_ending_in_round_2_is_raked():
    rules = HoldemBlackjackRules(rake_percent=D("10"))
    data = hand(POSTS + HOLES + LIMP + UPS + [A("bet", 1, "4.00"), A("fold", 2), A("fold", 3)])
    audit = run(data, rules)
    # contested 7.50 (antes 1.50 + 6.00 of blinds and calls); 1's 4.00 bet came back
    rake = audit.settlements[-1]
    assert (rake.seat, rake.wager, rake.stake, rake.net) == (0, "rake", D("7.50"), D("0.75"))
    assert nets(audit)[1] == D("7.50") - D("0.75") - D("2.50")


def test_rake_percent_rounded_down_and_capped_with_recorded_rake():
    rules = HoldemBlackjackRules(rake_percent=D("10"), rake_cap=D("3.00"))
    ok = run(
        side_pot_hand(
            [
                A("award", 3, "28.50"),
                A("award", 1, "4.00"),
                A("award", 2, "4.00"),
                A("rake", None, "3.00"),
            ]
        ),
        rules,
    )
    assert ok.findings == ()
    assert nets(ok)[3] == D("18.00")
    assert nets(ok)[0] == D("3.00")
    assert ok.settlements[-1].explanation == "10% of 39.50 contested, rounded down, capped at 3"

    low = run(
        side_pot_hand(
            [
                A("award", 3, "29.50"),
                A("award", 1, "4.00"),
                A("award", 2, "4.00"),
                A("rake", None, "2.00"),
            ]
        ),
        rules,
    )
    assert sorted(codes(low)) == ["PAY_ABOVE_EXPECTED", "RAKE_BELOW_EXPECTED"]
    f = only(low, "RAKE_BELOW_EXPECTED")
    assert (f.kind, f.expected, f.recorded, f.amount, f.path) == (
        "overpay",
        "3.00",
        "2.00",
        D("1.00"),
        "actions[31]",
    )

    high = run(
        side_pot_hand(
            [
                A("award", 3, "27.50"),
                A("award", 1, "4.00"),
                A("award", 2, "4.00"),
                A("rake", None, "4.00"),
            ]
        ),
        rules,
    )
    f = only(high, "RAKE_ABOVE_EXPECTED")
    assert (f.kind, f.amount) == ("underpay", D("1.00"))
    assert only(high, "PAY_BELOW_EXPECTED").seat == 3


def test_tie_splits_with_the_odd_cent_to_the_first_player_clockwise_from_the_button():
    rules = HoldemBlackjackRules(ante_override=D("0.01"))
    posts = [
        A("ante", 1, "0.01"),
        A("ante", 2, "0.01"),
        A("ante", 3, "0.01"),
        A("small_blind", 1, "1.00"),
        A("big_blind", 2, "2.00"),
    ]
    data = hand(
        posts
        + [
            A("hole", 1, "KS"),
            A("hole", 2, "TD"),
            A("hole", 3, "2C"),
            A("fold", 3),
            A("call", 1, "1.00"),
            A("check", 2),
            A("up", 1, "QS"),
            A("up", 2, "JD"),
            A("check", 1),
            A("check", 2),
            A("stand", 1),
            A("stand", 2),
            A("check", 1),
            A("check", 2),
            A("showdown"),
            A("award", 1, "2.02"),
            A("award", 2, "2.01"),
        ]
    )
    audit = run(data, rules)
    assert audit.findings == ()
    assert nets(audit) == {1: D("0.01"), 2: D("0.00"), 3: D("-0.01"), 0: D("0.00")}
    assert [s.outcome for s in audit.settlements[:3]] == ["win", "push", "lose"]
    assert "with the odd chips" in audit.settlements[0].explanation


def test_heads_up_the_button_posts_the_small_blind_and_acts_first():
    data = {
        "button": 2,
        "seats": [{"seat": 2, "stack": "50"}, {"seat": 5, "stack": "50"}],
        "actions": [
            A("ante", 2, "0.50"),
            A("ante", 5, "0.50"),
            A("small_blind", 2, "1.00"),
            A("big_blind", 5, "2.00"),
            A("hole", 5, "TS"),
            A("hole", 2, "9H"),
            A("call", 2, "1.00"),
            A("check", 5),
            A("up", 5, "TH"),
            A("up", 2, "9D"),
            A("check", 5),
            A("check", 2),
            A("stand", 5),
            A("stand", 2),
            A("bet", 5, "20.00"),
            A("fold", 2),
            A("award", 5, "25.00"),
        ],
    }
    audit = run(data)
    assert audit.findings == ()
    assert audit.summary["small_blind_seat"] == 2 and audit.summary["big_blind_seat"] == 5
    assert nets(audit) == {2: D("-2.50"), 5: D("2.50"), 0: D("0.00")}


def test_charlie_beats_21_and_illegal_cards_do_not_count():
    log = (
        POSTS
        + [A("hole", 1, "AS"), A("hole", 2, "KD"), A("hole", 3, "5H")]
        + LIMP
        + [
            A("up", 1, "AH"),
            A("up", 2, "AD"),
            A("up", 3, "6C"),
            *CHECKS,
            A("hit", 1, "2S"),
            A("hit", 1, "2H"),
            A("hit", 1, "3S"),
            A("hit", 1, "3H"),
            A("hit", 1, "4S"),
            A(
                "hit", 1, "9D"
            ),  # an eighth card: does not count, seat 1 keeps its Charlie (16 in 7 cards)
            A("stand", 2),  # K-A = 21
            A("hit", 3, "TC"),
            A("hit", 3, "QC"),  # 5+6+10 = 21, then the Queen busts it to 31
            A("hit", 3, "2D"),  # a hit on a busted hand: does not count
            *CHECKS,
            A("showdown"),
        ]
    )
    audit = run(hand(log))
    assert sorted(codes(audit)) == ["HIT_ON_BUST", "HIT_PAST_MAX_CARDS"]
    assert audit.summary["hands"] == {
        "1": "7-card Charlie (AS-AH-2S-2H-3S-3H-4S)",
        "2": "21 (KD-AD)",
        "3": "busted 31 (5H-6C-TC-QC)",
    }
    assert audit.summary["charlies"] == [1]
    assert nets(audit)[1] == D("5.00")
    f = only(audit, "HIT_PAST_MAX_CARDS")
    assert (f.path, f.seat, f.kind) == ("actions[22]", 1, "rule_violation")
    assert f.message == (
        "Seat 1 drew 9D to a 7-card hand; a hand stops at 7 cards. The card does not count."
    )
    f = only(audit, "HIT_ON_BUST")
    assert f.message == (
        "Seat 3 drew 2D on a busted 31; a busted hand may only stand. The card does not count."
    )
    assert f.rule == "If a player exceeds 21 they can only Stand (but they are still in the game)."


# --- findings: posting -----------------------------------------------------------------------


def test_button_must_move_one_occupied_seat():
    data = docstring_example()  # button 1, seats 1, 2, 4
    assert (
        run(data, context=AuditContext(previous_hand={"button": 4})).findings == ()
    )  # wraps 4 -> 1
    f = only(run(data, context=AuditContext(previous_hand={"button": 1})), "BUTTON_WRONG_SEAT")
    assert (f.expected, f.recorded, f.path, f.kind) == ("seat 2", "seat 1", "button", "procedure")
    assert (
        f.message
        == "Button at seat 1; from seat 1 last hand it should have moved one seat to seat 2."
    )
    # the previous button's seat is empty now: the next occupied seat clockwise gets it
    f = only(run(data, context=AuditContext(previous_hand={"button": 2})), "BUTTON_WRONG_SEAT")
    assert f.expected == "seat 4"
    with pytest.raises(InvalidInput) as exc:
        run(data, context=AuditContext(previous_hand={"seats": []}))
    assert "context.previous_hand.button" in exc.value.as_dict()


def test_ante_missing_and_wrong_amount():
    walk = HOLES + [A("fold", 3), A("fold", 1)]
    audit = run(hand(POSTS[:2] + POSTS[3:] + walk))
    f = only(audit, "ANTE_MISSING")
    assert (f.seat, f.path, f.expected, f.recorded, f.amount) == (
        3,
        "seats[2]",
        "0.50",
        "0",
        D("0.50"),
    )
    audit = run(hand([POSTS[0], POSTS[1], A("ante", 3, "1.00")] + POSTS[3:] + walk))
    f = only(audit, "ANTE_WRONG_AMOUNT")
    assert (f.seat, f.expected, f.recorded, f.amount) == (3, "0.50", "1", D("0.50"))
    assert f.message == "Seat 3 anted 1; the ante is 0.50."


def test_ante_all_in_for_less_is_fine():
    log = (
        POSTS[:2]
        + [A("ante", 3, "0.30")]
        + POSTS[3:]
        + HOLES
        + [
            A("fold", 1),
            A("up", 2, "7C"),
            A("up", 3, "8C"),
            A("stand", 2),
            A("stand", 3),
            A("showdown"),
        ]
    )
    audit = run(hand(log, stacks={1: "100", 2: "100", 3: "0.30"}))
    assert (
        audit.findings == ()
    )  # seat 3 is all in on the ante; nobody is left to bet against seat 2
    # main pot 0.90 (0.30 from each) to seat 3's soft 19; seat 2 wins the 2.40 side pot it
    # alone is eligible for (seat 1 folded) and gets its uncalled 1.00 back
    assert nets(audit) == {1: D("-1.50"), 2: D("0.90"), 3: D("0.60"), 0: D("0.00")}
    assert audit.summary["returned"] == {"2": "1.00"}


# RULINGS.md, Hold'em Blackjack: "Chips that went into the pot stay in the pot. An ante or
# blind of the wrong amount is a finding and plays as posted: an ante goes to the pot whole
# (it is never handed back as an unmatched bet), and only a bet or raise that nobody called
# is returned."


def test_an_ante_of_the_wrong_amount_stays_in_the_pot():
    # seat 3 antes 1.00 (the ante is 0.50); everyone puts 2.00 in round 1 and checks down.
    # In: seat 1 2.50, seat 2 2.50, seat 3 3.00 = 8.00, one pot; seat 2's 20 (KD-QD) wins
    # it all: +5.50. Seat 3's extra 0.50 is not a bet nobody called: it is not returned.
    log = [POSTS[0], POSTS[1], A("ante", 3, "1.00")] + POSTS[3:] + HOLES + LIMP + UPS
    log += CHECKS + STANDS + CHECKS + [A("showdown")]
    audit = run(hand(log))
    assert codes(audit) == ["ANTE_WRONG_AMOUNT"]
    assert nets(audit) == {1: D("-2.50"), 2: D("5.50"), 3: D("-3.00"), 0: D("0.00")}
    assert audit.summary["returned"] == {}
    (pot,) = audit.summary["pots"]
    assert (pot["amount"], pot["eligible"], pot["winners"]) == ("8.00", [1, 2, 3], [2])


def test_only_the_uncalled_raise_is_returned_never_the_ante():
    # seat 3 antes 3.00 (wrong) and raises to 4; seats 1 and 2 fold. Bets: 1, 2, 4: the
    # raise's last 2.00 nobody called comes back; the ante stays in (the pot is seat 3's
    # anyway). Before the ruling the 4.50 seat 3 put in beyond seat 2 came back.
    log = [POSTS[0], POSTS[1], A("ante", 3, "3.00")] + POSTS[3:] + HOLES
    log += [A("raise", 3, "4.00"), A("fold", 1), A("fold", 2)]
    audit = run(hand(log))
    assert codes(audit) == ["ANTE_WRONG_AMOUNT"]
    assert nets(audit) == {1: D("-1.50"), 2: D("-2.50"), 3: D("4.00"), 0: D("0.00")}
    assert audit.summary["returned"] == {"3": "2.00"}
    assert audit.summary["pots"][0]["amount"] == "9.00"


def test_an_extra_ante_beside_a_short_all_in_goes_to_the_main_pot_and_is_raked():
    # seat 3 antes 1.00 (wrong); seat 1 (stack 2.50: ante 0.50, small blind 1.00, then all
    # in for 1.00 more) is short. Main pot: 2.50 from each + seat 3's extra 0.50 = 8.00;
    # side pot: seats 2 and 3's round 2 bets of 4 = 8.00. Rake 10%, capped at 1.00,
    # taken from the main pot first: 10% of 16.00 = 1.60 -> 1.00.
    rules = HoldemBlackjackRules(rake_percent=D("10"), rake_cap=D("1.00"))
    log = [POSTS[0], POSTS[1], A("ante", 3, "1.00")] + POSTS[3:] + HOLES
    log += [A("call", 3, "2.00"), A("all_in", 1, "1.00"), A("check", 2)] + UPS
    log += [A("bet", 2, "4.00"), A("call", 3, "4.00")] + STANDS
    log += [A("check", 2), A("check", 3), A("showdown")]
    audit = run(hand(log, stacks={1: "2.50", 2: "100", 3: "100"}), rules)
    assert codes(audit) == ["ANTE_WRONG_AMOUNT"]
    main, side = audit.summary["pots"]
    assert (main["amount"], main["eligible"], main["rake"]) == ("8.00", [1, 2, 3], "1.00")
    assert (side["amount"], side["eligible"], side["winners"]) == ("8.00", [2, 3], [2])
    assert audit.summary["returned"] == {}
    # seat 2's 20 wins both: 7.00 + 8.00 back for 6.50 in
    assert nets(audit) == {1: D("-2.50"), 2: D("8.50"), 3: D("-7.00"), 0: D("1.00")}


# RULINGS.md: "A blind who is all in for less than the full blind does not lower the bet:
# the others must still call (or raise from) the full blind, as in poker; the short blind
# plays for the main pot only. Calling the full blind is not a finding."
SHORT_BB = POSTS[:3] + [A("small_blind", 1, "1.00"), A("big_blind", 2, "1.50")]
SHORT_BB_STACKS = {1: "100", 2: "2.00", 3: "100"}


def short_bb_hand(round1: list[dict]) -> dict:
    tail = UPS + [A("check", 1), A("check", 3)] + STANDS + [A("check", 1), A("check", 3)]
    return hand(SHORT_BB + HOLES + round1 + tail + [A("showdown")], stacks=SHORT_BB_STACKS)


def test_a_short_all_in_big_blind_does_not_lower_the_bet():
    # seat 2 posts the ante 0.50 and is all in on a big blind of 1.50. Seat 3 calls the full
    # 2, seat 1 completes the small blind with 1. Main pot 2.00 x 3 = 6.00 to seat 2's 20;
    # side pot 0.50 x 2 = 1.00 to seat 3's soft 17 over seat 1's 16.
    data = short_bb_hand([A("call", 3, "2.00"), A("call", 1, "1.00")])
    audit = run(data)
    assert audit.findings == ()
    main, side = audit.summary["pots"]
    assert (main["amount"], main["eligible"], main["winners"]) == ("6.00", [1, 2, 3], [2])
    assert (side["amount"], side["eligible"], side["winners"]) == ("1.00", [1, 3], [3])
    assert nets(audit) == {1: D("-2.50"), 2: D("4.00"), 3: D("-1.50"), 0: D("0.00")}
    assert every_action_was_legal(data, RULES)  # a regular hand


def test_calling_only_the_short_blind_is_a_wrong_call():
    audit = run(short_bb_hand([A("call", 3, "1.50"), A("call", 1, "1.00")]))
    f = only(audit, "CALL_WRONG_AMOUNT")
    assert (f.seat, f.expected, f.recorded) == (3, "2", "1.50")


def test_the_tablet_asks_for_the_full_blind_after_a_short_all_in_big_blind():
    from tables.games.holdem.actions import next_step

    step = next_step(hand(SHORT_BB + HOLES, stacks=SHORT_BB_STACKS), RULES)
    assert step["to_act"] == 3
    assert {"action": "call", "amount": "2.00"} in step["options"]
    assert {"action": "raise", "amount": "4.00"} in step["options"]


def test_blinds_missing_wrong_seat_wrong_amount():
    walk = HOLES + [A("fold", 3), A("fold", 1)]
    f = only(run(hand(POSTS[:3] + [POSTS[4]] + walk)), "BLIND_MISSING")
    assert (f.seat, f.message) == (1, "No small blind was posted; seat 1 owed 1.")
    f = only(
        run(hand(POSTS[:3] + [A("small_blind", 3, "1.00"), POSTS[4]] + walk)), "BLIND_WRONG_SEAT"
    )
    assert (f.path, f.expected, f.recorded) == ("actions[3]", "seat 1", "seat 3")
    assert f.message == "Seat 3 posted the small blind; with the button at seat 3 it is seat 1's."
    f = only(
        run(hand(POSTS[:3] + [A("small_blind", 1, "2.00"), POSTS[4]] + walk)), "BLIND_WRONG_AMOUNT"
    )
    assert (f.expected, f.recorded, f.amount) == ("1", "2", D("1.00"))


# --- findings: betting -----------------------------------------------------------------------


def test_out_of_turn_in_round_2():
    # The turn goes back to seat 1, whose check is then in turn (RULINGS.md).
    audit = run(checked_down(r2=[A("check", 2), A("check", 1), A("check", 3)]))
    f = only(audit, "OUT_OF_TURN")
    assert (f.path, f.seat) == ("actions[14]", 2)
    assert f.message == "Seat 2 checked out of turn in round 2; seat 1 was next to act."
    assert f.rule == hb.RULE_ORDER_LATER
    assert len(audit.findings) == 1
    assert nets(audit) == nets(run(checked_down()))


def test_action_after_the_round_was_complete_is_out_of_turn():
    audit = run(checked_down(r2=[*CHECKS, A("check", 1)]))
    f = only(audit, "OUT_OF_TURN")
    assert f.message == "Seat 1 checked after betting in round 2 was complete."


def test_check_facing_a_bet():
    audit = run(
        checked_down(
            r2=[A("bet", 1, "4.00"), A("check", 2), A("call", 3, "4.00"), A("call", 2, "4.00")]
        )
    )
    f = only(audit, "CHECK_FACING_BET")
    assert f.message == "Seat 2 checked facing a bet of 4 in round 2 (4 to call)."
    assert (f.expected, f.recorded, f.amount) == ("call 4 or fold", "check", D("4.00"))


def test_call_of_the_wrong_amount():
    audit = run(checked_down(r1=[A("call", 3, "2.00"), A("call", 1, "2.00"), A("check", 2)]))
    f = only(audit, "CALL_WRONG_AMOUNT")
    assert f.message == "Seat 1 called 2 in round 1, where the call was 1."
    assert (f.expected, f.recorded, f.amount, f.path) == ("1", "2", D("1.00"), "actions[9]")
    # the extra 1.00 nobody matched comes back to seat 1
    assert run(
        checked_down(r1=[A("call", 3, "2.00"), A("call", 1, "2.00"), A("check", 2)])
    ).summary["returned"] == {"1": "1.00"}


def test_all_in_with_chips_behind():
    audit = run(
        checked_down(r1=[A("all_in", 3, "4.00"), A("call", 1, "3.00"), A("call", 2, "2.00")])
    )
    f = only(audit, "ALL_IN_WRONG_AMOUNT")
    assert (f.expected, f.recorded, f.amount) == ("99.50", "4", D("95.50"))


def test_round_2_raise_of_the_wrong_size_reads_like_the_floor():
    data = docstring_example()
    data["actions"] = data["actions"][:8] + [
        A("call", 1, "2.00"),
        A("call", 2, "1.00"),
        A("check", 4),
        A("up", 2, "7S"),
        A("up", 4, "7H"),
        A("up", 1, "6S"),
        A("bet", 2, "4.00"),
        A("raise", 4, "12.00"),
        A("fold", 1),
        A("fold", 2),
        A("award", 4, "27.50"),
    ]
    audit = run(data)
    f = only(audit, "BET_WRONG_SIZE")
    assert f.message == "Seat 4 raised to 12 in round 2, where a raise is 4."
    assert (f.expected, f.recorded, f.amount, f.seat, f.path) == (
        "raised to 8",
        "raised to 12",
        D("4.00"),
        4,
        "actions[15]",
    )
    assert f.rule == "Betting is Fixed Limit. A bet/raise equals 2x the Big Blind amount."
    assert nets(audit)[4] == D("9.00")  # 8.00 of the raise was never called


def test_round_1_bet_of_the_wrong_size():
    audit = run(
        checked_down(r1=[A("raise", 3, "3.00"), A("call", 1, "2.00"), A("call", 2, "1.00")])
    )
    f = only(audit, "BET_WRONG_SIZE")
    assert f.message == "Seat 3 raised to 3 in round 1, where a raise is 2."


def test_final_round_bet_outside_the_spread():
    audit = run(checked_down(final=[A("bet", 1, "22.00"), A("call", 2, "22.00"), A("fold", 3)]))
    f = only(audit, "FINAL_BET_OUT_OF_SPREAD")
    assert f.message == "Seat 1 bet 22 in the final round, where a bet or raise is 4 to 20."
    assert (f.expected, f.recorded, f.amount) == ("4 to 20", "22", D("2.00"))
    small = run(
        checked_down(
            final=[A("bet", 1, "4.00"), A("raise", 2, "6.00"), A("fold", 3), A("call", 1, "2.00")]
        )
    )
    f = only(small, "FINAL_BET_OUT_OF_SPREAD")
    assert (
        f.message
        == "Seat 2 raised by 2 (to 6) in the final round, where a bet or raise is 4 to 20."
    )


def test_final_round_spread_bets_are_legal():
    audit = run(
        checked_down(
            final=[A("bet", 1, "20.00"), A("raise", 2, "24.00"), A("fold", 3), A("call", 1, "4.00")]
        )
    )
    assert audit.findings == ()


def test_fifth_bet_or_raise_in_a_round():
    r1 = [
        A("raise", 3, "4.00"),
        A("raise", 1, "5.00"),
        A("raise", 2, "6.00"),  # big blind + 3 raises
        A("raise", 3, "6.00"),  # a fifth bet
        A("call", 1, "4.00"),
        A("call", 2, "2.00"),
    ]
    audit = run(checked_down(r1=r1))
    f = only(audit, "RAISE_CAP_EXCEEDED")
    assert (
        f.message
        == "Seat 3 raised to 10 in round 1, a bet or raise past the cap (one bet and 3 raises)."
    )
    assert (f.path, f.expected, f.amount) == ("actions[11]", "call 4 or fold", D("2.00"))
    assert (
        run(checked_down(r1=r1[:3] + [A("call", 3, "4.00"), A("call", 1, "2.00")])).findings == ()
    )


def test_short_all_in_does_not_count_as_a_raise():
    # big blind (the bet), raise to 4, raise to 6; seat 2 all in to 7 is short of a raise;
    # seat 3's raise to 9 is then the third raise, within the cap
    r1 = [
        A("raise", 3, "4.00"),
        A("raise", 1, "5.00"),
        A("all_in", 2, "5.00"),
        A("raise", 3, "5.00"),
        A("call", 1, "3.00"),
    ]
    data = hand(
        POSTS
        + HOLES
        + r1
        + UPS
        + [A("check", 1), A("check", 3), *STANDS, A("check", 1), A("check", 3), A("showdown")],
        stacks={1: "100", 2: "7.50", 3: "100"},
    )
    audit = run(data)
    assert audit.findings == ()
    assert [p["amount"] for p in audit.summary["pots"]] == [
        "22.50",
        "4.00",
    ]  # 7.00 x 3 + antes; 2.00 x 2


def test_betting_left_incomplete():
    audit = run(checked_down(r2=[A("bet", 1, "4.00"), A("call", 2, "4.00")]))
    f = only(audit, "BETTING_NOT_COMPLETE")
    assert f.message == "Betting in round 2 ended before seat 3 acted (facing 4 to call)."
    assert (f.path, f.seat) == ("actions[16]", 3)


def test_skipped_betting_round():
    audit = run(checked_down(final=[]))
    f = only(audit, "BETTING_NOT_COMPLETE")
    assert f.message == "Betting in the final round ended before seat 1 acted (with no action yet)."


def test_completion_out_of_turn_and_after_standing():
    # Seat 2 stood before seat 1 drew: the finding is on seat 2 and seat 1's card counts.
    audit = run(checked_down(completion=[A("stand", 2), A("hit", 1, "2D"), A("stand", 3)]))
    f = only(audit, "OUT_OF_TURN")
    assert (f.seat, f.path) == (2, "actions[17]")
    assert f.message == (
        "Seat 2 stood before seat 1 had completed; hands are completed "
        "clockwise from the button's left."
    )
    audit = run(
        checked_down(completion=[A("stand", 1), A("hit", 1, "2D"), A("stand", 2), A("stand", 3)])
    )
    assert only(audit, "OUT_OF_TURN").message == "Seat 1 drew 2D after standing."


# --- recorded awards -----------------------------------------------------------------------


def test_misawarded_side_pot_is_an_overpay_and_an_underpay():
    audit = run(
        side_pot_hand([A("award", 3, "31.50"), A("award", 1, "5.00"), A("award", 2, "3.00")])
    )
    over = only(audit, "PAY_ABOVE_EXPECTED")
    under = only(audit, "PAY_BELOW_EXPECTED")
    assert (over.seat, over.amount, over.kind, over.path) == (
        1,
        D("1.00"),
        "overpay",
        "actions[29]",
    )
    assert (under.seat, under.amount, under.kind) == (2, D("1.00"), "underpay")
    assert (over.expected, over.recorded) == ("-10.50", "-9.50")


def test_awards_that_do_not_balance():
    audit = run(side_pot_hand([A("award", 3, "31.50"), A("award", 1, "4.00")]))
    f = only(audit, "AWARDS_DO_NOT_BALANCE")
    assert f.message == "Dealer pushed 35.50 and raked 0 from 39.50 put in: 4 unaccounted for."
    assert f.amount == D("4.00")
    under = only(audit, "PAY_BELOW_EXPECTED")
    assert (under.seat, under.path) == (2, "seats[1]")


def test_no_awards_recorded_means_no_pay_findings():
    assert run(side_pot_hand()).findings == ()


# --- impossible input ------------------------------------------------------------------------


def errors_of(data: dict, rules: HoldemBlackjackRules = RULES) -> dict[str, list[str]]:
    with pytest.raises(InvalidInput) as exc:
        hb.parse_round(data, rules)
    return exc.value.as_dict()


def test_seventh_player_and_seat_twice():
    data = hand(POSTS, stacks=dict.fromkeys(range(1, 7), "10"))
    data["seats"].append({"seat": 7, "stack": "10"})
    errs = errors_of(data)
    assert errs["seats"] == ["this table seats at most 6 players, got 7"]
    assert errs["seats[6].seat"] == ["must be a table position from 1 to 6, got 7"]
    data = hand(POSTS)
    data["seats"].append({"seat": 2, "stack": "10"})
    assert errors_of(data)["seats[3].seat"] == ["seat 2 is already used by seats[1]"]


def test_every_field_error_is_reported_with_its_path():
    log = POSTS + HOLES + LIMP
    log[5] = A("hole", 1, "1X")
    log[3] = A("small_blind", 1, "-1.00")
    log[9] = A("call", 5, "1.00")
    log.append({"action": "call", "seat": 3, "amount": 1.5})
    log.append({"action": "shuffle"})
    log.append({"action": "check", "seat": 1, "amount": "1.00"})
    errs = errors_of(hand(log))
    assert errs["actions[5].card"] == ['"1X" is not a card']
    assert errs["actions[3].amount"] == ["must be more than 0, got -1.00"]
    assert errs["actions[9].seat"] == ["5 is not a seat in this hand"]
    assert "is a float" in errs["actions[11].amount"][0]
    assert "'shuffle' is not an action" in errs["actions[12].action"][0]
    assert errs["actions[13].amount"] == ["a check has no amount"]


def test_more_copies_than_the_shoe_holds():
    log = POSTS + [A("hole", 1, "AS"), A("hole", 2, "AS"), A("hole", 3, "KD")]
    assert errors_of(hand(log))["actions[6].card"] == ["AS dealt 2 times but a 1-deck shoe holds 1"]
    assert errors_of(hand(log), HoldemBlackjackRules(decks=2)) == {
        "actions": [
            "the hand stops before it has a result: seats 1, 2, 3 still in without an up card"
        ]
    }


def test_cards_and_actions_after_a_fold_are_impossible():
    log = POSTS + HOLES + [A("fold", 3), A("call", 1, "1.00"), A("check", 2), *UPS]
    assert errors_of(hand(log))["actions[13]"] == [
        "seat 3 dealt an up card after folding at actions[8]"
    ]
    log = POSTS + HOLES + [A("fold", 3), A("call", 1, "1.00"), A("check", 2), A("check", 3)]
    assert errors_of(hand(log))["actions[11]"] == ["seat 3 acted after folding at actions[8]"]


def test_phase_order_and_after_showdown():
    errs = errors_of(checked_down(tail=[A("bet", 1, "4.00")]))
    assert errs["actions[24]"] == ["a bet after the showdown"]
    errs = errors_of(hand(POSTS + HOLES + LIMP + [A("hole", 1, "2C")]))
    assert "a hole cannot come after round 1 began" in errs["actions[11]"]


def test_more_chips_than_the_stack_and_acting_when_all_in():
    log = (
        POSTS
        + HOLES
        + [
            A("raise", 3, "4.00"),
            A("call", 1, "3.00"),
            A("call", 2, "2.00"),
            *UPS,
            A("check", 1),
            A("bet", 2, "4.00"),
            A("call", 3, "7.00"),
        ]
    )
    assert errors_of(hand(log, stacks=SIDE_POT_STACKS))["actions[16].amount"] == [
        "seat 3 puts in 7 but has only 6 left"
    ]
    log = SIDE_POT_LOG[:18] + [A("check", 3)]
    assert errors_of(hand(log, stacks=SIDE_POT_STACKS))["actions[18]"] == [
        "seat 3 has been all in since actions[16] and cannot act"
    ]


def test_hand_already_won_and_unfinished_hand():
    log = POSTS + HOLES + [A("fold", 3), A("fold", 1), A("fold", 2)]
    assert errors_of(hand(log))["actions[10]"] == [
        "fold by seat 2: the hand was over at actions[9], when everyone but seat 2 had folded"
    ]
    assert errors_of(hand(POSTS + HOLES + LIMP))["actions"] == [
        "the hand stops before it has a result: seats 1, 2, 3 still in without an up card"
    ]


def test_not_an_object_and_unknown_fields():
    assert errors_of([])["non_field_errors"]  # type: ignore[arg-type]
    errs = errors_of({"button": "3", "seats": {}, "actions": [], "table": 4})
    assert set(errs) == {"button", "seats", "table"}


# --- properties on simulated hands ---------------------------------------------------------

seeds = st.integers(0, 2**32 - 1)
players = st.integers(2, 6)


@settings(max_examples=150, deadline=None)
@given(seeds, players)
def test_simulated_hands_are_clean_and_conserve_chips(seed, n):
    data = hb.simulate_round(random.Random(seed), RULES, seats=n)
    rnd = hb.parse_round(data, RULES)
    audit = hb.audit(rnd, RULES)
    assert audit.findings == ()
    assert (
        sum(s.net for s in audit.settlements if s.wager == "pot") + audit.settlements[-1].net == 0
    )
    assert hb.parse_round(hb.round_to_dict(rnd), RULES) == rnd


@settings(max_examples=60, deadline=None)
@given(seeds, players, st.sampled_from(["5", "2.5", "10"]), st.sampled_from(["0", "1.00", "3.00"]))
def test_raked_simulated_hands_conserve_chips(seed, n, percent, cap):
    rules = HoldemBlackjackRules(rake_percent=D(percent), rake_cap=D(cap))
    audit = run(hb.simulate_round(random.Random(seed), rules, seats=n), rules)
    assert audit.findings == ()
    pot_nets = sum(s.net for s in audit.settlements if s.wager == "pot")
    assert pot_nets + audit.settlements[-1].net == 0


@settings(max_examples=80, deadline=None)
@given(seeds, players, st.data())
def test_award_is_independent_of_seat_numbers_and_seat_order(seed, n, data):
    original = hb.simulate_round(random.Random(seed), RULES, seats=n)
    used = sorted(s["seat"] for s in original["seats"])
    new = sorted(data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n, unique=True)))
    relabel = dict(zip(used, new, strict=True))  # same clockwise order, other numbers
    moved = json.loads(json.dumps(original))
    moved["button"] = relabel[moved["button"]]
    for s in moved["seats"]:
        s["seat"] = relabel[s["seat"]]
    for a in moved["actions"]:
        if "seat" in a:
            a["seat"] = relabel[a["seat"]]
    moved["seats"] = data.draw(st.permutations(moved["seats"]))
    before = {relabel[s.seat]: s.net for s in run(original).settlements if s.seat}
    after = {s.seat: s.net for s in run(moved).settlements if s.seat}
    assert before == after


@pytest.mark.parametrize("injection", sorted(INJECTIONS))
def test_each_injected_error_is_found(injection):
    taken = 0
    for seed in range(60):
        sim = _Sim(random.Random(seed), RULES, 6, {injection})
        data = sim.run()
        if injection in sim.todo:
            continue  # this hand never offered the chance
        taken += 1
        assert INJECTIONS[injection] in codes(run(data)), (seed, injection)
    assert taken >= 10


def test_wrong_types_are_field_errors_not_crashes():
    log = POSTS + [
        {"action": "hole", "seat": [1], "card": "AS"},
        {"action": "hole", "seat": True, "card": 5},
        {"action": ["up"]},
        "check",
    ]
    errs = errors_of(hand(log, button=True))
    assert set(errs) == {
        "button",
        "actions[5].seat",
        "actions[6].seat",
        "actions[6].card",
        "actions[7].action",
        "actions[8]",
    }


# --- the one parser: its memos (owned by the compiled ruleset) change nothing -------------

FAST_RULES = [
    RULES,
    HoldemBlackjackRules(rake_percent=D("5"), rake_cap=D("3")),
    HoldemBlackjackRules(ante_override=D("0"), decks=2, max_raises=1, max_cards=4),
    HoldemBlackjackRules(
        big_blind=D("0.05"), max_cards=3, final_min_multiple=1, final_max_multiple=3
    ),
    HoldemBlackjackRules(
        big_blind=D("10"), small_blind_override=D("3"), ante_override=D("1"), max_seats=4
    ),
]


def _detailed(data, rules):
    """The parser with the compiled ruleset's memos emptied: every value read the long way."""
    hs.compiled(rules).memos.clear()
    return hb.parse_round(data, rules)


def _outcome(parse, data, rules):
    """Everything a caller can see of parse + audit, exactly (reprs keep Decimal exponents)."""
    try:
        rnd = parse(json.loads(json.dumps(data)) if type(data) is dict else data, rules)
    except InvalidInput as exc:
        return ("invalid", [(e.path, e.message) for e in exc.errors])
    rp = rnd.replay[1]
    replay = {name: getattr(rp, name) for name in rp.__slots__ if name not in ("st", "errors")}
    replay["findings"] = repr(rp.findings)
    audit = hb.audit(rnd, rules)
    return (
        "round",
        repr(rnd),
        hb.round_to_dict(rnd),
        replay,
        repr(audit.settlements),
        repr(audit.findings),
        json.dumps(audit.summary),
    )


def _mutate(data: dict, rng: random.Random) -> dict:
    """One small change of the kind a tablet or a dealer could make (or a broken client)."""
    data = json.loads(json.dumps(data))
    log, seats = data["actions"], data["seats"]
    if not log:  # an earlier change cut the whole log: all that is left is to add to it
        log.append(A("rake", None, "0.00"))
        return data
    k = rng.randrange(len(log))
    item = log[k]
    r = rng.random()
    if r < 0.12:
        del log[k]
    elif r < 0.2:
        log.insert(k, dict(item))
    elif r < 0.3 and k + 1 < len(log):
        log[k], log[k + 1] = log[k + 1], log[k]
    elif r < 0.45 and "amount" in item:
        cents = int(D(item["amount"]) * 100) + rng.choice([-100, -1, 1, 50, 200, 400, 2000])
        item["amount"] = rng.choice([hb.money_text_cents(max(cents, 0)), 3, "-1.00", 2.5])
    elif r < 0.55 and "card" in item:
        item["card"] = rng.choice(["AS", "KD", "5C", "9H", "as", "10h", "XX", 7])
    elif r < 0.65 and "seat" in item:
        item["seat"] = rng.choice([s["seat"] for s in seats] + [True, 9, "1"])
    elif r < 0.72:
        item["action"] = rng.choice(sorted(hb.ACTIONS) + ["deal"])
    elif r < 0.76:
        item["note"] = "x"
    elif r < 0.8:
        data["button"] = rng.choice([s["seat"] for s in seats])
    elif r < 0.85:
        rng.choice(seats)["stack"] = rng.choice(["0.50", "2.00", "1000.00", "0", 100])
    elif r < 0.9:
        del log[rng.randrange(len(log) + 1) :]
    else:
        log.append(rng.choice([A("award", seats[0]["seat"], "1.00"), A("rake", None, "0.00")]))
    return data


@settings(max_examples=150, deadline=None)
@given(
    seeds,
    players,
    st.sampled_from(FAST_RULES),
    st.sets(st.sampled_from(sorted(INJECTIONS)), max_size=2),
    st.integers(0, 3),
)
def test_fast_path_gives_exactly_what_the_detailed_path_gives(seed, n, rules, inject, changes):
    """Same Round, replay, settlements, findings, summary and errors with the memos warm
    (the cheap exact checks) and cold, for regular hands, hands with dealer errors and
    broken hands alike."""
    rng = random.Random(seed)
    data = hb.simulate_round(rng, rules, seats=min(n, rules.max_seats), inject=frozenset(inject))
    for _ in range(changes):
        data = _mutate(data, rng)
    assert _outcome(hb.parse_round, data, rules) == _outcome(_detailed, data, rules)


@pytest.mark.parametrize("rules", FAST_RULES)
def test_regular_hands_take_the_fast_path(rules):
    """A simulated clean hand is legal at every step by the State's can_*."""
    for seed in range(40):
        data = hb.simulate_round(random.Random(seed), rules, seats=2 + seed % (rules.max_seats - 1))
        assert every_action_was_legal(data, rules), seed


class _Text(str):
    pass


def test_fast_path_leaves_odd_types_to_the_detailed_path():
    from collections import UserDict

    base = checked_down()
    odd = [
        ("actions", 5, "seat", True),  # a bool is not a seat number, even where it equals 1
        ("actions", 5, "action", _Text("hole")),  # the detailed path wants exact text
        ("actions", 0, "amount", 1),  # whole numbers are amounts: 1.00
        ("seats", 0, "stack", 100),
        ("actions", 5, "card", "9s"),  # other spellings of a card are parsed, not refused
    ]
    for where, i, key, value in odd:
        data = json.loads(json.dumps(base))
        data[where][i][key] = value
        assert _outcome(hb.parse_round, data, RULES) == _outcome(_detailed, data, RULES), key
    mapping = json.loads(json.dumps(base))
    mapping["actions"][3] = UserDict(mapping["actions"][3])  # a Mapping, not a dict
    assert hb.parse_round(mapping, RULES) == hb.parse_round(base, RULES)
