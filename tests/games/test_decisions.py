"""The price of a round's recorded decisions (tables/games/blackjack/decisions.py).

On the 21 bet's anchor shoe (6 decks, S17): its worker computes that shoe's table once for the
calculator's figure and these tests read it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games import GAMES
from tables.games.blackjack import strategy_math as sm
from tables.games.blackjack.dealer_odds import ACE_INDEX, TEN_INDEX
from tables.games.blackjack.decisions import round_prices
from tables.games.vocabulary.cards import parse_card
from tests.examples import examples

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("strategy-6d-s17")]

S17_6D = sm.Rules(decks=6, h17=False)
GAME = GAMES["upcard_luck_21"]
RULES = GAME.rules_from_dict({"decks": 6, "dealer_hits_soft_17": False})
RANK_CARD = ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS")


def _round(dealer: list[str], hands: list[dict], wagers: dict | None = None, **seat_keys) -> object:
    seat = {"seat": 1, "wagers": wagers or {"21": "10.00"}, "hands": hands, "paid": [], **seat_keys}
    return GAME.module.parse_round({"dealer": {"cards": dealer}, "seats": [seat]}, RULES)


def test_the_rules_of_the_table_are_the_anchor_shoes():
    assert sm.Rules.of(RULES) == S17_6D


def test_the_best_first_decisions_average_back_to_the_edge_for_each_upcard():
    """Each starting hand's best value (given no natural where peeked, as the player decides)
    weighted by its chance and the peek, summed over the hands: the upcard's part of the edge."""
    edge = sm.twenty_one_edge(S17_6D)
    full = sm.shoe_composition(6)
    for up in (ACE_INDEX, 5, TEN_INDEX):
        shoe = list(full)
        shoe[up] -= 1
        n = sum(shoe)
        t = sm.upcard_table(S17_6D, up)
        total = 0.0
        for c1 in range(10):
            for c2 in range(c1, 10):
                ways = shoe[c1] * (shoe[c2] - (c1 == c2)) * (1 if c1 == c2 else 2)
                cards = [parse_card(RANK_CARD[c1]), parse_card(RANK_CARD[c2].replace("S", "H"))]
                values = sm.decision_evs(S17_6D, cards, parse_card(RANK_CARD[up].replace("S", "D")))
                values.pop("insurance", None)
                values.pop("even_money", None)
                removed = [0] * 10
                removed[c1] += 1
                removed[c2] += 1
                natural = {c1, c2} == {ACE_INDEX, TEN_INDEX}
                best = max(values.values())
                value = best if natural else best * t.weight(tuple(removed)) - (t.p_natural(tuple(removed)) if t.peeked else 0)
                total += ways / (n * (n - 1)) * value
        assert total == pytest.approx(edge.by_upcard["A23456789T"[up]], abs=1e-12), up


@settings(max_examples=examples(25, 6), deadline=None)
@given(st.lists(st.integers(1, 9), min_size=2, max_size=4), st.integers(0, 9))
def test_the_shared_table_gives_what_a_fresh_shoe_gives(ranks, up):
    """``decision_evs`` reads the ruleset's table with the hand taken out of its shoe; the same
    values from a table made for the shoe less the hand (the independent bookkeeping)."""
    ranks = [r % 10 for r in ranks]
    if sum(min(r + 1, 10) for r in ranks) > 21:
        ranks = ranks[:2]
    cards = [parse_card(RANK_CARD[r].replace("S", s)) for r, s in zip(ranks, "SHDC", strict=False)]
    upcard = parse_card(RANK_CARD[up].replace("S", "D"))
    shared = sm.decision_evs(S17_6D, cards, upcard)
    fresh = sm.action_values(S17_6D, sm.shoe_composition(6, [*cards, upcard]), ranks, up)
    assert shared.keys() == fresh.keys()
    for action, value in fresh.items():
        assert shared[action] == pytest.approx(value, abs=1e-12), action


def test_sixteen_stood_against_a_ten_costs_what_hitting_is_worth_more():
    priced = round_prices(_round(["TD", "7C"], [{"cards": ["TS", "6H"], "actions": ["stand"]}]), RULES)
    (decision,) = priced.decisions
    values = sm.decision_evs(S17_6D, [parse_card("TS"), parse_card("6H")], parse_card("TD"))
    assert decision.action == "stand" and decision.best == "hit" and decision.values.keys() == {"stand", "hit",
                                                                                                    "double"}
    assert decision.cost == pytest.approx(values["hit"] - values["stand"], abs=1e-15) and decision.cost > 0
    assert priced.cost == (Decimal("10.00") * Decimal(repr(decision.cost))).quantize(Decimal("0.0001"))


