"""The hot paths of the blackjack games hold to the plain ones.

``parse_round`` reads a well-formed round through ``blackjack._parse_fast`` and anything
else through ``blackjack._parse_detailed``; ``audit`` uses memos and combined per-seat
hooks where ``blackjack.audit_reference`` is the same audit written plainly. These tests
check that the two sides give equal answers on simulated rounds, on valid rounds in unusual
forms, and on broken rounds (where the errors must be exactly the detailed parser's).
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import FrozenInstanceError
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games import GAMES, cards
from tables.games import blackjack as bj
from tables.games.base import Audit, InvalidInput, RecordedPay, Settlement
from tables.games.cards import parse_card
from tables.games.rulesets import BlackjackTieRules
from tables.games.simulate_blackjack import INJECT_KINDS, simulation_context

from .blackjack_helpers import round_, seat

KEYS = ("ante_up_21", "upcard_luck_21", "blackjack_tie")
RULESETS = {
    "default": {},
    "s17_6to5_1deck": {
        "dealer_hits_soft_17": False,
        "blackjack_pays": "6:5",
        "decks": 1,
        "rounding_unit": "0.50",
    },
    "strict": {
        "dealer_peeks": False,
        "double_on": "10_11",
        "double_after_split": False,
        "max_split_hands": 2,
        "split_any_ten_values": False,
        "decks": 2,
        "insurance": False,
    },
    "loose": {
        "double_on": "9_10_11",
        "resplit_aces": True,
        "hit_split_aces": True,
        "rounding_direction": "nearest",
        "rounding_unit": "1.00",
        "max_split_hands": 3,
    },
}


def _setup(key: str, ruleset: str):
    game = GAMES[key]
    return game.module, game.rules_from_dict(RULESETS[ruleset])


def _simulated(key: str, rules, seed: int, seats: int, inject: frozenset = frozenset()) -> dict:
    module = GAMES[key].module
    data = module.simulate_round(random.Random(seed), rules, seats=seats, inject=inject)
    return json.loads(json.dumps(data))  # exactly what the API receives


def _outcome(module, data, rules, context):
    """What the engine says about ``data``: the round and audit, or the errors."""
    try:
        rnd = module.parse_round(copy.deepcopy(data), rules)
    except InvalidInput as exc:
        return ("invalid", exc.as_dict())
    return ("ok", rnd, module.audit(rnd, rules, context).to_dict())


def _check_same(module, data, rules, context=None) -> str:
    """Both parsers and both audits agree on ``data``; returns "ok" or "invalid"."""
    spec = module.SPEC
    fast = bj._parse_fast(copy.deepcopy(data), rules, spec)
    try:
        detailed = bj._parse_detailed(copy.deepcopy(data), rules, spec)
    except InvalidInput as exc:
        assert fast is None, "the fast parser accepted a round the detailed parser refuses"
        with pytest.raises(InvalidInput) as got:
            module.parse_round(copy.deepcopy(data), rules)
        assert got.value.as_dict() == exc.as_dict()
        assert [str(e) for e in got.value.errors] == [str(e) for e in exc.errors]
        return "invalid"
    if fast is not None:
        assert fast == detailed
    rnd = module.parse_round(copy.deepcopy(data), rules)
    assert rnd == detailed
    assert module.round_to_dict(rnd) == module.round_to_dict(detailed)
    fast_audit = module.audit(rnd, rules, context)
    assert fast_audit == bj.audit_reference(rnd, rules, spec, context)
    assert fast_audit.to_dict() == bj.audit_reference(detailed, rules, spec, context).to_dict()
    assert module.audit(rnd, rules, context) == fast_audit  # memos are not disturbed
    return "ok"


# --------------------------------------------------------------------------------------
# Valid rounds in unusual forms, and broken rounds


def _unusual(data: dict, rng: random.Random) -> dict:
    """The same round (or one with a different recorded pay or wager) in another valid form."""
    d = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        s = rng.choice(d["seats"])
        k = rng.randrange(13)
        if k == 0:
            items = list(s.items())
            rng.shuffle(items)
            s.clear()
            s.update(items)
        elif k == 1 and s.get("paid"):
            p = rng.choice(s["paid"])
            items = list(p.items())
            rng.shuffle(items)
            p.clear()
            p.update(items)
        elif k == 2:
            w = rng.choice(list(s["wagers"]))
            if isinstance(s["wagers"][w], str) and s["wagers"][w].endswith(".00"):
                s["wagers"][w] = int(s["wagers"][w][:-3])
        elif k == 3:
            h = rng.choice(s["hands"])
            h["cards"] = [
                c.lower() if rng.random() < 0.5 else c.replace("T", "10") for c in h["cards"]
            ]
        elif k == 4:
            s["player"] = f"P-{rng.randrange(100)}"
        elif k == 5:
            h = rng.choice(s["hands"])
            actions = h.get("actions")
            if not actions and rng.random() < 0.5:
                h.pop("actions", None)
            elif not actions:
                h["actions"] = None
            elif actions[-1] == "stand":
                actions.pop()
        elif k == 6 and s.get("paid"):
            p = rng.choice(s["paid"])
            p["net"] = str(Decimal(p["net"]) + Decimal(rng.choice(["1", "-1", "5", "0.5"])))
        elif k == 7:
            rng.shuffle(d["seats"])
        elif k == 8:
            s["wagers"]["21"] = rng.choice(["1.00", "3.00", "1000.00"])  # rule findings
        elif k == 9 and s.get("paid"):
            rng.shuffle(s["paid"])
        elif k == 10 and s.get("paid"):
            s["paid"].pop(rng.randrange(len(s["paid"])))
        elif k == 11:
            s.pop("paid", None)
        elif k == 12 and s.get("paid"):
            p = rng.choice(s["paid"])
            p["net"] = p["net"].replace(".00", "")
    if rng.random() < 0.3:
        d.pop("game", None)
    return d


_ODD_VALUES = [
    None, True, False, 0, 1, -1, 2, 7, 10, 10.0, 0.5, "10", "x", "", [], {}, "AS", "ah", " KD",
    "10d", "1X", "hit", "split", "stand", "double", "21", "ante", "bet", "0.00", "-5.00",
    "10.005", "1e3", "NaN", ["AS"], {"cards": []},
]  # fmt: skip


def _broken(data: dict, rng: random.Random) -> dict:
    """``data`` with one field changed, removed, added or duplicated at random."""
    d = copy.deepcopy(data)

    def nodes(x, path):
        yield path, x
        if isinstance(x, dict):
            for k, v in x.items():
                yield from nodes(v, [*path, k])
        elif isinstance(x, list):
            for i, v in enumerate(x):
                yield from nodes(v, [*path, i])

    path, node = rng.choice(list(nodes(d, []))[1:])
    parent = d
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    choice = rng.randrange(10)
    if choice < 5:
        parent[last] = copy.deepcopy(rng.choice(_ODD_VALUES))
    elif choice < 7 and isinstance(parent, dict):
        del parent[last]
    elif choice < 8 and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[last]))
    elif choice < 9 and isinstance(parent, dict):
        extra = rng.choice(["foo", "hand", "player", "even_money", "paid", "game", "insurance"])
        parent[extra] = copy.deepcopy(rng.choice(_ODD_VALUES))
    elif isinstance(node, list) and len(node) > 1:
        node.pop()
    else:
        parent[last] = copy.deepcopy(rng.choice(_ODD_VALUES))
    return d


@settings(max_examples=60, deadline=None)
@given(
    key=st.sampled_from(KEYS),
    ruleset=st.sampled_from(sorted(RULESETS)),
    seed=st.integers(0, 2**32),
    seats=st.integers(1, 7),
    inject=st.sampled_from(sorted(INJECT_KINDS | {""})),
)
def test_simulated_rounds_fast_equals_plain(key, ruleset, seed, seats, inject):
    module, rules = _setup(key, ruleset)
    try:
        data = _simulated(key, rules, seed, seats, frozenset({inject} - {""}))
    except (ValueError, RuntimeError):  # an injection this ruleset cannot have
        return
    assert bj._parse_fast(data, rules, module.SPEC) is not None  # the usual form is fast
    assert _check_same(module, data, rules, simulation_context(rules)) == "ok"


@settings(max_examples=60, deadline=None)
@given(
    key=st.sampled_from(KEYS),
    ruleset=st.sampled_from(sorted(RULESETS)),
    seed=st.integers(0, 2**32),
    seats=st.integers(1, 7),
)
def test_unusual_forms_fast_equals_plain(key, ruleset, seed, seats):
    module, rules = _setup(key, ruleset)
    data = _simulated(key, rules, seed, seats)
    rng = random.Random(seed)
    for _ in range(4):
        _check_same(module, _unusual(data, rng), rules, simulation_context(rules))


@settings(max_examples=80, deadline=None)
@given(
    key=st.sampled_from(KEYS),
    ruleset=st.sampled_from(sorted(RULESETS)),
    seed=st.integers(0, 2**32),
    seats=st.integers(1, 7),
)
def test_broken_rounds_get_the_detailed_errors(key, ruleset, seed, seats):
    module, rules = _setup(key, ruleset)
    data = _simulated(key, rules, seed, seats)
    rng = random.Random(seed)
    for _ in range(4):
        broken = _broken(data, rng)
        if rng.random() < 0.3:
            broken = _broken(broken, rng)
        _check_same(module, broken, rules, simulation_context(rules))


def test_broken_rounds_do_reach_the_detailed_parser():
    """The property above is not vacuous: many broken rounds are refused, some accepted."""
    module, rules = _setup("ante_up_21", "default")
    data = _simulated("ante_up_21", rules, 5, 7)
    rng = random.Random(5)
    seen = {_check_same(module, _broken(data, rng), rules) for _ in range(60)}
    assert seen == {"ok", "invalid"}


# --------------------------------------------------------------------------------------
# Hand-made cases


@pytest.mark.parametrize("odd", [True, False, 1.0, 10.0, 0.0])
def test_odd_nets_and_hands_are_refused_whatever_came_before(odd):
    """Regression: memos keyed by JSON values once answered for True as for 1, 10.0 as 10."""
    module, rules = _setup("blackjack_tie", "default")
    good = round_(
        "TS 8H",
        seat(1, {"21": 10}, ("KS 9H", "stand"), paid=[{"wager": "21", "hand": 0, "net": 10}]),
    )
    for value in (0, 1, 10):
        data = copy.deepcopy(good)
        data["seats"][0]["paid"][0]["net"] = value
        module.parse_round(data, rules)
    bad_net = copy.deepcopy(good)
    bad_net["seats"][0]["paid"][0]["net"] = odd
    with pytest.raises(InvalidInput) as exc:
        module.parse_round(bad_net, rules)
    assert list(exc.value.as_dict()) == ["seats[0].paid[0].net"]
    bad_hand = copy.deepcopy(good)
    bad_hand["seats"][0]["paid"][0]["hand"] = odd
    with pytest.raises(InvalidInput) as exc:
        module.parse_round(bad_hand, rules)
    assert list(exc.value.as_dict()) == ["seats[0].paid[0].hand"]
    bad_wager = copy.deepcopy(good)
    bad_wager["seats"][0]["wagers"]["21"] = odd
    with pytest.raises(InvalidInput) as exc:
        module.parse_round(bad_wager, rules)
    assert list(exc.value.as_dict()) == ["seats[0].wagers.21"]


def test_recorded_pays_keep_their_paths():
    module, rules = _setup("ante_up_21", "default")
    data = round_(
        "TS 8H",
        seat(
            2, {"21": "10"}, ("KS 9H", "stand"), paid=[{"wager": "21", "hand": 0, "net": "10.00"}]
        ),
        seat(
            1,
            {"21": "10", "ante": "10", "bet": "10"},
            ("QS 9D", "stand"),
            paid=[{"wager": "ante", "net": "10"}, {"wager": "21", "hand": 0, "net": "10.00"}],
        ),
    )
    rnd = module.parse_round(data, rules)
    assert rnd.seats[1].paid == (
        RecordedPay(1, "ante", Decimal("10.00"), None, "seats[1].paid[0]"),
        RecordedPay(1, "21", Decimal("10.00"), 0, "seats[1].paid[1]"),
    )
    assert rnd.seats[0].paid == (RecordedPay(2, "21", Decimal("10.00"), 0, "seats[0].paid[0]"),)
    # recorded out of order: nothing is wrong, so no finding (compare_recorded is by key)
    assert module.audit(rnd, rules).findings == ()


def test_settlements_built_through_slots_are_ordinary_frozen_settlements():
    made = bj.make_settlement(3, "21", Decimal("10.00"), Decimal("-10.00"), "lose", "why", 0)
    plain = Settlement(3, "21", Decimal("10.00"), Decimal("-10.00"), "lose", "why", 0, None)
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    with pytest.raises(FrozenInstanceError):
        made.net = Decimal(0)  # type: ignore[misc]


def test_rounds_and_audits_built_field_by_field_are_the_ordinary_ones():
    made = bj.make_round("blackjack_tie", (0, 36), ())
    assert made == bj.Round("blackjack_tie", (0, 36), ()) and repr(made) == repr(
        bj.Round("blackjack_tie", (0, 36), ())
    )
    audit = bj.make_audit((), (), {"live_stake": "0.00"})
    assert audit == Audit((), (), {"live_stake": "0.00"})
    assert audit.to_dict() == Audit((), (), {"live_stake": "0.00"}).to_dict()
    with pytest.raises(FrozenInstanceError):
        made.game = "x"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        audit.findings = ()  # type: ignore[misc]


@pytest.mark.parametrize(
    "paid",
    [
        [{"wager": "21", "hand": 0, "net": "10"}, {"wager": "21", "hand": 0, "net": "10"}],
        [{"wager": "tie_17", "net": "-5"}, {"wager": "21", "hand": 0, "net": "10"},
         {"wager": "tie_17", "net": "-5"}],
        [{"wager": "21", "hand": 1, "net": "10"}],
        [{"wager": "21", "net": "10"}],
        [{"wager": "tie_17", "hand": 0, "net": "-5"}],
    ],
)  # fmt: skip
def test_recorded_pays_twice_or_for_no_hand_are_refused(paid):
    """The fast parser checks duplicates with bits of an int; the errors are the detailed ones."""
    module, rules = _setup("blackjack_tie", "default")
    data = round_("TS 8H", seat(1, {"21": "10", "tie_17": "5"}, ("KS 9H", "stand"), paid=paid))
    assert bj._parse_fast(data, rules, module.SPEC) is None
    assert _check_same(module, data, rules) == "invalid"


def test_a_seat_number_twice_is_refused():
    module, rules = _setup("ante_up_21", "default")
    data = round_("TS 8H", seat(3, {"21": "10"}, "KS 9H"), seat(3, {"21": "10"}, "QS 9D"))
    assert bj._parse_fast(data, rules, module.SPEC) is None
    assert _check_same(module, data, rules) == "invalid"


def test_fast_card_texts_are_parse_card():
    """The fast parser's card table is every text parse_card takes as it is (no spaces)."""
    assert all(parse_card(text) == card for text, card in bj._CARD_OF.items())
    assert set(bj._CARD_OF) == set(cards._PARSE)


