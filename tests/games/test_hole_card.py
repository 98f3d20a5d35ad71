"""The values of a decision with the dealer's hole card known (tables/games/blackjack/hole_card.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tables.games.blackjack.dealer_odds import ACE_INDEX, TEN_INDEX
from tables.games.blackjack.hole_card import (
    DECLINE,
    dealer_final,
    deviation_test,
    hole_card_values,
    hole_chances,
    hole_table,
    table_hole_values,
)
from tables.games.blackjack.strategy_math import PTS, Rules, rank_counts, table_values, upcard_table
from tables.games.vocabulary.cards import parse_card

RULES = Rules(decks=6)


def _brute_dealer(comp: list[int], hard: int, ace: bool, h17: bool) -> list[Fraction]:
    """The dealer's final hand by walking every draw with Fractions: 17..21, bust."""
    best = hard + 10 if ace and hard <= 11 else hard
    soft = ace and hard <= 11
    if hard > 21:
        return [Fraction(0)] * 5 + [Fraction(1)]
    if best >= 18 or (best == 17 and not (soft and h17)):
        out = [Fraction(0)] * 6
        out[best - 17] = Fraction(1)
        return out
    n = sum(comp)
    out = [Fraction(0)] * 6
    for r, c in enumerate(comp):
        if c:
            comp[r] -= 1
            sub = _brute_dealer(comp, hard + PTS[r], ace or r == ACE_INDEX, h17)
            comp[r] += 1
            for k in range(6):
                out[k] += Fraction(c, n) * sub[k]
    return out


@pytest.mark.parametrize(("hard", "ace", "h17"), [(12, False, True), (16, False, False), (7, True, True),
                                                  (6, True, False), (20, False, True)])
def test_the_dealers_final_hand_from_two_cards_matches_a_fraction_walk(hard, ace, h17):
    comp = [3, 2, 4, 1, 3, 2, 2, 3, 1, 9]  # a small, uneven shoe
    exact = _brute_dealer(list(comp), hard, ace, h17)
    got = dealer_final(comp, hard, ace, h17)
    # final_hands' slots: 17..21, natural (none from these starts), bust
    assert got == pytest.approx([float(x) for x in exact[:5]] + [0.0, float(exact[5])], abs=1e-12)
    assert sum(got) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("h17", [True, False])
def test_a_two_card_natural_is_the_natural_slot_and_a_drawn_21_is_not(h17):
    """Ante Up 21's dealer poker hands read the natural from this slot, known hole card or not."""
    comp = [3, 2, 4, 1, 3, 2, 2, 3, 1, 9]
    assert dealer_final(comp, 11, True, h17) == (0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0)  # Ace + ten: 1 + 10
    drawn = dealer_final(comp, 12, False, h17)  # 12 drawn to 21 is a 21, never a natural
    assert drawn[5] == 0.0 and drawn[4] > 0


@pytest.mark.parametrize(("up", "hand"), [(TEN_INDEX, (9, 5)), (5, (9, 1)), (ACE_INDEX, (9, 5)), (3, (1, 1, 4, 3)),
                                          (6, (4, 5)), (ACE_INDEX, (0, 0)), (8, (7, 7))])
def test_averaged_over_the_hole_card_the_plays_without_a_later_decision_are_the_upcard_values(up, hand):
    """Stand and double (and split Aces, one card each) take no decision after the hole card
    matters, so their values known-hole, weighed by the hole card's chance, must give back the
    upcard-only values exactly; a hit (played on knowing the hole card) can only be worth more."""
    base = table_values(upcard_table(RULES, up), rank_counts(hand), list(hand))
    chances = hole_chances(RULES, up, hand, before_peek=False)
    avg: dict[str, float] = {}
    for h, chance in enumerate(chances):
        if chance:
            for action, value in table_hole_values(hole_table(RULES, up, h), list(hand)).items():
                avg[action] = avg.get(action, 0.0) + chance * value
    assert avg["stand"] == pytest.approx(base["stand"], abs=1e-9)
    if len(hand) == 2:
        assert avg["double"] == pytest.approx(base["double"], abs=1e-9)
    assert avg["hit"] >= base["hit"] - 1e-12
    if hand == (0, 0):
        assert avg["split"] == pytest.approx(base["split"], abs=1e-9)


def test_insurance_even_money_and_the_peeked_natural():
    ace, ten, six, nine = (parse_card(t) for t in ("AS", "KH", "6D", "9C"))
    insured = hole_card_values(RULES, [nine, six], ace, ten)
    assert insured == {"insurance": 2.0, DECLINE: 0.0}, "a peeked natural leaves only the decision before the peek"
    assert hole_card_values(RULES, [nine, six], ace, six)["insurance"] == -1.0
    natural = hole_card_values(RULES, [ace, ten], ace, nine)
    assert natural["even_money"] == 1.0 and natural["stand"] == 1.5
    assert hole_card_values(RULES, [ace, ten], ace, ten)["stand"] == 0.0
    no_peek = hole_card_values(Rules(decks=6, peek=False), [nine, six], ace, ten)
    assert (no_peek["stand"], no_peek["hit"], no_peek["double"]) == (-1.0, -1.0, -2.0)


def test_standing_on_16_against_a_ten_beats_the_hit_exactly_when_the_dealer_is_stiff():
    test = deviation_test(RULES, TEN_INDEX, (5, 9), "stand", "hit")
    assert test.beats == (None,) + (True,) * 5 + (False,) * 4  # the Ace: a peeked natural, no decision
    chances = hole_chances(RULES, TEN_INDEX, (5, 9), before_peek=False)
    assert chances[ACE_INDEX] == 0.0 and sum(chances) == pytest.approx(1.0)
    assert test.p == pytest.approx(sum(chances[1:6]))
    insurance = deviation_test(RULES, ACE_INDEX, (5, 9), "insurance", DECLINE)
    assert insurance.beats == (False,) * 9 + (True,)
    assert insurance.p == pytest.approx(95 / 309)  # 96 tens less none held, of 312 - 3 cards
