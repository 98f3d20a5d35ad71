"""Hold'em Blackjack: whose turn it is (RULINGS.md, "An action out of turn" and "Heads-up").

An action out of turn is one finding, on the player who acted early; the action stands,
and the turn goes back to the first player skipped, whose actions are then in turn. In
hand completion the same holds, and the skipped player's cards count. Money is the same
whatever the order the actions were recorded in.
"""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tables.games.holdem import game as hb
from tables.games.holdem.actions import next_step
from tables.games.holdem.simulate import _Sim
from tests.examples import examples
from tests.games.test_holdem_blackjack import (
    RULES,
    A,
    D,
    checked_down,
    hand,
    nets,
    run,
)


def out_of_turn(audit) -> list[tuple[int, str]]:
    return [(f.seat, f.path) for f in audit.findings if f.code == "OUT_OF_TURN"]


# --- betting rounds ----------------------------------------------------------------------------

# Four seats, button 2: small blind seat 3, big blind seat 4; round 1 goes 1, 2, 3, 4 and
# the later rounds and hand completion 3, 4, 1, 2.
FOUR = {1: "100.00", 2: "100.00", 3: "100.00", 4: "100.00"}
FOUR_POSTS = [
    A("ante", 1, "0.50"),
    A("ante", 2, "0.50"),
    A("ante", 3, "0.50"),
    A("ante", 4, "0.50"),
    A("small_blind", 3, "1.00"),
    A("big_blind", 4, "2.00"),
    A("hole", 1, "9S"),
    A("hole", 2, "KD"),
    A("hole", 3, "AH"),
    A("hole", 4, "5C"),
]
FOUR_REST = [
    A("call", 3, "1.00"),
    A("check", 4),
    A("up", 1, "7C"),
    A("up", 2, "QD"),
    A("up", 3, "6S"),
    A("up", 4, "5D"),
    *(A("check", s) for s in (3, 4, 1, 2)),
    *(A("stand", s) for s in (3, 4, 1, 2)),
    *(A("check", s) for s in (3, 4, 1, 2)),
    A("showdown"),
    A("award", 2, "10.00"),
]


def test_round_1_a_call_before_the_player_due_is_the_only_finding():
    early = run(
        hand(FOUR_POSTS + [A("call", 2, "2.00"), A("call", 1, "2.00")] + FOUR_REST, 2, FOUR)
    )
    in_turn = run(
        hand(FOUR_POSTS + [A("call", 1, "2.00"), A("call", 2, "2.00")] + FOUR_REST, 2, FOUR)
    )
    assert in_turn.findings == ()
    [f] = early.findings
    assert (f.code, f.seat, f.path) == ("OUT_OF_TURN", 2, "actions[10]")
    assert f.message == "Seat 2 called out of turn in round 1; seat 1 was next to act."
    assert (f.expected, f.recorded, f.rule) == ("seat 1", "seat 2", hb.RULE_ORDER_R1)
    assert nets(early) == nets(in_turn)


def test_the_turn_goes_back_to_the_player_skipped():
    data = hand(FOUR_POSTS + [A("call", 2, "2.00")], 2, FOUR)
    assert next_step(data, RULES)["to_act"] == 1
    data["actions"].append(A("call", 1, "2.00"))
    assert next_step(data, RULES)["to_act"] == 3  # seat 2 has acted: the small blind is next


def test_a_raise_out_of_turn_leaves_the_skipped_players_to_act_in_order():
    # Seat 3 raises while seat 1 is due: seats 1 and 2 then act in turn, then seat 4.
    log = FOUR_POSTS + [
        A("raise", 3, "3.00"),
        A("call", 1, "4.00"),
        A("fold", 2),
        A("call", 4, "2.00"),
        A("up", 1, "7C"),
        A("up", 3, "6S"),
        A("up", 4, "5D"),
        *(A("check", s) for s in (3, 4, 1)),
        *(A("stand", s) for s in (3, 4, 1)),
        *(A("check", s) for s in (3, 4, 1)),
        A("showdown"),
    ]
    audit = run(hand(log, 2, FOUR))
    assert [(f.code, f.seat) for f in audit.findings] == [("OUT_OF_TURN", 3)]


