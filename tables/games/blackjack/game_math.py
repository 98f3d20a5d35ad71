"""Exact game math for the blackjack games' wagers that involve no player decision.

Finance books the theoretical win of a wager as handle x house edge and needs the variance
for its confidence intervals; auditors check pay tables against published figures. Both
want numbers that never move, so everything here is combinatorial and exact
(:class:`fractions.Fraction`), for any deck count and any pay table:

* :func:`upcard_luck_odds` - Upcard Luck (Upcard Luck 21): categories, house edge, variance;
* :func:`taxpayers_fortune_odds` - Taxpayer's Fortune: expected tax and expected jackpot per
  round (fixed pay lines), the house's net, variance;
* :func:`poker_bonus_odds` - Ante Up 21 Poker Bonus: categories, house edge, variance;
* :func:`tables.games.blackjack.dealer_odds.dealer_outcomes` - the dealer's final hand by upcard;
* :func:`wager_odds_for_rules` - all of the above for a configured ruleset.

``GAMEMATH`` plugs them into ``python manage.py gamemath <wager> --json``
(``tables/management/commands/gamemath.py``); the JSON is the interface finance scripts
against: probabilities as floats (10 significant digits) plus exact fractions as strings
under ``"exact"``. For example ``gamemath upcard-luck --paytable A --decks 6 --json``::

    {"wager": "upcard_luck", "decks": 6,
     "paytable": {"ace_jack_spades": 100, "suited_3_8": 30, "suited_11": 15, "blackjack": 5,
                  "nine_ten_eleven": 4, "eighteen_to_twenty": 3},
     "house_edge": 0.04109691781, "variance": 8.742711959,
     "categories": {"ace_jack_spades": 0.0003446817678, "suited_3_8": 0.001369152578,
                    "suited_11": 0.004088308746, "blackjack": 0.02171495137,
                    "nine_ten_eleven": 0.05164641395, "eighteen_to_twenty": 0.106927944},
     "lose": 0.8139085476, "method": "exact combinatorial",
     "exact": {"house_edge": "...", "variance": "...", "categories": {...}, "lose": "..."}}

A category's probability is that of the bet winning with it (dealer 2-7 up). ``variance``
is that of the player's net per unit wagered; ``taxpayers-fortune`` gives dollars per round
for a $1 marker (``expected_tax``, ``expected_jackpot``, ``house_edge`` = their difference,
``tax_categories``, ``jackpot_lines``); ``dealer`` gives ``upcards`` -> outcome ->
probability, ``bust_by_cards`` and ``overall`` (the whole hand from a fresh shoe).

Rulings made here (see the report / docs):

* A pay table is any mapping ``category -> N`` ("N to 1"). A category left out of the
  mapping does not exist on that table: the hand is paid as the next category, in the
  card's order, that it also makes. Wizard of Odds' Upcard Luck "Pay Table 1"
  (:data:`UPCARD_LUCK_EXTRA_TABLES` ``"WOO1"``: A-J of spades 78, blackjack 7, 9-11 3,
  18-20 3) has no 3-8 suited and no suited 11 lines: those hands total 11 and are paid 3 as
  "9, 10 or 11". That reading reproduces the published 12.94% (1 deck), 13.76% (2),
  14.16% (4), 14.29% (6), 14.36% (8).
* Upcard Luck / Taxpayer's Fortune categories are settled in the card's order (the single
  highest category); the Poker Bonus likewise in the order suited three of a kind, three of
  a kind, suited pair, pair.
* Taxpayer's Fortune: a hand with no category (or a category taxed 0) pays no tax and can
  win no jackpot; the marker is never lost. ``house_edge`` is the house's expected net per
  round (tax collected less jackpots paid) per unit of marker. Progressive lines are priced
  at their fixed column amounts (a meter's value is a ledger matter, not a math one).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..settings import paytables as pt
from ..settings.rulesets import AnteUp21Rules, UpcardLuck21Rules
from ..vocabulary.base import Errors, join_path
from ..vocabulary.cards import ACE, JACK, RANK, SPADES, SUIT, TEN_VALUE, make_card
from ..vocabulary.catalogue import POKER_BONUS, TAXPAYERS_FORTUNE, UPCARD_LUCK
from ..vocabulary.hands import soft_total
from .dealer_odds import (
    ACE_INDEX,
    OUTCOMES,
    RANK_LABELS,
    TEN_INDEX,
    DealerFinal,
    check_decks,
    dealer_final,
    dealer_outcomes,
    dealer_overall,
    shoe_composition,
)

METHOD = "exact combinatorial"

ACE_OF_SPADES = make_card(ACE, SPADES)
JACK_OF_SPADES = make_card(JACK, SPADES)

#: Upcard Luck tables beyond the card's A, B and C: for checking against published figures.
UPCARD_LUCK_EXTRA_TABLES: dict[str, dict[str, int]] = {
    # Wizard of Odds, "Pay Table 1": no 3-8 suited / suited 11 lines (they pay as 9-11).
    "WOO1": {"ace_jack_spades": 78, "blackjack": 7, "nine_ten_eleven": 3, "eighteen_to_twenty": 3},
}
UPCARD_LUCK_TABLES: dict[str, Mapping[str, Any]] = {
    **pt.UPCARD_LUCK_PAYTABLES,
    **UPCARD_LUCK_EXTRA_TABLES,
}
POKER_BONUS_TABLES: dict[str, Mapping[str, Any]] = {"default": pt.POKER_BONUS_PAYTABLE}

# --- classifiers (card ints in, category names out) ------------------------------------------


def _points(card: int) -> int:
    return 10 if TEN_VALUE[card] else RANK[card]


def upcard_luck_hand_categories(c1: int, c2: int) -> tuple[str, ...]:
    """Every Upcard Luck category the first two cards make, in the card's order.

    ``[3H, 8H]`` -> ``("suited_3_8", "nine_ten_eleven")``: the first one on the pay table wins.
    """
    r1, r2 = RANK[c1], RANK[c2]
    suited = SUIT[c1] == SUIT[c2]
    has_ace = r1 == ACE or r2 == ACE
    hard = _points(c1) + _points(c2)
    out = []
    if {c1, c2} == {ACE_OF_SPADES, JACK_OF_SPADES}:
        out.append("ace_jack_spades")
    if suited and {r1, r2} == {3, 8}:
        out.append("suited_3_8")
    elif suited and not has_ace and hard == 11:
        out.append("suited_11")
    if has_ace and (TEN_VALUE[c1] or TEN_VALUE[c2]):
        out.append("blackjack")
    if not has_ace and 9 <= hard <= 11:
        out.append("nine_ten_eleven")
    best = soft_total(hard, has_ace)[0]
    if 18 <= best <= 20:
        out.append("eighteen_to_twenty")
    return tuple(out)


def tax_hand_categories(c1: int, c2: int) -> tuple[str, ...]:
    """Taxpayer's Fortune tax categories, in the schedule's order (20 split from 18/19)."""
    out = []
    for cat in upcard_luck_hand_categories(c1, c2):
        if cat == "eighteen_to_twenty":
            hard = _points(c1) + _points(c2)
            best = soft_total(hard, RANK[c1] == ACE or RANK[c2] == ACE)[0]
            out.append("twenty" if best == 20 else "eighteen_nineteen")
        else:
            out.append(cat)
    return tuple(out)


def poker_bonus_categories(c1: int, c2: int, upcard: int) -> tuple[str, ...]:
    """Poker Bonus categories of the first two cards; the upcard only makes three of a kind."""
    if RANK[c1] != RANK[c2]:
        return ()
    out = []
    if RANK[upcard] == RANK[c1]:
        if c1 == c2 == upcard:
            out.append("suited_three_of_a_kind")
        out.append("three_of_a_kind")
    if c1 == c2:
        out.append("suited_pair")
    out.append("pair")
    return tuple(out)


def first_on_table(categories: Iterable[str], table: Mapping[str, Any]) -> str | None:
    """The category that is paid: the first one the hand makes that the table has a line for."""
    for cat in categories:
        if cat in table:
            return cat
    return None


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """One way a wager ends: probability and the player's net (in units of the wager)."""

    name: str
    probability: Fraction
    net: Fraction


