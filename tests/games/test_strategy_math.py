"""The 21 bet under optimal composition-dependent play: published figures and a brute force.

The house-edge anchors are Wizard of Odds' house edge calculator (CD play) and its
"Blackjack Appendix 9" tables, which compute splits the way this engine does (each split hand
knows how many pair cards the splits took out, not the other hands' draws). The per-hand
values of Appendix 9 involve no split, so they must agree to the published six decimals.
The brute force below is written independently of the engine: it conditions on the peek by
Bayes over the hole card (the engine carries P(no natural) as a weight instead) and walks
the dealer's card sequences one by one, in exact fractions.
"""

from __future__ import annotations

import io
import json
from fractions import Fraction
from functools import cache

import pytest
from django.core.management import call_command
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tables.games.blackjack import strategy_math as sm
from tables.games.settings.rulesets import UpcardLuck21Rules
from tables.games.vocabulary.cards import parse_card
from tests.examples import examples


def edge_points(rules: sm.Rules) -> float:
    """The 21 bet's house edge in percent (0.4031 means 0.4031%)."""
    return sm.twenty_one_edge(rules).house_edge * 100


S17_6D = sm.Rules(decks=6, h17=False)

# --- published house edges -----------------------------------------------------------------

# Wizard of Odds' house edge calculator, optimal CD play, peek, 3:2, split to 4, no resplit Aces.
# Each shoe's tests share one worker (``--dist loadgroup``): the dealer's odds are computed
# once per shoe and shared by every ruleset on it.
SIX_DECKS = pytest.mark.xdist_group("strategy-6d-s17")
TWO_DECKS = pytest.mark.xdist_group("strategy-2d-h17")
ONE_DECK = pytest.mark.xdist_group("strategy-1d-h17")

CALCULATOR = [
    pytest.param(S17_6D, 0.4031, id="6d-s17-das", marks=SIX_DECKS),
    pytest.param(sm.Rules(decks=2, h17=True), 0.3799, id="2d-h17-das", marks=TWO_DECKS),
    pytest.param(sm.Rules(decks=1, h17=True, das=False), 0.1518, id="1d-h17-nodas", marks=ONE_DECK),
    pytest.param(sm.Rules(decks=6, h17=False, peek=False), 0.5142, id="6d-s17-das-no-peek", marks=SIX_DECKS),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "published"), CALCULATOR)
def test_house_edge_matches_the_calculator(rules, published):
    assert edge_points(rules) == pytest.approx(published, abs=0.005)


@pytest.mark.slow
@SIX_DECKS
def test_six_to_five_costs_what_the_calculator_says():
    cost = edge_points(sm.Rules(decks=6, h17=False, natural_pays=Fraction(6, 5))) - edge_points(S17_6D)
    assert cost == pytest.approx(1.3597, abs=0.005)


# Appendix 9 (same split method): the game's expected return, DAS and no DAS columns.
@pytest.mark.slow
@pytest.mark.parametrize(("rules", "published"), [
    pytest.param(sm.Rules(decks=1, h17=True, das=False), 0.1513, id="1d-h17-nodas", marks=ONE_DECK),
    pytest.param(sm.Rules(decks=2, h17=True), 0.3797, id="2d-h17-das", marks=TWO_DECKS),
])
def test_house_edge_matches_appendix_9(rules, published):
    # Appendix 9 prints six decimals of the return: 0.0001 of a percentage point.
    assert edge_points(rules) == pytest.approx(published, abs=0.0005)


@pytest.mark.slow
@SIX_DECKS
def test_variance_is_the_usual_blackjack_figure():
    result = sm.twenty_one_edge(S17_6D)
    # Published figures for six decks are 1.32 to 1.33 (Griffin; Wizard of Odds' "1.3").
    assert 1.30 < result.variance < 1.36
    weights = {"T": Fraction(4, 13)}
    overall = sum(float(weights.get(up, Fraction(1, 13))) * ev for up, ev in result.by_upcard.items())
    assert overall == pytest.approx(-result.house_edge, abs=1e-12)


# --- Appendix 9's per-hand values (no split involved: exact to the printed digits) ----------

