"""Properties of simulated rounds of the three blackjack games, and the injected errors."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games.blackjack import audit as bj
from tables.games.blackjack.simulate import INJECT_KINDS, simulation_context

from .blackjack_helpers import KEYS, RULESETS, simulated_rounds
from .blackjack_helpers import game_and_rules as _setup


@simulated_rounds(RULESETS, 60)
def test_simulated_rounds_validate_replay_and_pay_cleanly(key, ruleset, seed, seats):
    module, rules = _setup(key, ruleset)
    data = module.simulate_round(random.Random(seed), rules, seats=seats)
    data = json.loads(json.dumps(data))  # exactly what the API would receive
    rnd = module.parse_round(data, rules)  # validation accepts it
    assert module.round_to_dict(rnd) == data
    audit = module.audit(rnd, rules, simulation_context(rules))
    assert audit.findings == (), [f.message for f in audit.findings]
    # the engine's dealer replay reproduces the simulated dealer: it drew exactly while some
    # wager depended on the hand and the drawing rule said draw
    natural = bj.is_natural_pair(rnd.dealer[0], rnd.dealer[1])
    live = bj.live_stake(rnd, rules, module.SPEC)
    if live == 0 or (natural and rules.dealer_peeks):
        assert len(rnd.dealer) == 2
    else:
        for k in range(2, len(rnd.dealer) + 1):
            total, soft = bj.hand_total(rnd.dealer[:k])
            must = total <= 21 and bj.dealer_must_draw(total, soft, rules.dealer_hits_soft_17)
            assert must == (k < len(rnd.dealer))


@settings(max_examples=40, deadline=None)
@given(key=st.sampled_from(KEYS), seed=st.integers(0, 2**32), perm_seed=st.integers(0, 1000))
def test_settlement_never_depends_on_seat_order(key, seed, perm_seed):
    module, rules = _setup(key, "default")
    data = module.simulate_round(random.Random(seed), rules, seats=7)
    shuffled = dict(data, seats=random.Random(perm_seed).sample(data["seats"], len(data["seats"])))
    a = module.audit(module.parse_round(data, rules), rules)
    b = module.audit(module.parse_round(shuffled, rules), rules)
    assert a.settlements == b.settlements
    assert [(f.code, f.seat) for f in a.findings] == [(f.code, f.seat) for f in b.findings]


def test_same_seed_same_round_same_answer():
    module, rules = _setup("ante_up_21", "default")
    one = module.simulate_round(random.Random(7), rules, seats=5)
    two = module.simulate_round(random.Random(7), rules, seats=5)
    assert one == two
    assert module.audit(module.parse_round(one, rules), rules) == module.audit(
        module.parse_round(two, rules), rules
    )


EXPECTED = {
    "overpay": "PAY_ABOVE_EXPECTED",
    "underpay": "PAY_BELOW_EXPECTED",
    "dealer_stood_soft_17": "DEALER_STOOD_SOFT_17",
    "dealer_drew_hard_17": "DEALER_DREW_HARD_17",
    "dealer_drew_unneeded": "DEALER_DREW_UNNEEDED",
    "dealer_stopped_early": "DEALER_STOPPED_EARLY",
    "dealer_missed_peek": "DEALER_MISSED_PEEK",
}
RULE_CODES = {
    "ante_up_21": "ANTE_ABOVE_21_BET",
    "upcard_luck_21": "UPCARD_LUCK_ABOVE_21_BET",
    "blackjack_tie": "TIE_BONUSES_ABOVE_PRIMARY",
}


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("kind", sorted(INJECT_KINDS))
def test_each_injection_gives_its_finding(key, kind):
    module, rules = _setup(key, "default")
    rng = random.Random(kind + key)
    for seats in (1, 4, 7):
        data = module.simulate_round(rng, rules, seats=seats, inject=frozenset({kind}))
        audit = module.audit(module.parse_round(data, rules), rules)
        expected = EXPECTED.get(kind) or RULE_CODES[key]
        assert [f.code for f in audit.findings] == [expected]


def test_unknown_injection_refused():
    module, rules = _setup("blackjack_tie", "default")
    with pytest.raises(ValueError, match="unknown inject"):
        module.simulate_round(
            random.Random(1), rules, seats=3, inject=frozenset({"dealer_cheated"})
        )