@dataclass(frozen=True, slots=True)
class WagerOdds:
    """A wager's exact outcome distribution per unit wagered."""

    wager: str
    decks: int
    outcomes: tuple[Outcome, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def expected_net(self) -> Fraction:
        """The player's expected result per unit (negative when the house has the edge)."""
        return sum((o.probability * o.net for o in self.outcomes), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_net

    @property
    def variance(self) -> Fraction:
        """Variance of the player's net per unit wagered (for confidence intervals)."""
        mean = self.expected_net
        return (
            sum((o.probability * o.net * o.net for o in self.outcomes), Fraction(0)) - mean * mean
        )

    def probability(self, name: str) -> Fraction:
        return sum((o.probability for o in self.outcomes if o.name == name), Fraction(0))


def to_float(value: Fraction) -> float:
    """A probability for JSON: ten significant digits."""
    return float(f"{float(value):.10g}")


def _fraction(value: Any, path: str, errors: Errors) -> Fraction | None:
    if isinstance(value, bool) or value is None:
        errors.add(path, f"{value!r} is not a number")
        return None
    try:
        number = (
            Fraction(value)
            if isinstance(value, (int, Fraction, Decimal))
            else Fraction(Decimal(str(value)))
        )
    except (InvalidOperation, ValueError, ZeroDivisionError):
        errors.add(path, f'"{value}" is not a number')
        return None
    if number < 0:
        errors.add(path, f"a pay cannot be negative, got {value}")
        return None
    return number


def _paytable_key(decks: int, paytable: Mapping[str, Any] | str, named: Mapping[str, Mapping[str, Any]],
                  categories: tuple[str, ...]) -> tuple[tuple[str, Fraction], ...]:
    """A side bet's pay table (a name in ``named`` or a mapping category -> N) as the exact,
    hashable key its odds are remembered by; the shoe checked first."""
    check_decks(decks)
    return _table_key(named[paytable] if isinstance(paytable, str) else paytable, categories, "paytable")


def _table_key(
    table: Mapping[str, Any], categories: tuple[str, ...], path: str
) -> tuple[tuple[str, Fraction], ...]:
    """Validate a pay table (or tax schedule) into a hashable, exact form, all errors at once."""
    errors = Errors()
    if not isinstance(table, Mapping):
        errors.add(path, "must be an object of category -> pay")
        errors.raise_if_any()
    out = []
    for name, value in table.items():
        if name not in categories:
            errors.add(
                join_path(path, str(name)),
                f"unknown category; expected one of {', '.join(categories)}",
            )
            continue
        number = _fraction(value, join_path(path, str(name)), errors)
        if number is not None:
            out.append((name, number))
    errors.raise_if_any()
    return tuple(sorted(out))


def _player_pairs(decks: int) -> Iterable[tuple[int, int, int]]:
    """Every ordered first two cards with its number of ways from the shoe."""
    for c1 in range(52):
        for c2 in range(52):
            ways = decks * (decks - (c1 == c2))
            if ways:
                yield c1, c2, ways


def _low_upcards(decks: int, c1: int, c2: int) -> int:
    """Cards 2 to 7 left in the shoe after the player's two cards."""
    return 24 * decks - (2 <= RANK[c1] <= 7) - (2 <= RANK[c2] <= 7)


def _three_card_odds(wager: str, decks: int, paytable: Mapping[str, Any] | str,
                     named: Mapping[str, Mapping[str, Any]], categories: tuple[str, ...],
                     count: Callable[[int, Mapping[str, Fraction], dict[str, int]], None]) -> WagerOdds:
    """A side bet settled on the player's first two cards and the upcard, priced on a pay
    table (a name in ``named`` or a mapping category -> N): ``count`` adds to each
    category the ordered deals of three cards that pay it; every other deal loses."""
    return _priced_three_card_odds(wager, decks, _paytable_key(decks, paytable, named, categories), categories, count)


@lru_cache(maxsize=64)
def _priced_three_card_odds(wager: str, decks: int, table_key: tuple[tuple[str, Fraction], ...],
                            categories: tuple[str, ...], count) -> WagerOdds:
    table = dict(table_key)
    wins = dict.fromkeys((c for c in categories if c in table), 0)
    count(decks, table, wins)
    n = 52 * decks
    total = n * (n - 1) * (n - 2)
    outcomes = [Outcome(cat, Fraction(w, total), table[cat]) for cat, w in wins.items()]
    lose = 1 - sum((o.probability for o in outcomes), Fraction(0))
    outcomes.append(Outcome("lose", lose, Fraction(-1)))
    return WagerOdds(wager, decks, tuple(outcomes), {"paytable": _ordered(table, categories)})


# --- Upcard Luck -----------------------------------------------------------------------------


def upcard_luck_odds(decks: int, paytable: Mapping[str, Any] | str = "A") -> WagerOdds:
    """Upcard Luck's exact odds: wins only with a dealer 2-7 up, paid on the first two cards.

    ``paytable`` is "A", "B", "C", "WOO1" or any mapping category -> N (to 1).
    """
    return _three_card_odds(UPCARD_LUCK, decks, paytable, UPCARD_LUCK_TABLES, pt.UPCARD_LUCK_CATEGORIES,
                            _upcard_luck_wins)


def _upcard_luck_wins(decks: int, table: Mapping[str, Fraction], wins: dict[str, int]) -> None:
    for c1, c2, ways in _player_pairs(decks):
        cat = first_on_table(upcard_luck_hand_categories(c1, c2), table)
        if cat is not None:
            wins[cat] += ways * _low_upcards(decks, c1, c2)


# --- Taxpayer's Fortune ----------------------------------------------------------------------


def taxpayers_fortune_odds(
    decks: int,
    *,
    h17: bool = True,
    tax_schedule: Mapping[str, Any] | None = None,
    jackpot_column: Mapping[str, Any] | None = None,
    marker: Any = 1,
) -> WagerOdds:
    """Taxpayer's Fortune for one player: tax with a dealer 2-7 up, fixed jackpot lines.

    The dealer's hole card and draws come from the shoe less the player's two cards and the
    upcard, and he always plays out the hand. Nets are in dollars; ``house_edge`` and
    ``variance`` are per unit of ``marker`` (the card's $1).
    """
    check_decks(decks)
    if jackpot_column is None:
        if decks not in pt.JACKPOT_COLUMNS:
            raise ValueError(
                f"no jackpot column for a {decks}-deck shoe (the card has "
                f"{', '.join(str(d) for d in sorted(pt.JACKPOT_COLUMNS))}); give one"
            )
        jackpot_column = pt.JACKPOT_COLUMNS[decks]
    schedule = _table_key(
        tax_schedule if tax_schedule is not None else pt.TAX_SCHEDULE,
        pt.TAX_CATEGORIES,
        "tax_schedule",
    )
    column = _table_key(jackpot_column, pt.JACKPOT_LINES, "jackpot_column")
    errors = Errors()
    unit = _fraction(marker, "marker", errors)
    if unit == 0:
        errors.add("marker", "must be more than 0")
    errors.raise_if_any()
    return _taxpayers_fortune_odds(decks, bool(h17), schedule, column, unit)


@lru_cache(maxsize=64)
def _taxpayers_fortune_odds(
    decks: int,
    h17: bool,
    schedule_key: tuple[tuple[str, Fraction], ...],
    column_key: tuple[tuple[str, Fraction], ...],
    unit: Fraction,
) -> WagerOdds:
    schedule = dict(schedule_key)
    column = dict(column_key)
    n = 52 * decks
    pair_total = n * (n - 1)
    taxed: dict[str, int] = {}  # tax category -> ways (pair x low upcard), jackpot hands included
    blackjacks: dict[tuple[str, bool], int] = {}  # (tax category, suited) -> ways of the pair
    for c1, c2, ways in _player_pairs(decks):
        cat = first_on_table(tax_hand_categories(c1, c2), schedule)
        if cat is None or schedule[cat] == 0:
            continue
        taxed[cat] = taxed.get(cat, 0) + ways * _low_upcards(decks, c1, c2)
        if (RANK[c1] == ACE and TEN_VALUE[c2]) or (RANK[c2] == ACE and TEN_VALUE[c1]):
            key = (cat, SUIT[c1] == SUIT[c2])
            blackjacks[key] = blackjacks.get(key, 0) + ways

    # The dealer after a player blackjack: Ace and ten-value out, upcard 2..7 (each 4d ways).
    after_bj = shoe_composition(decks)
    after_bj = tuple(c - (r in (ACE_INDEX, TEN_INDEX)) for r, c in enumerate(after_bj))
    # dealer cards -> P(upcard 2-7 and busting with that many cards | player blackjack)
    busts: dict[int, Fraction] = {}
    for up in range(1, 7):
        comp = after_bj[:up] + (after_bj[up] - 1,) + after_bj[up + 1 :]
        p_up = Fraction(after_bj[up], n - 2)
        for cards, p in dealer_final(comp, (up,), h17=h17).bust_by_cards().items():
            if cards >= 5:
                busts[cards] = busts.get(cards, Fraction(0)) + p_up * p

    outcomes: list[Outcome] = []
    tax_probability: dict[str, Fraction] = {}
    for cat, ways in taxed.items():
        p = Fraction(ways, pair_total * (n - 2))
        tax_probability[cat] = p
        outcomes.append(Outcome(f"tax {cat}", p, -schedule[cat] / unit))
    line_probability = dict.fromkeys(pt.JACKPOT_LINES, Fraction(0))
    for (cat, suited), ways in sorted(blackjacks.items()):
        p_pair = Fraction(ways, pair_total)
        for cards, p_bust in sorted(busts.items()):
            line = pt.jackpot_line_key(cards, suited)
            p = p_pair * p_bust
            line_probability[line] += p
            # Move this share out of the plain "tax" outcome into the jackpot one.
            outcomes.append(
                Outcome(f"jackpot {line} ({cat})", p, (column.get(line, 0) - schedule[cat]) / unit)
            )
            outcomes.append(Outcome(f"tax {cat}", -p, -schedule[cat] / unit))
    outcomes = _merge(outcomes)
    outcomes.append(
        Outcome("no tax", 1 - sum((o.probability for o in outcomes), Fraction(0)), Fraction(0))
    )
    expected_tax = sum((p * schedule[c] for c, p in tax_probability.items()), Fraction(0))
    expected_jackpot = sum(
        (p * column.get(line, 0) for line, p in line_probability.items()), Fraction(0)
    )
    details = {
        "unit": unit,
        "h17": h17,
        "tax_schedule": schedule,
        "jackpot_column": column,
        "expected_tax": expected_tax,
        "expected_jackpot": expected_jackpot,
        "tax_categories": tax_probability,
        "jackpot_lines": line_probability,
    }
    return WagerOdds(TAXPAYERS_FORTUNE, decks, tuple(outcomes), details)


def _merge(outcomes: list[Outcome]) -> list[Outcome]:
    merged: dict[tuple[str, Fraction], Fraction] = {}
    for o in outcomes:
        merged[(o.name, o.net)] = merged.get((o.name, o.net), Fraction(0)) + o.probability
    return [Outcome(name, p, net) for (name, net), p in merged.items() if p]


# --- Poker Bonus -----------------------------------------------------------------------------


def poker_bonus_odds(decks: int, paytable: Mapping[str, Any] | str = "default") -> WagerOdds:
    """Ante Up 21's Poker Bonus: the first two cards, the upcard only making three of a kind."""
    return _three_card_odds(POKER_BONUS, decks, paytable, POKER_BONUS_TABLES, pt.POKER_BONUS_CATEGORIES,
                            _poker_bonus_wins)


def _poker_bonus_wins(decks: int, table: Mapping[str, Fraction], wins: dict[str, int]) -> None:
    for c1, c2, ways in _player_pairs(decks):
        if RANK[c1] != RANK[c2]:
            continue
        for up in range(52):
            up_ways = decks - (up == c1) - (up == c2)
            if up_ways <= 0:
                continue
            cat = first_on_table(poker_bonus_categories(c1, c2, up), table)
            if cat is not None:
                wins[cat] += ways * up_ways


# --- rulesets --------------------------------------------------------------------------------


def wager_odds_for_rules(rules: Any) -> dict[str, WagerOdds]:
    """Each no-decision wager's odds under a configured ruleset, by wager key.

    Upcard Luck 21 rules give ``"upcard_luck"`` and (when offered and the shoe has a jackpot
    column) ``"taxpayers_fortune"``; Ante Up 21 rules give ``"poker_bonus"``.
    """
    out: dict[str, WagerOdds] = {}
    if isinstance(rules, UpcardLuck21Rules):
        out[UPCARD_LUCK] = upcard_luck_odds(rules.decks, rules.upcard_luck_odds)
        if rules.taxpayers_fortune and rules.decks in rules.jackpot_columns:
            out[TAXPAYERS_FORTUNE] = taxpayers_fortune_odds(
                rules.decks,
                h17=rules.dealer_hits_soft_17,
                tax_schedule=rules.tax_schedule,
                jackpot_column=rules.jackpot_columns[rules.decks],
                marker=rules.taxpayers_fortune_marker,
            )
    if isinstance(rules, AnteUp21Rules):
        out[POKER_BONUS] = poker_bonus_odds(rules.decks, rules.poker_bonus_paytable)
    return out


# --- JSON for the management command ---------------------------------------------------------


def _exact(value: Fraction) -> str:
    return str(value)


def _ordered(mapping: Mapping[str, Any], order: Iterable[str]) -> dict[str, Any]:
    """``mapping`` in the card's order (JSON readers see the table as printed)."""
    return {k: mapping[k] for k in order if k in mapping}


def _number(value: Fraction) -> int | str:
    """A pay or dollar amount for JSON: an int when whole, else its exact decimal/fraction text."""
    if value.denominator == 1:
        return value.numerator
    return str(value)


def upcard_luck_json(odds: WagerOdds) -> dict:
    categories = {o.name: o.probability for o in odds.outcomes if o.name != "lose"}
    return {
        "wager": odds.wager,
        "decks": odds.decks,
        "paytable": {k: _number(v) for k, v in odds.details["paytable"].items()},
        "house_edge": to_float(odds.house_edge),
        "variance": to_float(odds.variance),
        "categories": {k: to_float(v) for k, v in categories.items()},
        "lose": to_float(odds.probability("lose")),
        "method": METHOD,
        "exact": {
            "house_edge": _exact(odds.house_edge),
            "variance": _exact(odds.variance),
            "categories": {k: _exact(v) for k, v in categories.items()},
            "lose": _exact(odds.probability("lose")),
        },
    }


def taxpayers_fortune_json(odds: WagerOdds) -> dict:
    d = odds.details
    return {
        "wager": odds.wager,
        "decks": odds.decks,
        "rule": "H17" if d["h17"] else "S17",
        "marker": _number(d["unit"]),
        "expected_tax": to_float(d["expected_tax"]),
        "expected_jackpot": to_float(d["expected_jackpot"]),
        "house_edge": to_float(odds.house_edge),
        "variance": to_float(odds.variance),
        "tax_categories": {
            k: to_float(v) for k, v in _ordered(d["tax_categories"], pt.TAX_CATEGORIES).items()
        },
        "jackpot_lines": {k: to_float(v) for k, v in d["jackpot_lines"].items()},
        "jackpot_probability": to_float(sum(d["jackpot_lines"].values(), Fraction(0))),
        "tax_schedule": {
            k: _number(v) for k, v in _ordered(d["tax_schedule"], pt.TAX_CATEGORIES).items()
        },
        "jackpot_column": {
            k: _number(v) for k, v in _ordered(d["jackpot_column"], pt.JACKPOT_LINES).items()
        },
        "method": METHOD,
        "exact": {
            "expected_tax": _exact(d["expected_tax"]),
            "expected_jackpot": _exact(d["expected_jackpot"]),
            "house_edge": _exact(odds.house_edge),
            "variance": _exact(odds.variance),
        },
    }


def dealer_json(decks: int, *, h17: bool, after_peek: bool = False, exact: bool = False) -> dict:
    finals = dealer_outcomes(decks, h17=h17)
    overall = dealer_overall(decks, h17=h17)
    if after_peek:
        finals = {
            label: f.given_no_blackjack() if label in ("A", "T") else f
            for label, f in finals.items()
        }
        overall = overall.given_no_blackjack()

    def outcome_floats(f: DealerFinal) -> dict:
        return {k: to_float(v) for k, v in f.outcomes().items()}

    def bust_floats(f: DealerFinal) -> dict:
        out = {str(n): to_float(p) for n, p in f.bust_by_cards().items() if n < 8}
        out["8+"] = to_float(f.bust_with_at_least(8))
        return out

    result: dict[str, Any] = {
        "decks": decks,
        "rule": "H17" if h17 else "S17",
        "peek": "after peek (no dealer natural)" if after_peek else "before any peek",
        "upcards": {label: outcome_floats(f) for label, f in finals.items()},
        "bust_by_cards": {label: bust_floats(f) for label, f in finals.items()},
        "overall": {**outcome_floats(overall), "bust_by_cards": bust_floats(overall)},
        "outcomes": list(OUTCOMES),
        "method": METHOD,
    }
    if exact:
        result["exact"] = {
            "upcards": {
                label: {k: _exact(v) for k, v in f.outcomes().items()}
                for label, f in finals.items()
            },
            "overall": {k: _exact(v) for k, v in overall.outcomes().items()},
        }
    return result


def poker_bonus_json(odds: WagerOdds) -> dict:
    """Same shape as Upcard Luck's: house edge, variance, categories, lose, exact."""
    return upcard_luck_json(odds)


# --- GAMEMATH: argparse options and run(options) -> dict -------------------------------------


def _table_option(
    value: str | None, named: Mapping[str, Mapping[str, Any]], default: str
) -> Mapping[str, Any]:
    if value is None:
        value = default
    if value in named:
        return named[value]
    if value.lstrip().startswith("{"):
        try:
            table = json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValueError(f"--paytable is not valid JSON: {exc}") from exc
        return table
    raise ValueError(f'--paytable "{value}" is not one of {", ".join(named)} or a JSON object')


def _json_option(value: str | None, name: str) -> Mapping[str, Any] | None:
    if value is None:
        return None
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{name} is not valid JSON: {exc}") from exc


def _rule(options: Mapping[str, Any]) -> bool:
    rule = str(options.get("rule") or "H17").upper()
    if rule not in ("H17", "S17"):
        raise ValueError(f'--rule must be H17 or S17, got "{rule}"')
    return rule == "H17"


def _add_decks(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--decks", type=int, default=6, help="decks in the shoe (default 6)")


def _add_shoe_and_rule(parser: argparse.ArgumentParser) -> None:
    _add_decks(parser)
    parser.add_argument("--rule", default="H17", choices=("H17", "S17"),
                        help="dealer hits (H17) or stands (S17) on soft 17")


def _side_bet_command(
    tables: Mapping[str, Mapping[str, Any]], default: str, named: str, categories: Sequence[str], note: str,
    odds: Callable[[int, Mapping[str, Any]], Any], as_json: Callable[[Any], dict], doc: str,
) -> tuple[Callable[[argparse.ArgumentParser], None], Callable[[Mapping[str, Any]], dict]]:
    """A side bet's ``gamemath`` command: ``--decks`` and ``--paytable`` (one of ``tables`` or
    a JSON object category -> pay), and the run that prints its odds."""

    def arguments(parser: argparse.ArgumentParser) -> None:
        _add_decks(parser)
        parser.add_argument("--paytable", default=default,
                            help=f"pay table: {named} or a JSON object category -> pay ({', '.join(categories)}){note}")

    def run(options: Mapping[str, Any]) -> dict:
        return as_json(odds(options.get("decks", 6), _table_option(options.get("paytable"), tables, default)))

    run.__doc__ = doc
    return arguments, run


upcard_luck_arguments, upcard_luck_run = _side_bet_command(
    UPCARD_LUCK_TABLES, "A", ", ".join(UPCARD_LUCK_TABLES), pt.UPCARD_LUCK_CATEGORIES,
    "; a missing line pays as the next category the hand makes", upcard_luck_odds, upcard_luck_json,
    "Upcard Luck: house edge, variance and each category's probability (dealer 2-7 up).")


def taxpayers_fortune_arguments(parser: argparse.ArgumentParser) -> None:
    _add_shoe_and_rule(parser)
    parser.add_argument("--tax-schedule", dest="tax_schedule",
                        help="JSON object tax category -> dollars (default: the card)")
    parser.add_argument("--jackpot-column", dest="jackpot_column",
                        help="JSON object line -> dollars (default: the card's column for --decks)")


def taxpayers_fortune_run(options: Mapping[str, Any]) -> dict:
    """Taxpayer's Fortune: expected tax and expected jackpot per round per $1 marker (fixed lines)."""
    odds = taxpayers_fortune_odds(
        options.get("decks", 6),
        h17=_rule(options),
        tax_schedule=_json_option(options.get("tax_schedule"), "--tax-schedule"),
        jackpot_column=_json_option(options.get("jackpot_column"), "--jackpot-column"),
    )
    return taxpayers_fortune_json(odds)


poker_bonus_arguments, poker_bonus_run = _side_bet_command(
    POKER_BONUS_TABLES, "default", "default (illustrative, the house must set)", pt.POKER_BONUS_CATEGORIES, "",
    poker_bonus_odds, poker_bonus_json, "Ante Up 21 Poker Bonus: house edge, variance and each category's probability.")


def dealer_arguments(parser: argparse.ArgumentParser) -> None:
    _add_shoe_and_rule(parser)
    parser.add_argument("--after-peek", dest="after_peek", action="store_true",
                        help="condition A and T upcards on the dealer having no natural")
    parser.add_argument("--exact", action="store_true", help="also give exact fractions")


def dealer_run(options: Mapping[str, Any]) -> dict:
    """The dealer's final outcome by upcard, drawing from the shoe less his own cards."""
    decks = options.get("decks", 6)
    check_decks(decks)
    return dealer_json(
        decks,
        h17=_rule(options),
        after_peek=bool(options.get("after_peek")),
        exact=bool(options.get("exact")),
    )


GAMEMATH: dict[
    str, tuple[Callable[[argparse.ArgumentParser], None], Callable[[Mapping[str, Any]], dict]]
] = {
    "upcard-luck": (upcard_luck_arguments, upcard_luck_run),
    "taxpayers-fortune": (taxpayers_fortune_arguments, taxpayers_fortune_run),
    "poker-bonus": (poker_bonus_arguments, poker_bonus_run),
    "dealer": (dealer_arguments, dealer_run),
}

__all__ = [
    "GAMEMATH",
    "RANK_LABELS",
    "Outcome",
    "WagerOdds",
    "dealer_outcomes",
    "dealer_overall",
    "poker_bonus_categories",
    "poker_bonus_odds",
    "taxpayers_fortune_odds",
    "tax_hand_categories",
    "upcard_luck_hand_categories",
    "upcard_luck_odds",
    "wager_odds_for_rules",
]