APPENDIX_9 = [
    # rules, hand, stand, hit, double (Ace up)
    (sm.Rules(decks=1, h17=False), "2S AS", -0.661732, -0.067808, -0.593281),
    (sm.Rules(decks=1, h17=False), "6S 4S", -0.636118, 0.081506, 0.048615),
    (sm.Rules(decks=1, h17=False), "7S AS", -0.101015, -0.108386, -0.357778),
    (sm.Rules(decks=6, h17=True, peek=False), "2S AS", -0.722356, -0.379910, -1.024099),
    (sm.Rules(decks=6, h17=True, peek=False), "6S 5S", -0.720879, -0.235772, -0.535879),
    (sm.Rules(decks=6, h17=True, peek=False), "5S 3S", -0.721499, -0.493960, -1.193807),
]


@pytest.mark.parametrize(("rules", "hand", "stand", "hit", "double"), APPENDIX_9)
def test_hand_values_match_appendix_9(rules, hand, stand, hit, double):
    evs = sm.decision_evs(rules, [parse_card(c) for c in hand.split()], parse_card("AH"))
    assert evs["stand"] == pytest.approx(stand, abs=1e-6)
    assert evs["hit"] == pytest.approx(hit, abs=1e-6)
    assert evs["double"] == pytest.approx(double, abs=1e-6)


def test_composition_matters():
    """16 of three cards against a ten stands; 10 + 6 hits (the best-known CD exception)."""
    rules = sm.Rules(decks=1)
    three = sm.decision_evs(rules, [parse_card(c) for c in ("7S", "5H", "4C")], parse_card("TD"))
    two = sm.decision_evs(rules, [parse_card(c) for c in ("TS", "6H")], parse_card("TD"))
    assert sm.best_action(three) == "stand"
    assert sm.best_action(two) == "hit"


# --- insurance ---------------------------------------------------------------------------------


@pytest.mark.parametrize("decks", range(1, 9))
def test_insurance_edge_formula(decks):
    assert sm.insurance_edge(decks) == 1 - 3 * Fraction(16 * decks, 52 * decks - 1)


def test_insurance_six_decks_and_known_cards():
    assert float(sm.insurance_edge(6)) == pytest.approx(0.073955, abs=5e-7)
    # Two tens in the player's hand make insurance worse.
    assert sm.insurance_edge(1, [parse_card("TS"), parse_card("KH")]) == 1 - 3 * Fraction(14, 49)


def test_even_money_and_insurance_actions():
    rules = sm.Rules(decks=6)
    evs = sm.decision_evs(rules, [parse_card("AS"), parse_card("KH")], parse_card("AD"))
    p_ten = Fraction(95, 309)  # hole card: 95 ten-values among 309 unseen cards
    assert evs["even_money"] == 1
    assert evs["stand"] == pytest.approx(float(Fraction(3, 2) * (1 - p_ten)), abs=1e-12)
    assert evs["insurance"] == pytest.approx(float((3 * p_ten - 1) / 2), abs=1e-12)
    assert sm.best_action(evs) == "stand"


# --- the brute force ---------------------------------------------------------------------------

PTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


def _minus(comp: tuple, r: int) -> tuple:
    return comp[:r] + (comp[r] - 1,) + comp[r + 1 :]