def test_acting_while_the_turn_is_back_with_the_skipped_player_is_out_of_turn_too():
    # Seat 2 checks early, the turn goes back to seat 1, and seat 3 acts before seat 1 does.
    audit = run(checked_down(r2=[A("check", 2), A("check", 3), A("check", 1)]))
    assert out_of_turn(audit) == [(2, "actions[14]"), (3, "actions[15]")]
    assert [f.expected for f in audit.findings] == ["seat 1", "seat 1"]


# --- hand completion ---------------------------------------------------------------------------


def test_completion_a_seat_that_stands_early_is_the_finding_and_the_skipped_hits_count():
    # Seat 1 (9-7 = 16) draws a 5 for 21 after seat 2 stood early: the 5 counts, so seat 1
    # wins as it would have in turn.
    early = run(
        checked_down(completion=[A("stand", 2), A("hit", 1, "5D"), A("stand", 1), A("stand", 3)])
    )
    in_turn = run(
        checked_down(completion=[A("hit", 1, "5D"), A("stand", 1), A("stand", 2), A("stand", 3)])
    )
    assert in_turn.findings == ()
    [f] = early.findings
    assert (f.code, f.seat, f.path) == ("OUT_OF_TURN", 2, "actions[17]")
    assert f.message == (
        "Seat 2 stood before seat 1 had completed; hands are completed clockwise from the "
        "button's left."
    )
    assert (f.expected, f.recorded, f.rule) == ("seat 1", "seat 2", hb.RULE_COMPLETION)
    assert nets(early) == nets(in_turn)
    assert nets(early)[1] > 0


def test_completion_early_hits_then_a_stand_are_one_finding():
    audit = run(
        checked_down(
            completion=[
                A("hit", 3, "2C"),
                A("hit", 3, "3C"),
                A("stand", 3),
                A("stand", 1),
                A("stand", 2),
            ]
        )
    )
    f = [f for f in audit.findings if f.code == "OUT_OF_TURN"]
    assert [(x.seat, x.path, x.expected) for x in f] == [(3, "actions[17]", "seat 1")]
    assert f[0].message.startswith("Seat 3 drew 2C before seat 1 had completed;")


def test_completion_the_turn_goes_back_to_the_skipped_seat():
    data = checked_down(completion=[A("stand", 2)], final=[])
    data["actions"] = data["actions"][:-1]  # no showdown yet
    step = next_step(data, RULES)
    assert (step["phase"], step["to_act"]) == ("complete", 1)
    assert {"action": "hit"} in step["options"]
    data["actions"].append(A("stand", 1))
    assert next_step(data, RULES)["to_act"] == 3  # seat 2 has stood


def test_completion_a_stand_not_recorded_is_no_finding():
    # Seat 1 draws and the dealer records no stand before seat 2 plays: nothing shows that
    # seat 1 had not finished, so nobody acted out of turn.
    audit = run(checked_down(completion=[A("hit", 1, "2D"), A("stand", 2), A("stand", 3)]))
    assert audit.findings == ()


# --- heads-up --------------------------------------------------------------------------------


def heads_up(posts: list[dict], r1: list[dict], r2: list[dict]) -> dict:
    """Button 2, seats 2 and 5; the button (seat 2) is due to post the small blind."""
    return {
        "button": 2,
        "seats": [{"seat": 2, "stack": "50"}, {"seat": 5, "stack": "50"}],
        "actions": [
            A("ante", 2, "0.50"),
            A("ante", 5, "0.50"),
            *posts,
            A("hole", 5, "TS"),
            A("hole", 2, "9H"),
            *r1,
            A("up", 5, "TH"),
            A("up", 2, "9D"),
            *r2,
            A("stand", 5),
            A("stand", 2),
            A("bet", 5, "20.00"),
            A("fold", 2),
            A("award", 5, "25.00"),
        ],
    }


BUTTON_SB = [A("small_blind", 2, "1.00"), A("big_blind", 5, "2.00")]
R1 = [A("call", 2, "1.00"), A("check", 5)]
R2 = [A("check", 5), A("check", 2)]


def test_heads_up_the_button_posts_the_small_blind_acts_first_then_last():
    audit = run(heads_up(BUTTON_SB, R1, R2))
    assert audit.findings == ()
    assert audit.summary["small_blind_seat"] == 2 and audit.summary["big_blind_seat"] == 5
    data = heads_up(BUTTON_SB, R1, R2)
    log = data["actions"]
    assert next_step(data | {"actions": log[:6]}, RULES)["to_act"] == 2  # round 1: button first
    assert next_step(data | {"actions": log[:10]}, RULES)["to_act"] == 5  # round 2: button last
    assert next_step(data | {"actions": log[:11]}, RULES)["to_act"] == 2