def test_a_new_ruleset_object_gets_its_own_plan():
    """Memos are kept per ruleset object; one that reuses a freed object's id is noticed."""
    data = round_("9S 8H", seat(1, {"21": "15"}, "AS KD"))
    module = GAMES["blackjack_tie"].module
    for i in range(40):
        pays = "6:5" if i % 2 else "3:2"
        rules = BlackjackTieRules(blackjack_pays=pays)
        net = module.audit(module.parse_round(data, rules), rules).settlements[0].net
        assert net == (Decimal("18.00") if i % 2 else Decimal("22.50"))
        del rules


def test_poker_settlement_texts_say_what_was_settled():
    """Every ANTE/BET explanation names the hands and the result the settlement carries (one
    settlement now: the texts are checked against the outcomes, not against a second copy)."""
    from tables.games import ante_up_21 as au

    values = sorted(au._POKER_TEXT)
    stake = Decimal("10.00")
    for p in values:
        for d in values:
            for natural in (False, True):
                ante, bet = au._settle_poker(1, stake, stake, p, d, natural)
                pt, dt = au.poker_text(p), au.poker_text(d)
                assert pt in ante.explanation and dt in ante.explanation, (p, d, natural)
                expected = "win" if p > d else "lose" if p < d else "push"
                if natural:
                    assert ante.explanation.startswith("dealer blackjack;")
                    assert ante.outcome == expected and bet.outcome == "push"
                    assert bet.explanation == f"dealer blackjack: Bet pushes ({pt} against dealer {dt})"
                elif d < au.QUALIFY:
                    assert (ante.outcome, bet.outcome) == ("win", "push")
                    assert "does not qualify" in ante.explanation and ante.explanation.count("Ante wins 1 to 1") == 1
                    assert "Bet pushes" in bet.explanation
                else:
                    assert ante.outcome == bet.outcome == expected
                    assert ante.explanation == bet.explanation
                    word = {"win": "win 1 to 1", "lose": "lose", "push": "push"}[expected]
                    assert ante.explanation.endswith(f"Ante and Bet {word}"), ante.explanation