def brute_force(h17: bool, peek: bool, shoe: tuple, ranks: tuple, up: int) -> dict[str, Fraction]:
    """Stand, hit (then the better of stand and hit) and double, exactly, given no dealer
    natural where he peeked, by Bayes over the hole card."""
    natural_card = 9 if up == 0 else 0 if up == 9 else None
    peeked = peek and natural_card is not None

    @cache
    def dealer(comp: tuple, hard: int, ace: bool, cards: int) -> dict:
        if hard > 21:
            return {"bust": Fraction(1)}
        best = hard + 10 if ace and hard <= 11 else hard
        soft = ace and hard <= 11
        if best > 17 or (best == 17 and not (soft and h17)):
            return {"natural" if cards == 2 and best == 21 else best: Fraction(1)}
        out: dict = {}
        n = sum(comp)
        for r, c in enumerate(comp):
            if c:
                for k, p in dealer(_minus(comp, r), hard + PTS[r], ace or r == 0, cards + 1).items():
                    out[k] = out.get(k, 0) + Fraction(c, n) * p
        return out

    def hole(comp: tuple) -> dict[int, Fraction]:
        ways = {h: c for h, c in enumerate(comp) if c and not (peeked and h == natural_card)}
        total = sum(ways.values())
        return {h: Fraction(c, total) for h, c in ways.items()}

    @cache
    def stand(comp: tuple, total: int) -> Fraction:
        ev = Fraction(0)
        for h, ph in hole(comp).items():
            for k, p in dealer(_minus(comp, h), PTS[up] + PTS[h], up == 0 or h == 0, 2).items():
                net = 1 if k == "bust" else -1 if k == "natural" else (total > k) - (total < k)
                ev += ph * p * net
        return ev

    def draws(comp: tuple) -> dict[int, Fraction]:
        n = sum(comp)
        out: dict[int, Fraction] = {}
        for h, ph in hole(comp).items():
            for c, k in enumerate(comp):
                left = k - (h == c)
                if left:
                    out[c] = out.get(c, 0) + ph * Fraction(left, n - 1)
        return out

    def best_total(hard: int, ace: bool) -> int:
        return hard + 10 if ace and hard <= 11 else hard

    @cache
    def play(comp: tuple, hard: int, ace: bool) -> Fraction:
        s = stand(comp, best_total(hard, ace))
        return s if best_total(hard, ace) == 21 else max(s, hit(comp, hard, ace))

    @cache
    def hit(comp: tuple, hard: int, ace: bool) -> Fraction:
        ev = Fraction(0)
        for c, p in draws(comp).items():
            h = hard + PTS[c]
            ev += p * (-1 if h > 21 else play(_minus(comp, c), h, ace or c == 0))
        return ev

    def double(comp: tuple, hard: int, ace: bool) -> Fraction:
        ev = Fraction(0)
        for c, p in draws(comp).items():
            h = hard + PTS[c]
            ev += p * (-1 if h > 21 else stand(_minus(comp, c), best_total(h, ace or c == 0)))
        return 2 * ev

    hard = sum(PTS[r] for r in ranks)
    ace = 0 in ranks
    out = {"stand": stand(shoe, best_total(hard, ace))}
    if best_total(hard, ace) < 21:
        out["hit"] = hit(shoe, hard, ace)
    if len(ranks) == 2:
        out["double"] = double(shoe, hard, ace)
    return out


@st.composite
def small_deals(draw):
    """A shoe of 12 to 16 cards (after the hand and upcard are out) that can never run dry:
    with 60 points or more the player (at most 30 points drawn) leaves the dealer enough."""
    shoe = tuple(draw(st.integers(0, 2)) for _ in range(9)) + (draw(st.integers(3, 6)),)
    n = sum(shoe)
    assume(12 <= n <= 16 and sum(c * p for c, p in zip(shoe, PTS, strict=True)) >= 60)
    ranks = tuple(draw(st.lists(st.integers(0, 9), min_size=2, max_size=3)))
    assume(sum(PTS[r] for r in ranks) <= 20 and sorted(ranks[:2]) != [0, 9])
    up = draw(st.integers(0, 9))
    peeked = up in (0, 9)
    # A peeked shoe must hold a card that is not the natural's.
    assume(not peeked or sum(shoe) > shoe[9 if up == 0 else 0])
    return shoe, ranks, up


@settings(max_examples=examples(60, 12), deadline=None)
@given(deal=small_deals(), h17=st.booleans(), peek=st.booleans())
def test_stand_hit_double_match_the_brute_force(deal, h17, peek):
    shoe, ranks, up = deal
    rules = sm.Rules(decks=1, h17=h17, peek=peek)
    ours = sm.action_values(rules, shoe, ranks, up)
    exact = brute_force(h17, peek, shoe, ranks, up)
    for action, value in exact.items():
        assert ours[action] == pytest.approx(float(value), abs=1e-9), action
    plays = {a: v for a, v in ours.items() if a != "insurance"}
    assert plays[sm.best_action(ours)] >= max(plays.values())
    assert set(plays) >= set(exact)


