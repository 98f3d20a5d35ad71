"""Hold'em Blackjack's State: the one copy of the betting rules (verify_*, can_*, operations).

The audit, the tablet's suggestions and the simulator all go through it; these tests pin
that "legal" (``can_*``) and "judged" (the findings an operation adds) never disagree, and
that the tablet suggests what the audit accepts.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games.holdem import game as hb
from tables.games.holdem import state as hs
from tables.games.holdem.actions import next_step
from tables.games.holdem.simulate import INJECTIONS
from tables.games.settings.rulesets import HoldemBlackjackRules

RULES = HoldemBlackjackRules()
STAKES = hs.compiled(RULES)


def three_handed() -> hs.State:
    """Button 3: small blind seat 1, big blind seat 2; antes 0.50; holes dealt."""
    state = hs.State(STAKES, 3, [(1, 10_000), (2, 10_000), (3, 10_000)])
    for seat in (1, 2, 3):
        state.act(hs.ANTE, seat, 50)
    state.act(hs.SMALL_BLIND, 1, 100)
    state.act(hs.BIG_BLIND, 2, 200)
    for seat, card in ((1, 8), (2, 9), (3, 10)):
        state.act(hs.HOLE, seat, card=card)
    state.advance(hs.P_R1)
    return state


def test_round_1_starts_left_of_the_big_blind_with_the_blind_as_the_bet():
    state = three_handed()
    assert state.to_act() == 3 and state.owed(3) == 200
    assert state.can_bet(hs.CALL, 3, 200) and not state.can_bet(hs.CALL, 3, 100)
    assert not state.can_bet(hs.CHECK, 3)
    assert state.can_raise(3, 400) and not state.can_raise(3, 500)  # fixed limit: +1 BB
    assert not state.can_bet(hs.CALL, 1, 100)  # not seat 1's turn
    assert state.findings == []


def test_verify_raises_with_the_reason_and_the_state_is_unchanged():
    state = three_handed()
    state.act(hs.FOLD, 3)
    with pytest.raises(hs.Illegal, match=r"seat 3 acted after folding at actions\[8\]"):
        state.act(hs.CALL, 3, 200)
    with pytest.raises(hs.Illegal, match="seat 1 puts in .* but has only") as exc:
        state.act(hs.CALL, 1, 100_000)
    assert exc.value.field == ".amount"
    assert state.chips_left(1) == 10_000 - 150
    assert [a.action for a in state.log[-1:]] == [hs.FOLD]


def test_an_illegal_but_possible_action_is_applied_and_judged():
    state = three_handed()
    assert not state.can_bet(hs.CHECK, 3)
    state.act(hs.CHECK, 3)  # facing the big blind: possible, breaks a rule
    assert [f.code for f in state.findings] == ["CHECK_FACING_BET"]
    assert state.findings[0].path == "actions[8]"  # 3 antes, 2 blinds, 3 hole cards


def test_the_cap_counts_the_big_blind_as_round_1s_bet():
    state = three_handed()
    state.bet_or_raise(3, 400)
    state.bet_or_raise(1, 500)
    state.bet_or_raise(2, 600)  # the big blind and three raises: capped
    assert not state.can_raise(3, 600) and state.can_bet(hs.CALL, 3, 400)
    state.bet_or_raise(3, 600)
    assert [f.code for f in state.findings] == ["RAISE_CAP_EXCEEDED"]


def test_a_busted_hand_may_only_stand():
    state = three_handed()
    state.act(hs.CALL, 3, 200)
    state.act(hs.CALL, 1, 100)
    state.act(hs.CHECK, 2)
    for seat, card in ((1, 48), (2, 49), (3, 50)):  # kings: 10 each
        state.act(hs.UP, seat, card=card)
    state.advance(hs.P_R2)
    for seat in (1, 2, 3):
        state.act(hs.CHECK, seat)
    state.advance(hs.P_COMPLETE)
    assert state.completing() == 1 and state.can_hit(1)
    state.act(hs.HIT, 1, card=44)  # another king: busted
    assert not state.can_hit(1) and state.can_stand(1)
    assert not state.can_hit(2)  # seat 1 has not finished
    state.act(hs.STAND, 1)
    assert state.completing() == 2 and state.can_hit(2)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(2, 6),
    st.sets(st.sampled_from(sorted(INJECTIONS)), max_size=2),
)
def test_legal_is_exactly_judged_without_a_finding(seed, n, inject):
    """Before every betting action, hit or stand of a simulated log (dealer errors
    included), ``can_*`` says yes exactly when applying it adds no finding."""
    data = hb.simulate_round(random.Random(seed), RULES, seats=n, inject=frozenset(inject))
    rnd = hb.parse_round(data, RULES)
    state = hs.State(STAKES, rnd.button, [(s.seat, s.stack_cents) for s in rnd.seats])
    for a in rnd.actions:
        if a.action in hs.BETTING:
            target = hs.BET_PHASE[state.phase]
            if target > state.phase:
                state.advance(target)
            legal = state.can_bet(a.action, a.seat, a.cents)
        elif a.action in (hs.HIT, hs.STAND) and state.phase == hs.P_COMPLETE:
            legal = state.can_hit(a.seat) if a.action == hs.HIT else state.can_stand(a.seat)
        else:
            state.apply(a)
            continue
        before = len(state.findings)
        state.apply(a)
        assert legal == (len(state.findings) == before), (a, state.findings[before:])


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_the_tablet_suggests_every_action_of_a_clean_simulated_hand(seed, n):
    data = hb.simulate_round(random.Random(seed), RULES, seats=n)
    actions = data["actions"]
    for k, actual in enumerate(actions):
        if actual["action"] in ("award", "rake"):
            break
        prefix = copy.deepcopy(data)
        prefix["actions"] = actions[:k]
        step = next_step(prefix, RULES)
        if actual["action"] in ("ante", "small_blind", "big_blind"):
            assert actual in step["posts"], (k, step)
        elif actual["action"] in ("hole", "up"):
            assert step["deal"] == {"action": actual["action"], "seat": actual["seat"]}, k
        elif actual["action"] == "showdown":
            assert step["phase"] == "showdown", k
        else:
            assert step["to_act"] == actual["seat"], (k, step)
            wanted = {key: v for key, v in actual.items() if key in ("action", "amount")}
            if actual["action"] == "hit":
                wanted = {"action": "hit"}
            assert wanted in step["options"], (k, step["options"])


def test_the_game_and_the_simulator_do_not_import_each_other():
    import ast
    from pathlib import Path

    here = Path(hs.__file__).parent

    def imports(name: str) -> set[str]:
        tree = ast.parse((here / f"{name}.py").read_text())
        out = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                out.add(node.module or "")
                out.update(a.name for a in node.names)
        return out

    assert "simulate" not in imports("game")
    assert "game" not in imports("simulate")
    assert not {"game", "simulate"} & imports("state")
