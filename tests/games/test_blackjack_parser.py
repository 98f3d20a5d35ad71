"""The blackjack games' one parser and one audit.

``parse_round`` reads every round one way: each field's cheap test first (an exact type, a
memo), its error branch only when that fails. ``audit`` keeps memos per ruleset (21-bet
settlements, the dealer's facts, live-stake texts) and the parser per game (wager sets,
amounts). These tests check that the memos change no answer (each round read and audited with
every memo emptied, then again from full memos), that a round survives its way back to JSON,
and that broken rounds are refused with their fields named, whatever came before.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from dataclasses import FrozenInstanceError
from decimal import Decimal

import pytest
from hypothesis import strategies as st

from tables.games import GAMES
from tables.games.blackjack import audit as bj
from tables.games.blackjack.simulate import INJECT_KINDS, simulation_context
from tables.games.settings.rulesets import BlackjackTieRules
from tables.games.vocabulary import cards
from tables.games.vocabulary.base import Audit, InvalidInput, RecordedPay, Settlement
from tables.games.vocabulary.cards import parse_card

from .blackjack_helpers import RULESETS, round_, seat, simulated_rounds
from .blackjack_helpers import game_and_rules as _setup


def _simulated(key: str, rules, seed: int, seats: int, inject: frozenset = frozenset()) -> dict:
    module = GAMES[key].module
    data = module.simulate_round(random.Random(seed), rules, seats=seats, inject=inject)
    return json.loads(json.dumps(data))  # exactly what the API receives


def _outcome(module, data, rules, context):
    """What the engine says about ``data``: the round and its audit, or the errors in order."""
    try:
        rnd = module.parse_round(copy.deepcopy(data), rules)
    except InvalidInput as exc:
        return ("invalid", exc.as_dict(), [str(e) for e in exc.errors])
    return ("ok", rnd, module.round_to_dict(rnd), module.audit(rnd, rules, context).to_dict())


def _check_same(module, data, rules, context=None) -> str:
    """The answer from empty memos is the answer from full ones; a round read is the round its
    JSON form reads as. Returns "ok" or "invalid"."""
    rules = dataclasses.replace(rules)  # the ruleset made again: every memo of parser and audit empty
    cold = _outcome(module, data, rules, context)
    for _ in range(2):  # the second time every memo the first filled is used
        assert _outcome(module, data, rules, context) == cold
    if cold[0] == "ok":
        again = module.parse_round(json.loads(json.dumps(cold[2])), rules)
        assert again == cold[1] and module.audit(again, rules, context).to_dict() == cold[3]
    return cold[0]


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


@simulated_rounds(RULESETS, 60, inject=st.sampled_from(sorted(INJECT_KINDS | {""})))
def test_simulated_rounds_read_and_audit_alike_from_empty_and_full_memos(key, ruleset, seed, seats, inject):
    module, rules = _setup(key, ruleset)
    try:
        data = _simulated(key, rules, seed, seats, frozenset({inject} - {""}))
    except (ValueError, RuntimeError):  # an injection this ruleset cannot have
        return
    assert _check_same(module, data, rules, simulation_context(rules)) == "ok"
    assert module.round_to_dict(module.parse_round(data, rules)) == data  # the tablet's form is canonical


def _variants_agree(key, ruleset, seed, seats, variant) -> None:
    """Four variants of a simulated round (``variant(data, rng)``), each read alike from empty
    and full memos."""
    module, rules = _setup(key, ruleset)
    data = _simulated(key, rules, seed, seats)
    rng = random.Random(seed)
    for _ in range(4):
        _check_same(module, variant(data, rng), rules, simulation_context(rules))


def _broken_once_or_twice(data: dict, rng: random.Random) -> dict:
    broken = _broken(data, rng)
    return _broken(broken, rng) if rng.random() < 0.3 else broken


@simulated_rounds(RULESETS, 60)
def test_unusual_forms_read_alike_from_empty_and_full_memos(key, ruleset, seed, seats):
    _variants_agree(key, ruleset, seed, seats, _unusual)


@simulated_rounds(RULESETS, 80)
def test_broken_rounds_get_the_same_errors_from_empty_and_full_memos(key, ruleset, seed, seats):
    _variants_agree(key, ruleset, seed, seats, _broken_once_or_twice)


def test_broken_rounds_are_both_refused_and_accepted():
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
    ("paid", "expected"),
    [
        ([{"wager": "21", "hand": 0, "net": "10"}, {"wager": "21", "hand": 0, "net": "10"}], "seats[0].paid[1]"),
        ([{"wager": "tie_17", "net": "-5"}, {"wager": "21", "hand": 0, "net": "10"},
          {"wager": "tie_17", "net": "-5"}], "seats[0].paid[2]"),
        ([{"wager": "21", "hand": 1, "net": "10"}], "seats[0].paid[0].hand"),
        ([{"wager": "21", "net": "10"}], "seats[0].paid[0].hand"),
        ([{"wager": "tie_17", "hand": 0, "net": "-5"}], "seats[0].paid[0].hand"),
    ],
)  # fmt: skip
def test_recorded_pays_twice_or_for_no_hand_are_refused(paid, expected):
    """Recorded pays are told apart with bits of an int; each refusal names the pay."""
    module, rules = _setup("blackjack_tie", "default")
    data = round_("TS 8H", seat(1, {"21": "10", "tie_17": "5"}, ("KS 9H", "stand"), paid=paid))
    assert _check_same(module, data, rules) == "invalid"
    assert list(_outcome(module, data, rules, None)[1]) == [expected]


def test_a_seat_number_twice_is_refused():
    module, rules = _setup("ante_up_21", "default")
    data = round_("TS 8H", seat(3, {"21": "10"}, "KS 9H"), seat(3, {"21": "10"}, "QS 9D"))
    assert _check_same(module, data, rules) == "invalid"
    assert _outcome(module, data, rules, None)[1] == {"seats[1].seat": ["seat 3 is already used by seats[0]"]}


def test_the_card_map_is_parse_card():
    """The parsers' first test of a card is a lookup in this map: every text parse_card takes
    as it is (no spaces), and nothing else."""
    assert all(parse_card(text) == card for text, card in cards.CARD_OF_TEXT.items())
    # 2-9: either case of suit (8 ranks x 4 suits x 2); A, T, J, Q, K: either case of each letter
    # (5 x 4 x 4); "10" for T with either case of suit (4 x 2)
    assert len(cards.CARD_OF_TEXT) == 64 + 80 + 8
    assert parse_card(" ks ") == cards.CARD_OF_TEXT["KS"] and " ks " not in cards.CARD_OF_TEXT


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
    from tables.games.blackjack import ante_up_21 as au

    values = sorted(au._POKER_TEXT)
    stake = Decimal("10.00")
    for p in values:
        for d in values:
            for natural in (False, True):
                ante, bet = au._settle_poker(1, stake, stake, p, d, natural, {})
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


def test_a_card_past_the_shoes_copies_is_named_where_it_was_counted():
    """A one-deck shoe holds one Ace of spades: the round's count goes dealer first, then the
    seats and their hands in the order recorded, and the first copy too many is named, with the
    round's total. The hand is still read, so its own errors are named beside it."""
    module, rules = _setup("blackjack_tie", "s17_6to5_1deck")
    data = round_(
        "AS 8H",
        seat(1, {"21": "10"}, ("KS 9H", "stand")),
        seat(2, {"21": "10"}, ("QS 5D AS", "hit")),
        seat(3, {"21": "10"}, ("AS 2C 3D 4H", "hit")),
    )
    assert _check_same(module, data, rules) == "invalid"
    assert _outcome(module, data, rules, None)[1] == {
        "seats[1].hands[0].cards[2]": ["AS appears 3 times in the round; a 1-deck shoe holds 1"],
        "seats[2].hands[0].cards[3]": ["card with no hit or double for it in actions"],
    }