@settings(max_examples=examples(40, 10), deadline=None)
@given(c1=st.integers(0, 9), c2=st.integers(0, 9), up=st.integers(0, 9), decks=st.sampled_from([1, 2, 6]))
def test_best_is_at_least_every_legal_action(c1, c2, up, decks):
    assume(sorted((c1, c2)) != [0, 9])
    shoe = [4 * decks] * 9 + [16 * decks]
    for r in (c1, c2, up):
        shoe[r] -= 1
    evs = sm.action_values(sm.Rules(decks=decks), shoe, (c1, c2), up)
    best = sm.best_action(evs)
    assert all(evs[best] >= v for a, v in evs.items() if a != "insurance")
    assert ("split" in evs) == (c1 == c2)
    assert "double" in evs and "stand" in evs


def test_split_counts_without_resplit():
    """No resplit: two hands, each with the pair's rank as second card with probability p."""
    n_x, n_y, pairs = sm._split_counts(22, 310, 2)
    p = Fraction(22, 310)
    assert sum(n_x.values()) == pytest.approx(float(2 * (1 - p)))
    assert sum(n_y.values()) == pytest.approx(float(2 * p))
    assert pairs == pytest.approx(2.0)


def test_split_counts_with_nothing_to_resplit():
    n_x, n_y, pairs = sm._split_counts(0, 50, 4)
    assert n_x == {0: 2.0} and n_y == {} and pairs == 2.0


def test_split_counts_resplit_to_four():
    """The counts against a recursion over the order in which the split hands take cards."""

    @cache
    def expected(hands: int, waiting: int, k: int, m: int, pairs_left: int, cards: int) -> tuple:
        if waiting == 0:
            return (Fraction(0), Fraction(0), Fraction(hands * (hands - 1)))
        p = Fraction(pairs_left - k, cards - k - m)
        x, y, pp = expected(hands, waiting - 1, k, m + 1, pairs_left, cards)
        out = [(1 - p) * (x + 1), (1 - p) * y, (1 - p) * pp]
        if p:
            if hands < 4:
                x, y, pp = expected(hands + 1, waiting + 1, k + 1, m, pairs_left, cards)
                out = [out[0] + p * x, out[1] + p * y, out[2] + p * pp]
            else:
                x, y, pp = expected(hands, waiting - 1, k + 1, m, pairs_left, cards)
                out = [out[0] + p * x, out[1] + p * (y + 1), out[2] + p * pp]
        return tuple(out)

    n_x, n_y, pairs = sm._split_counts(22, 310, 4)
    x, y, pp = expected(2, 2, 0, 0, 22, 310)
    assert sum(n_x.values()) == pytest.approx(float(x), abs=1e-12)
    assert sum(n_y.values()) == pytest.approx(float(y), abs=1e-12)
    assert pairs == pytest.approx(float(pp), abs=1e-12)
    assert 2 < x + y < 4


# --- the command -------------------------------------------------------------------------------


def gamemath(*args: str) -> dict:
    out = io.StringIO()
    call_command("gamemath", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_decision_command():
    result = gamemath("decision", "--game", "ante_up_21", "--rules", '{"decks": 1}',
                      "--hand", "7S,5H,4C", "--upcard", "TD")
    assert set(result["actions"]) == {"stand", "hit"}
    assert result["best"] == "stand"
    pair = gamemath("decision", "--game", "blackjack_tie", "--hand", "8S,8H", "--upcard", "AD")
    assert set(pair["actions"]) == {"stand", "hit", "double", "split", "insurance"}
    assert pair["best"] == "split"


def test_decision_command_refuses_a_bad_card():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="XH"):
        gamemath("decision", "--game", "upcard_luck_21", "--hand", "AS,XH", "--upcard", "AD")


@pytest.mark.slow
@SIX_DECKS
def test_edge_command_lists_the_exact_wagers():
    result = gamemath("edge", "--game", "upcard_luck_21", "--rules", '{"dealer_hits_soft_17": false}')
    assert result["game"] == "upcard_luck_21"
    wagers = result["wagers"]
    assert set(wagers) == {"21", "insurance", "upcard_luck", "taxpayers_fortune"}
    assert wagers["21"]["house_edge"] * 100 == pytest.approx(0.4031, abs=0.005)
    assert wagers["insurance"]["house_edge"] == pytest.approx(float(sm.insurance_edge(6)))
    assert all(w["method"] == "exact" for w in wagers.values())
    same = sm.edge_wagers(UpcardLuck21Rules(dealer_hits_soft_17=False))
    assert same["upcard_luck"]["exact"] == wagers["upcard_luck"]["exact"]