def test_heads_up_blinds_posted_the_other_way_round_are_findings():
    wrong = [A("small_blind", 5, "1.00"), A("big_blind", 2, "2.00")]
    audit = run(heads_up(wrong, [A("call", 5, "1.00"), A("check", 2)], R2))
    assert sorted((f.code, f.seat) for f in audit.findings) == [
        ("BLIND_WRONG_SEAT", 2),
        ("BLIND_WRONG_SEAT", 5),
    ]
    assert nets(audit) == nets(run(heads_up(BUTTON_SB, R1, R2)))


def test_heads_up_out_of_turn_in_each_round_is_on_the_early_player_only():
    audit = run(
        heads_up(BUTTON_SB, [A("check", 5), A("call", 2, "1.00")], [A("check", 2), A("check", 5)])
    )
    assert out_of_turn(audit) == [(5, "actions[6]"), (2, "actions[10]")]
    assert len(audit.findings) == 2
    assert nets(audit) == {2: D("-2.50"), 5: D("2.50"), 0: D("0.00")}


# --- the simulator's out-of-turn play and a property -------------------------------------------


def test_the_simulators_out_of_turn_fold_is_one_finding_on_the_folder():
    taken = 0
    for seed in range(40):
        sim = _Sim(random.Random(seed), RULES, 6, {"out_of_turn"})
        data = sim.run()
        if "out_of_turn" in sim.todo:
            continue
        taken += 1
        found = [f for f in run(data).findings if f.code == "OUT_OF_TURN"]
        assert len(found) == 1, (seed, found)
        k = int(found[0].path[len("actions[") : -1])
        assert (
            data["actions"][k]["action"] == "fold" and data["actions"][k]["seat"] == found[0].seat
        )
    assert taken >= 10


_PLAIN = frozenset(("check", "call", "fold"))
_SHOWN = frozenset(("award", "rake", "showdown"))


def _betting_swaps(actions: list[dict]) -> list[int]:
    """Indexes i where actions i and i+1 are two seats' checks, calls or folds in a row:
    neither changes what the other owes, so recording them the other way round moves
    only the turn."""
    out = []
    for i in range(len(actions) - 1):
        a, b = actions[i], actions[i + 1]
        if a["action"] in _PLAIN and b["action"] in _PLAIN and a["seat"] != b["seat"]:
            ends = b["action"] == "fold" and (
                i + 2 == len(actions) or actions[i + 2]["action"] in _SHOWN
            )
            if not ends:  # a fold that ends the hand cannot come before the other's action
                out.append(i)
    return out


def _completion_runs(actions: list[dict]) -> list[tuple[int, int]]:
    """(start, end) of each seat's run of hits and stand in hand completion."""
    runs: list[tuple[int, int]] = []
    for i, a in enumerate(actions):
        if a["action"] in ("hit", "stand"):
            if runs and runs[-1][1] == i and actions[runs[-1][0]]["seat"] == a["seat"]:
                runs[-1] = (runs[-1][0], i + 1)
            else:
                runs.append((i, i + 1))
    return runs


@settings(max_examples=examples(200, 40), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6), st.booleans(), st.data())
def test_one_early_action_is_one_finding_on_the_early_actor(seed, n, completion, data):
    clean = hb.simulate_round(random.Random(seed), RULES, seats=n)
    actions = clean["actions"]
    if completion:
        runs = _completion_runs(actions)
        assume(len(runs) >= 2)
        r = data.draw(st.integers(0, len(runs) - 2))
        (a0, a1), (b0, b1) = runs[r], runs[r + 1]
        moved = actions[:a0] + actions[b0:b1] + actions[a0:a1] + actions[b1:]
        early_seat, early_at = actions[b0]["seat"], a0
    else:
        swaps = _betting_swaps(actions)
        assume(swaps)
        i = data.draw(st.sampled_from(swaps))
        moved = actions[:i] + [actions[i + 1], actions[i]] + actions[i + 2 :]
        early_seat, early_at = actions[i + 1]["seat"], i
    audit = run(clean | {"actions": moved})
    assert [(f.code, f.seat, f.path) for f in audit.findings] == [
        ("OUT_OF_TURN", early_seat, f"actions[{early_at}]")
    ]
    assert nets(audit) == nets(run(clean))