def test_the_best_play_costs_nothing_and_each_hit_is_a_decision():
    # 5+6 against a 6: double is best; 2+3 then hits to 13 and stands against a 6.
    doubled = round_prices(_round(["6D", "TC", "9C"], [{"cards": ["5S", "6H", "9D"], "actions": ["double"]}]),
                           RULES)
    assert [(d.action, d.best, d.cost) for d in doubled.decisions] == [("double", "double", 0.0)]
    hits = round_prices(_round(["6D", "TC", "9C"], [{"cards": ["2S", "3H", "8D"], "actions": ["hit", "stand"]}]),
                        RULES)
    assert [(d.cards, d.action, d.best) for d in hits.decisions] == [
        ((parse_card("2S"), parse_card("3H")), "hit", "hit"),
        ((parse_card("2S"), parse_card("3H"), parse_card("8D")), "stand", "stand")]
    assert hits.cost == 0


def test_a_split_and_its_hands_are_priced_and_a_resplit_is_named_unpriced():
    hands = [{"cards": ["8S", "9C"], "actions": ["split", "split", "stand"]},
             {"cards": ["8H", "TC"], "actions": ["stand"]},
             {"cards": ["8D", "3D", "TS"], "actions": ["double"]}]
    priced = round_prices(_round(["TD", "7C"], hands), RULES)
    assert [(d.hand, d.action) for d in priced.decisions] == [(0, "split"), (0, "stand"), (1, "stand"),
                                                              (2, "double")]
    assert priced.decisions[0].best == "split" and priced.decisions[0].cost == 0
    assert [(u[1], u[2]) for u in priced.unpriced] == [(0, "split")]


def test_insurance_costs_its_edge_from_the_shoe_less_the_known_cards_and_even_money_is_a_choice():
    taken = round_prices(_round(["AD", "7C"], [{"cards": ["TS", "9H"], "actions": ["stand"]}],
                                {"21": "10.00", "insurance": "5.00"}), RULES)
    insurance = taken.decisions[0]
    assert insurance.action == "insurance" and insurance.best == "decline"
    # 6 decks less the Ace up, the ten and the nine: 95 tens in 309 cards.
    assert insurance.cost == pytest.approx(1 - 3 * 95 / 309, abs=1e-15)
    assert insurance.cost_money == (Decimal("5.00") * Decimal(repr(insurance.cost))).quantize(Decimal("0.0001"))
    # A natural against an Ace: standing (3:2 unless the dealer has one too) is worth more than
    # even money, which is insurance by another name.
    declined = round_prices(_round(["AD", "7C"], [{"cards": ["AS", "KH"], "actions": []}]), RULES)
    (decision,) = declined.decisions
    assert (decision.action, decision.best, decision.cost) == ("stand", "stand", 0.0)
    assert decision.values["even_money"] == 1.0
    assert decision.values["stand"] == pytest.approx(1.5 * (1 - 95 / 309), abs=1e-15)  # 95 tens left in 309
    took = round_prices(_round(["AD", "7C"], [{"cards": ["AS", "KH"], "actions": []}], even_money=True), RULES)
    (decision,) = took.decisions
    assert (decision.action, decision.best) == ("even_money", "stand")
    assert decision.cost == pytest.approx(1.5 * (1 - 95 / 309) - 1, abs=1e-15)


@pytest.mark.parametrize("evicted", [False, True], ids=["kept", "upcard_table-cache-emptied"])
def test_a_warmed_process_prices_every_first_decision_without_filling_a_table(evicted):
    """``warm`` (what a worker's main process runs before it forks its pool) leaves nothing of a
    first decision to compute: pricing a stand on every two-card hand against every upcard, in
    either order of its cards as a round records them, then reads the tables only; also when
    ``upcard_table``'s cache dropped them meanwhile (a floor of more rulesets than it keeps): the
    ruleset keeps the tables it warmed."""
    from tables.games.blackjack import decisions
    from tables.games.blackjack.strategy_math import upcard_table
    from tables.games.decision_prices import WARM

    # A ruleset object of its own: nothing of an earlier test's pricing is kept with it.
    rules = GAME.rules_from_dict({"decks": 6, "dealer_hits_soft_17": False})
    assert WARM["upcard_luck_21"](rules, "upcard_luck_21") == 13 * 91
    if evicted:
        upcard_table.cache_clear()
    misses = decisions._hand_values.cache_info().misses
    ranks = "A23456789TJQK"
    priced = 0
    for up in ranks:
        for i, a in enumerate(ranks):
            for b in ranks[i:]:
                if {a, b} & {"A"} and {a, b} & set("TJQK"):
                    continue  # a natural: no decision of the hand
                for cards in ([f"{a}S", f"{b}C"], [f"{b}C", f"{a}S"]):
                    got = round_prices(_round([f"{up}D", "5H"], [{"cards": cards, "actions": ["stand"]}]), rules)
                    priced += len(got.decisions)
    assert priced >= 2 * 13 * 87
    assert decisions._hand_values.cache_info().misses == misses
