"""Exact game math: published figures, hand-worked examples and brute-force cross-checks.

The brute-force references here are written independently of the engine (card triples
enumerated one by one, a memoised backward recursion for the dealer) so that a shared
mistake is unlikely.
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games.blackjack import game_math as bm
from tables.games.blackjack.dealer_odds import (
    DealerFinal,
    dealer_final,
    dealer_outcomes,
    dealer_overall,
    shoe_composition,
)
from tables.games.settings import paytables as pt
from tables.games.settings.rulesets import AnteUp21Rules, UpcardLuck21Rules
from tables.games.vocabulary.base import InvalidInput
from tables.games.vocabulary.cards import parse_card


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


# --- independent references --------------------------------------------------------------


@cache
def _ref_dealer(comp: tuple[int, ...], hard: int, ace: bool, n: int, h17: bool) -> dict:
    """Backward recursion: the dealer holding ``hard`` (Ace as 1) with ``n`` cards."""
    soft = ace and hard <= 11
    best = hard + 10 if soft else hard
    if hard > 21:
        return {("bust", n): Fraction(1)}
    if best >= 18 or (best == 17 and not (soft and h17)):
        return {("blackjack" if n == 2 and best == 21 else str(best), n): Fraction(1)}
    total = sum(comp)
    out: dict = {}
    for r, c in enumerate(comp):
        if c == 0:
            continue
        sub = comp[:r] + (c - 1,) + comp[r + 1 :]
        for k, p in _ref_dealer(sub, hard + r + 1, ace or r == 0, n + 1, h17).items():
            out[k] = out.get(k, Fraction(0)) + Fraction(c, total) * p
    return out


def ref_dealer(comp, known, h17):
    return _ref_dealer(tuple(comp), sum(r + 1 for r in known), 0 in known, len(known), h17)


def ref_points(card: int) -> int:
    return min(card // 4 + 1, 10)


def ref_upcard_luck(a: int, b: int, table: dict) -> str | None:
    """The card's categories, written from the card's text, first one on the table."""
    ra, rb, sa, sb = a // 4 + 1, b // 4 + 1, a % 4, b % 4
    total = ref_points(a) + ref_points(b)
    aces = (ra == 1) + (rb == 1)
    two_card = total + 10 if aces and total <= 11 else total
    made = []
    if sorted((a, b)) == [0, 40]:  # AS = 0, JS = 40
        made.append("ace_jack_spades")
    if sa == sb and sorted((ra, rb)) == [3, 8]:
        made.append("suited_3_8")
    if sa == sb and not aces and total == 11 and sorted((ra, rb)) != [3, 8]:
        made.append("suited_11")
    if aces == 1 and total == 11:
        made.append("blackjack")
    if not aces and total in (9, 10, 11):
        made.append("nine_ten_eleven")
    if two_card in (18, 19, 20):
        made.append("eighteen_to_twenty")
    return next((m for m in made if m in table), None)


def brute_force_upcard_luck(decks: int, table: dict) -> Fraction:
    """House edge by enumerating every card triple of the shoe (player, player, upcard)."""
    shoe = [c for c in range(52) for _ in range(decks)]
    n = len(shoe)
    ret = Fraction(0)
    for i in range(n):
        for j in range(n):
            if j == i:
                continue
            cat = ref_upcard_luck(shoe[i], shoe[j], table)
            lows = sum(1 for k in range(n) if k not in (i, j) and 2 <= shoe[k] // 4 + 1 <= 7)
            if cat is None:
                ret -= n - 2
            else:
                ret += lows * table[cat] - (n - 2 - lows)
    return -ret / (n * (n - 1) * (n - 2))


# --- the dealer --------------------------------------------------------------------------


def test_wizard_dealer_bust_figures_six_decks_h17():
    """28.5760% and 0.173032/0.089392/0.020473/0.002638/0.000214/0.000012 by cards."""
    overall = dealer_overall(6, h17=True)
    assert round(float(overall.outcomes()["bust"]) * 100, 4) == 28.5760
    by_cards = overall.bust_by_cards()
    published = {3: 0.173032, 4: 0.089392, 5: 0.020473, 6: 0.002638, 7: 0.000214}
    for n, figure in published.items():
        assert round(float(by_cards[n]), 6) == figure, n
    assert round(float(overall.bust_with_at_least(8)), 6) == 0.000012
    assert 2 not in by_cards


def test_conditioning_on_no_natural_is_not_the_published_reading():
    overall = dealer_overall(6, h17=True)
    assert round(float(overall.given_no_blackjack().outcomes()["bust"]) * 100, 4) == 30.0007


def test_hand_worked_tiny_shoe_h17_and_s17():
    # Dealer shows a 6; the shoe holds one ten-value, one 5 and one Ace.
    comp = (1, 0, 0, 0, 1, 0, 0, 0, 0, 1)
    h17 = dealer_final(comp, (5,), h17=True)
    # T then 5 = 21; T then A = hard 17; 5 then T = 21; 5, A = 12 then T = bust (4 cards);
    # A = soft 17, hits: T = hard 17; 5 = 12 then T = bust (4 cards).
    third = Fraction(1, 3)
    assert h17.outcomes() == {
        "17": third,
        "18": 0,
        "19": 0,
        "20": 0,
        "21": third,
        "blackjack": 0,
        "bust": third,
    }
    assert h17.bust_by_cards() == {4: third}
    s17 = dealer_final(comp, (5,), h17=False)
    assert s17.outcomes()["17"] == Fraction(1, 2)
    assert s17.outcomes()["21"] == third
    assert s17.outcomes()["bust"] == Fraction(1, 6)


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_naturals_by_upcard(decks):
    by_up = dealer_outcomes(decks)
    n = 52 * decks - 1
    assert by_up["A"].outcomes()["blackjack"] == Fraction(16 * decks, n)
    assert by_up["T"].outcomes()["blackjack"] == Fraction(4 * decks, n)
    for label in "23456789":
        assert by_up[label].outcomes()["blackjack"] == 0
        assert sum(by_up[label].outcomes().values()) == 1


def test_one_deck_upcards_match_the_backward_recursion():
    for label, final in dealer_outcomes(1, h17=True).items():
        r = "A23456789T".index(label)
        comp = list(shoe_composition(1))
        comp[r] -= 1
        assert dict(final.by_outcome_and_cards) == ref_dealer(comp, (r,), True), label


@settings(max_examples=60, deadline=None)
@given(
    comp=st.lists(st.integers(0, 3), min_size=10, max_size=10),
    known=st.lists(st.integers(0, 9), min_size=0, max_size=2),
    h17=st.booleans(),
)
def test_any_composition_matches_the_backward_recursion(comp, known, h17):
    if sum(comp) == 0:
        comp[9] = 1
    got = dict(dealer_final(comp, known, h17=h17).by_outcome_and_cards)
    # Where the tiny shoe runs dry both leave that share of the probability out.
    assert got == ref_dealer(comp, tuple(known), h17)


@settings(max_examples=8, deadline=None)
@given(decks=st.integers(1, 8), h17=st.booleans())
def test_the_whole_hand_is_the_mix_of_the_upcards(decks, h17):
    by_up = dealer_outcomes(decks, h17=h17)
    counts = shoe_composition(decks)
    mixed = DealerFinal.mix(
        (Fraction(counts["A23456789T".index(label)], 52 * decks), f) for label, f in by_up.items()
    )
    assert dict(mixed.by_outcome_and_cards) == dict(
        dealer_overall(decks, h17=h17).by_outcome_and_cards
    )
    assert sum(mixed.outcomes().values()) == 1


def test_h17_busts_more_than_s17():
    assert (
        dealer_overall(6, h17=True).outcomes()["bust"]
        > dealer_overall(6, h17=False).outcomes()["bust"]
    )


def test_removed_cards_are_checked():
    with pytest.raises(ValueError, match="removed 2 times"):
        shoe_composition(1, cards("AS AS"))
    assert shoe_composition(2, cards("AS AS TD"))[0] == 6
    with pytest.raises(ValueError, match="decks"):
        shoe_composition(0)


def test_after_peek_has_no_naturals_and_sums_to_one():
    final = dealer_outcomes(6)["T"].given_no_blackjack()
    assert final.outcomes()["blackjack"] == 0
    assert sum(final.outcomes().values()) == 1


# --- Upcard Luck -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decks", "edge"), [(1, 12.94), (2, 13.76), (4, 14.16), (6, 14.29), (8, 14.36)]
)
def test_wizard_pay_table_1_house_edge(decks, edge):
    assert round(float(bm.upcard_luck_odds(decks, "WOO1").house_edge) * 100, 2) == edge


def test_wizard_pay_table_1_eight_deck_combinations():
    odds = bm.upcard_luck_odds(8, "WOO1")
    combos = 35_736_480  # unordered player pairs x upcards, as Wizard of Odds counts them
    assert odds.probability("ace_jack_spades") == Fraction(12_288, combos)
    assert odds.probability("blackjack") == Fraction(774_144, combos)
    assert odds.probability("nine_ten_eleven") == Fraction(2_042_912, combos)
    assert odds.probability("eighteen_to_twenty") == Fraction(3_817_472, combos)
    assert odds.probability("lose") == Fraction(29_089_664, combos)
    won = 12_288 * 78 + 774_144 * 7 + (2_042_912 + 3_817_472) * 3
    assert odds.house_edge == Fraction(29_089_664 - won, combos)
    assert round(float(odds.house_edge), 6) == 0.143580


@pytest.mark.parametrize(
    ("hand", "made"),
    [
        ("AS JS", ("ace_jack_spades", "blackjack")),
        ("AS QS", ("blackjack",)),
        ("AH JS", ("blackjack",)),
        ("3H 8H", ("suited_3_8", "nine_ten_eleven")),
        ("8C 3C", ("suited_3_8", "nine_ten_eleven")),
        ("3H 8S", ("nine_ten_eleven",)),
        ("5D 6D", ("suited_11", "nine_ten_eleven")),
        ("2S 9S", ("suited_11", "nine_ten_eleven")),
        ("4C 7C", ("suited_11", "nine_ten_eleven")),
        ("5D 5D", ("nine_ten_eleven",)),
        ("2H 7C", ("nine_ten_eleven",)),
        ("AH 7C", ("eighteen_to_twenty",)),
        ("AH 9H", ("eighteen_to_twenty",)),
        ("9S 9H", ("eighteen_to_twenty",)),
        ("KS QH", ("eighteen_to_twenty",)),
        ("AH 8D", ("eighteen_to_twenty",)),
        ("AH AD", ()),
        ("8S 9S", ()),
        ("2S 6S", ()),
        ("TS 2S", ()),
    ],
)
def test_upcard_luck_categories(hand, made):
    a, b = cards(hand)
    assert bm.upcard_luck_hand_categories(a, b) == made
    assert bm.upcard_luck_hand_categories(b, a) == made


def test_missing_lines_fall_to_the_next_category():
    a, b = cards("3H 8H")
    made = bm.upcard_luck_hand_categories(a, b)
    assert bm.first_on_table(made, pt.UPCARD_LUCK_PAYTABLES["A"]) == "suited_3_8"
    assert bm.first_on_table(made, bm.UPCARD_LUCK_EXTRA_TABLES["WOO1"]) == "nine_ten_eleven"
    assert bm.first_on_table(made, {"blackjack": 5}) is None


@pytest.mark.parametrize("table", ["A", "WOO1"])
def test_one_deck_matches_brute_force_triples(table):
    pays = {**pt.UPCARD_LUCK_PAYTABLES, **bm.UPCARD_LUCK_EXTRA_TABLES}[table]
    assert bm.upcard_luck_odds(1, table).house_edge == brute_force_upcard_luck(1, pays)


def test_table_a_one_deck_hand_worked_top_line():
    # AS-JS in either order (2 of 52*51) with one of the 24 cards 2-7 up (of 50).
    assert bm.upcard_luck_odds(1, "A").probability("ace_jack_spades") == Fraction(
        2 * 24, 52 * 51 * 50
    )


def test_variance_is_second_moment_less_mean_squared():
    odds = bm.upcard_luck_odds(6, "A")
    second = sum(
        odds.probability(cat) * Fraction(pay) ** 2
        for cat, pay in pt.UPCARD_LUCK_PAYTABLES["A"].items()
    ) + odds.probability("lose")
    assert odds.variance == second - odds.house_edge**2
    assert round(float(odds.variance), 6) == 8.742712


@settings(max_examples=25, deadline=None)
@given(
    decks=st.integers(1, 8),
    pays=st.lists(st.integers(0, 200), min_size=6, max_size=6),
)
def test_house_edge_is_linear_in_the_pays(decks, pays):
    table = dict(zip(pt.UPCARD_LUCK_CATEGORIES, pays, strict=True))
    probs = bm.upcard_luck_odds(decks, "A")
    odds = bm.upcard_luck_odds(decks, table)
    assert sum(o.probability for o in odds.outcomes) == 1
    expected = probs.probability("lose") - sum(
        probs.probability(cat) * pay for cat, pay in table.items()
    )
    assert odds.house_edge == expected


def test_bad_pay_table_names_every_wrong_entry():
    with pytest.raises(InvalidInput) as exc:
        bm.upcard_luck_odds(6, {"royal": 5, "blackjack": -1, "nine_ten_eleven": "x"})
    assert set(exc.value.as_dict()) == {
        "paytable.royal",
        "paytable.blackjack",
        "paytable.nine_ten_eleven",
    }


def test_decimal_and_string_pays_are_exact():
    a = bm.upcard_luck_odds(6, {"blackjack": "7.5"})
    b = bm.upcard_luck_odds(6, {"blackjack": Fraction(15, 2)})
    assert a.house_edge == b.house_edge


# --- Taxpayer's Fortune ------------------------------------------------------------------


def brute_force_expected_tax(decks: int) -> Fraction:
    schedule = {**pt.TAX_SCHEDULE}
    n = 52 * decks
    total = Fraction(0)
    for a in range(52):
        for b in range(52):
            ways = decks * (decks - (a == b))
            if not ways:
                continue
            cat = ref_upcard_luck(a, b, pt.UPCARD_LUCK_PAYTABLES["A"])
            if cat is None:
                continue
            if cat == "eighteen_to_twenty":
                two = ref_points(a) + ref_points(b)
                two = two + 10 if 1 in (a // 4 + 1, b // 4 + 1) and two <= 11 else two
                cat = "twenty" if two == 20 else "eighteen_nineteen"
            lows = 24 * decks - sum(1 for c in (a, b) if 2 <= c // 4 + 1 <= 7)
            total += Fraction(ways * lows * schedule[cat], n * (n - 1) * (n - 2))
    return total


def reference_jackpot_lines(decks: int, h17: bool) -> dict[str, Fraction]:
    """P(each line): player blackjack, upcard 2-7, dealer busts with 5+ cards (backward recursion)."""
    n = 52 * decks
    # Ordered Ace + ten-value: suited 4 suits x 4 tens x d*d x 2 orders; unsuited 3x as many.
    p_suited = Fraction(2 * 4 * 4 * decks * decks, n * (n - 1))
    p_unsuited = 3 * p_suited
    comp = [4 * decks] * 9 + [16 * decks]
    comp[0] -= 1
    comp[9] -= 1
    out = dict.fromkeys(pt.JACKPOT_LINES, Fraction(0))
    for up in range(1, 7):
        c = list(comp)
        c[up] -= 1
        p_up = Fraction(4 * decks, n - 2)
        for (outcome, k), p in ref_dealer(c, (up,), h17).items():
            if outcome == "bust" and k >= 5:
                size = "8plus" if k >= 8 else str(k)
                out[f"bust{size}_suited"] += p_suited * p_up * p
                out[f"bust{size}_unsuited"] += p_unsuited * p_up * p
    return out


@pytest.mark.parametrize("decks", [1, 2])
def test_expected_tax_matches_brute_force(decks):
    odds = bm.taxpayers_fortune_odds(decks)
    assert odds.details["expected_tax"] == brute_force_expected_tax(decks)


@pytest.mark.parametrize(("decks", "h17"), [(1, True), (2, True), (1, False)])
def test_jackpot_lines_match_the_backward_recursion(decks, h17):
    odds = bm.taxpayers_fortune_odds(decks, h17=h17)
    want = reference_jackpot_lines(decks, h17)
    assert odds.details["jackpot_lines"] == want
    column = pt.JACKPOT_COLUMNS[decks]
    assert odds.details["expected_jackpot"] == sum(p * column[line] for line, p in want.items())


def test_six_deck_figures():
    odds = bm.taxpayers_fortune_odds(6)
    d = odds.details
    assert d["expected_tax"] == Fraction(140942, 626665)  # 0.2249 dollars per round
    assert round(float(d["expected_jackpot"]), 6) == 0.137446
    assert odds.house_edge == d["expected_tax"] - d["expected_jackpot"]
    assert sum(o.probability for o in odds.outcomes) == 1
    assert all(o.probability > 0 for o in odds.outcomes)


def test_no_tax_no_jackpot():
    schedule = {**pt.TAX_SCHEDULE, "blackjack": 0, "ace_jack_spades": 0}
    odds = bm.taxpayers_fortune_odds(6, tax_schedule=schedule)
    assert odds.details["expected_jackpot"] == 0
    assert sum(odds.details["jackpot_lines"].values()) == 0


def test_variance_with_an_empty_column_is_the_tax_variance():
    column = dict.fromkeys(pt.JACKPOT_LINES, 0)
    odds = bm.taxpayers_fortune_odds(2, jackpot_column=column)
    d = odds.details
    second = sum(p * d["tax_schedule"][c] ** 2 for c, p in d["tax_categories"].items())
    assert odds.variance == second - d["expected_tax"] ** 2


def test_marker_scales_the_edge():
    one = bm.taxpayers_fortune_odds(6)
    five = bm.taxpayers_fortune_odds(6, marker="5.00")
    assert five.house_edge == one.house_edge / 5
    assert five.variance == one.variance / 25


def test_a_shoe_without_a_column_needs_one():
    with pytest.raises(ValueError, match="no jackpot column for a 4-deck shoe"):
        bm.taxpayers_fortune_odds(4)
    odds = bm.taxpayers_fortune_odds(4, jackpot_column=pt.JACKPOT_COLUMNS[6])
    assert odds.details["expected_jackpot"] > 0


def test_s17_changes_the_jackpot():
    h17 = bm.taxpayers_fortune_odds(6, h17=True).details["expected_jackpot"]
    s17 = bm.taxpayers_fortune_odds(6, h17=False).details["expected_jackpot"]
    assert h17 != s17


# --- Poker Bonus -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "made"),
    [
        ("7S 7S 7S", ("suited_three_of_a_kind", "three_of_a_kind", "suited_pair", "pair")),
        ("7S 7S 7H", ("three_of_a_kind", "suited_pair", "pair")),
        ("7S 7H 7H", ("three_of_a_kind", "pair")),
        ("7S 7S KH", ("suited_pair", "pair")),
        ("7S 7D KH", ("pair",)),
        ("7S 8S 7H", ()),  # the upcard never makes a pair
        ("AS KS QS", ()),
    ],
)
def test_poker_bonus_categories(hand, made):
    a, b, up = cards(hand)
    assert bm.poker_bonus_categories(a, b, up) == made


def test_poker_bonus_one_deck_hand_worked():
    # Pair 3/51; the upcard matches it 2/50. Default table: trips 25, pair 11.
    odds = bm.poker_bonus_odds(1)
    assert odds.probability("three_of_a_kind") == Fraction(1, 425)
    assert odds.probability("pair") == Fraction(24, 425)
    assert odds.probability("suited_pair") == 0
    assert odds.house_edge == Fraction(111, 425)


def test_poker_bonus_six_deck_hand_worked():
    # 312 cards: same card 5/311, same rank other suit 18/311; upcard of that rank 22/310.
    odds = bm.poker_bonus_odds(6)
    den = 311 * 310
    assert odds.probability("suited_three_of_a_kind") == Fraction(5 * 4, den)
    assert odds.probability("three_of_a_kind") == Fraction(23 * 22 - 5 * 4, den)
    assert odds.probability("suited_pair") == Fraction(5 * 288, den)
    assert odds.probability("pair") == Fraction(18 * 288, den)
    win = Fraction(25 * (20 + 486) + 11 * (1440 + 5184), den)
    lose = 1 - Fraction(20 + 486 + 1440 + 5184, den)
    assert odds.house_edge == lose - win


def test_poker_bonus_missing_line_falls_through():
    odds = bm.poker_bonus_odds(6, {"three_of_a_kind": 30, "pair": 10})
    den = 311 * 310
    assert odds.probability("three_of_a_kind") == Fraction(23 * 22, den)
    assert odds.probability("pair") == Fraction(23 * 288, den)


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_poker_bonus_matches_brute_force(decks):
    shoe = [c for c in range(52) for _ in range(decks)]
    n = len(shoe)
    table = pt.POKER_BONUS_PAYTABLE
    ret = Fraction(0)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            a, b = shoe[i], shoe[j]
            if a // 4 != b // 4:
                ret -= n - 2
                continue
            for k in range(n):
                if k in (i, j):
                    continue
                u = shoe[k]
                if u // 4 == a // 4:
                    ret += table["suited_three_of_a_kind" if a == b == u else "three_of_a_kind"]
                else:
                    ret += table["suited_pair" if a == b else "pair"]
    assert bm.poker_bonus_odds(decks).house_edge == -ret / (n * (n - 1) * (n - 2))


# --- rulesets and the command interface --------------------------------------------------


def test_wager_odds_for_rules():
    ul = bm.wager_odds_for_rules(UpcardLuck21Rules())
    assert set(ul) == {"upcard_luck", "taxpayers_fortune"}
    assert ul["upcard_luck"].house_edge == bm.upcard_luck_odds(6, "A").house_edge
    assert ul["taxpayers_fortune"].house_edge == bm.taxpayers_fortune_odds(6).house_edge
    assert set(bm.wager_odds_for_rules(UpcardLuck21Rules(decks=4))) == {"upcard_luck"}
    au = bm.wager_odds_for_rules(AnteUp21Rules(decks=8))
    assert au["poker_bonus"].house_edge == bm.poker_bonus_odds(8).house_edge


def run(name: str, argv: list[str]) -> dict:
    add_arguments, run_ = bm.GAMEMATH[name]
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    result = run_(vars(parser.parse_args(argv)))
    json.dumps(result)  # plain JSON, no default= needed
    return result


def test_upcard_luck_command():
    result = run("upcard-luck", ["--paytable", "A", "--decks", "6"])
    assert result["house_edge"] == pytest.approx(0.0410969178, abs=1e-10)
    assert set(result["categories"]) == set(pt.UPCARD_LUCK_CATEGORIES)
    assert Fraction(result["exact"]["house_edge"]) == bm.upcard_luck_odds(6, "A").house_edge
    assert result["method"] == "exact combinatorial"
    woo = run(
        "upcard-luck",
        ["--paytable", json.dumps(bm.UPCARD_LUCK_EXTRA_TABLES["WOO1"]), "--decks", "1"],
    )
    assert round(woo["house_edge"] * 100, 2) == 12.94
    with pytest.raises(ValueError, match="not one of"):
        run("upcard-luck", ["--paytable", "Z"])


def test_taxpayers_fortune_command():
    result = run("taxpayers-fortune", ["--decks", "6"])
    assert result["expected_tax"] == pytest.approx(0.224908045)
    assert result["expected_jackpot"] == pytest.approx(0.1374463685)
    assert result["variance"] > 0
    s17 = run("taxpayers-fortune", ["--decks", "6", "--rule", "S17"])
    assert s17["rule"] == "S17" and s17["expected_jackpot"] != result["expected_jackpot"]
    custom = run(
        "taxpayers-fortune", ["--decks", "4", "--jackpot-column", json.dumps(pt.JACKPOT_COLUMNS[6])]
    )
    assert custom["decks"] == 4


def test_poker_bonus_command():
    result = run("poker-bonus", ["--decks", "6"])
    assert result["house_edge"] == pytest.approx(float(bm.poker_bonus_odds(6).house_edge))
    assert "variance" in result
    other = run(
        "poker-bonus", ["--decks", "6", "--paytable", '{"three_of_a_kind": 30, "pair": 10}']
    )
    assert other["paytable"] == {"three_of_a_kind": 30, "pair": 10}


def test_dealer_command_shape():
    result = run("dealer", ["--decks", "6", "--rule", "H17"])
    assert list(result["upcards"]) == list("A23456789T")
    for probs in result["upcards"].values():
        assert set(probs) == {"17", "18", "19", "20", "21", "blackjack", "bust"}
        assert sum(probs.values()) == pytest.approx(1, abs=1e-9)
    assert result["overall"]["bust"] == pytest.approx(0.285760, abs=5e-7)
    assert result["overall"]["bust_by_cards"]["8+"] == pytest.approx(0.000012, abs=5e-7)
    peeked = run("dealer", ["--decks", "6", "--after-peek", "--exact"])
    assert peeked["upcards"]["A"]["blackjack"] == 0
    assert (
        Fraction(peeked["exact"]["upcards"]["5"]["bust"])
        == dealer_outcomes(6)["5"].outcomes()["bust"]
    )


def test_the_settlement_modules_classify_hands_as_the_math_does():
    """The odds must price exactly what the audit pays (A1's modules, on the card's tables)."""
    ul = pytest.importorskip(
        "tables.games.blackjack.upcard_luck_21", reason="Upcard Luck 21 module not written yet"
    )
    au = pytest.importorskip("tables.games.blackjack.ante_up_21", reason="Ante Up 21 module not written yet")
    table_a = pt.UPCARD_LUCK_PAYTABLES["A"]
    for a in range(52):
        for b in range(52):
            made = bm.upcard_luck_hand_categories(a, b)
            assert bm.first_on_table(made, table_a) == ul.upcard_luck_category(a, b)
            assert bm.first_on_table(
                bm.tax_hand_categories(a, b), pt.TAX_SCHEDULE
            ) == ul.tax_category(a, b)
            if a // 4 == b // 4:
                for up in range(52):
                    made = bm.poker_bonus_categories(a, b, up)
                    assert bm.first_on_table(
                        made, pt.POKER_BONUS_PAYTABLE
                    ) == au.poker_bonus_category(a, b, up)