def test_a_seat_of_more_hands_than_a_bit_can_count_still_refuses_a_pay_twice():
    """Recorded pays are told apart by bits of a 64-bit int; hands past them are kept in a set.
    One seat split to 72 hands (ten-values of every rank from a six-deck shoe, each hand
    standing on a second card from 2 to 9), hand 70's 21 bet recorded twice."""
    module, rules = _setup("blackjack_tie", "default")
    tens = [f"{r}{s}" for r in "TJQK" for s in "SHDC"] * rules.decks
    smalls = [f"{r}{s}" for r in "23456789" for s in "SHDC"] * rules.decks
    hands = [{"cards": [tens[0], smalls[0]], "actions": ["split"] * 71 + ["stand"]}]
    hands += [{"cards": [tens[k], smalls[k]], "actions": ["stand"]} for k in range(1, 72)]
    pays = [{"wager": "21", "hand": h, "net": "-10.00"} for h in (70, 71, 70)]
    data = {"dealer": {"cards": ["9C", "TC"]}, "seats": [{"seat": 1, "wagers": {"21": "10"}, "hands": hands, "paid": pays}]}
    assert _check_same(module, data, rules) == "invalid"
    assert _outcome(module, data, rules, None)[1] == {"seats[0].paid[2]": ["21 is recorded twice"]}
    data["seats"][0]["paid"] = pays[:2]
    assert _check_same(module, data, rules) == "ok"


def test_a_recorded_pay_with_an_unknown_field_instead_of_its_wager_names_both():
    module, rules = _setup("blackjack_tie", "default")
    data = round_("TS 8H", seat(1, {"21": "10"}, ("KS 9H", "stand"), paid=[{"wagr": "21", "net": "10"}]))
    assert _check_same(module, data, rules) == "invalid"
    assert _outcome(module, data, rules, None)[1] == {
        "seats[0].paid[0].wagr": ["unknown field; expected one of hand, net, wager"],
        "seats[0].paid[0].wager": ["unknown wager; expected one of 21, insurance, tie_17, tie_18, tie_19, tie_20, "
                                   "tie_21, tie_LS, tie_RS, tie_blackjack"],
    }


def test_a_game_settles_its_side_wagers_through_one_hook():
    """settle or audit_seat, one of them: a second way to settle would go unused by the audit."""
    spec = GAMES["blackjack_tie"].module.SPEC
    with pytest.raises(TypeError):
        bj.GameSpec(key="x", wagers=(), rule_findings=spec.rule_findings, side_live=spec.side_live)
    with pytest.raises(TypeError):
        bj.GameSpec(key="x", wagers=(), rule_findings=spec.rule_findings, side_live=spec.side_live,
                    settle=spec.settle, audit_seat=GAMES["ante_up_21"].module.SPEC.audit_seat)
