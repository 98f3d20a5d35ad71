"""Poker or Bust's recorded decisions priced from the whole-game solve
(tables/games/poker_or_bust/draw_prices.py): the kept values are the recursion's, for every hand
and every suit of the upcard, and a round's draws and stands are read from them."""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations_with_replacement

import pytest

from tables.games.poker_or_bust import draw_prices as dp
from tables.games.poker_or_bust import exact as ex
from tables.games.poker_or_bust.dealer_moments import MOST_SHARED
from tables.games.poker_or_bust.rounds import parse_round
from tables.games.settings.rulesets import PokerOrBustRules
from tables.games.vocabulary.cards import BJ_POINTS, card_text, make_card, parse_card
from tables.games.vocabulary.catalogue import ANTE, ODDS
from tests.games.test_poker_or_bust_exact import PAY, shoe_of
from tests.games.test_poker_or_bust_levels import ALIKE

SHOE = shoe_of(ALIKE)


def _every(n: int) -> int:
    return MOST_SHARED


@pytest.fixture(scope="module")
def solved():
    """The whole short shoe solved once, the hands of up to five cards kept."""
    return ex.level_edge(SHOE, PAY, order=MOST_SHARED, read_order=_every, keep=dp.KEEP)


def _hands(shoe: list[int], upcard: int):
    """Every hand of three to five cards at 31 or less the shoe can deal against ``upcard``."""
    left = list(shoe)
    left[upcard] -= 1
    cards = [c for c in range(52) if left[c]]
    for n in range(3, dp.KEEP + 1):
        for hand in combinations_with_replacement(cards, n):
            if all(hand.count(c) <= left[c] for c in set(hand)) and sum(BJ_POINTS[c] for c in hand) <= 31:
                yield hand


def test_keeping_the_prices_leaves_the_figures_as_they_were(solved):
    plain = ex.level_edge(SHOE, PAY, order=MOST_SHARED, read_order=_every)
    for wager in ("ante", "odds", "combined"):
        assert solved[wager]["house_edge"] == pytest.approx(plain[wager]["house_edge"], abs=1e-12)
        assert solved[wager]["variance"] == pytest.approx(plain[wager]["variance"], abs=1e-12)
    assert solved["draw_on_three"] == pytest.approx(plain["draw_on_three"], abs=1e-12)
    assert solved["hands"] > plain["hands"]  # the hands at 21 or less are solved too


@pytest.mark.parametrize("suit", [0, 2])
def test_every_kept_hand_is_worth_what_the_recursion_gives_it_against_any_suit(solved, suit):
    # The solve is made with each rank's suit-0 card up; an upcard of another suit is read
    # through a relabelling of the suits, and each hand through the one its orbit is kept under.
    book = solved["kept"]
    assert book.whole_shoe
    for rank in (1, 2, 10, 12):
        upcard = make_card(rank, suit)
        recursion = ex.solver(SHOE, upcard, PAY)
        for hand in _hands(SHOE, upcard):
            got = book.values(hand, upcard)
            assert got is not None, hand
            values, bound = got
            assert bound == 0.0
            want = {a: m.total for a, m in recursion.both(tuple(sorted(hand))).items()}
            assert set(values) == set(want), hand
            for action, ev in want.items():
                assert values[action] == pytest.approx(ev, abs=1e-12), (hand, upcard, action)


def test_a_table_survives_its_bytes(solved):
    table = solved["kept"].by_upcard[make_card(10, 0)]
    again = dp.UpcardPrices.from_bytes(table.to_bytes())
    assert (again.keys, again.stand, again.draw, again.bound, again.error, again.perms) == (
        table.keys, table.stand, table.draw, table.bound, table.error, table.perms)


def test_each_kept_hand_carries_its_own_bound_never_below_the_solves():
    bound = [2.5e-9, 0.0, 1.0000001e-4]
    table = dp.UpcardPrices(0, [3, 1, 2], [0.0] * 3, [0.0] * 3, bound)
    assert list(table.keys) == [1, 2, 3]
    assert [table.bound[i] >= b for i, b in enumerate([0.0, 1.0000001e-4, 2.5e-9])] == [True] * 3
    assert table.error == max(table.bound) and table.error < 1.0001e-4


def _text(*cards):
    return [card_text(c) for c in cards]


Q, TEN, ACE, TWO = 12, 10, 1, 2


DEALER = (make_card(TEN, 0), make_card(Q, 3), make_card(ACE, 1))


def _round(seats):
    data = {"dealer": {"cards": _text(*DEALER)},
            "seats": [{"seat": i + 1, "wagers": {ANTE: ante, ODDS: odds}, "cards": _text(*cards)}
                      for i, (cards, ante, odds) in enumerate(seats)]}
    return parse_round(data, PokerOrBustRules())


def test_a_rounds_draws_and_stands_are_read_from_the_stored_solve(solved, monkeypatch):
    book = solved["kept"]
    monkeypatch.setattr(dp, "_source", lambda rules: book)
    upcard = make_card(TEN, 0)
    drew = (make_card(ACE, 2), make_card(TWO, 1), make_card(ACE, 3), make_card(Q, 1))  # 4, then 14
    stood = (make_card(Q, 1), make_card(Q, 2), make_card(TWO, 2))  # 22: stands
    busted = (make_card(Q, 1), make_card(TEN, 1), make_card(TWO, 3), make_card(Q, 2))
    long = (make_card(ACE, 2), make_card(ACE, 3), make_card(TWO, 1), make_card(TWO, 2), make_card(TWO, 3),
            make_card(ACE, 0))
    unequal = (make_card(Q, 1), make_card(Q, 2), make_card(ACE, 1))
    rnd = _round([(drew, "10", "10"), (stood, "25", "25"), (busted, "5", "5"), (long, "5", "5"),
                  (unequal, "10", "5")])
    got = dp.round_prices(rnd, PokerOrBustRules())
    by_seat = {}
    for d in got.decisions:
        by_seat.setdefault(d.seat, []).append(d)
    recursion = ex.solver(SHOE, upcard, PAY)

    def want(cards):
        return {a: m.total for a, m in recursion.both(tuple(sorted(cards))).items()}

    # seat 1: drew with three cards, stood with four
    assert [(d.action, d.cards) for d in by_seat[1]] == [("draw", drew[:3]), ("stand", drew)]
    for d in by_seat[1]:
        for action, ev in want(d.cards).items():
            assert d.values[action] == pytest.approx(ev, abs=1e-12)
        assert d.best == max(d.values, key=d.values.get)
        assert d.cost == pytest.approx(d.values[d.best] - d.values[d.action], abs=1e-12)
        assert d.stake == Decimal("10")
    # seat 3 drew to 32: one decision, the draw
    assert [d.action for d in by_seat[3]] == ["draw"]
    # seat 4's sixth card: its decisions on three to five cards priced, the last one not
    assert [d.action for d in by_seat[4]] == ["draw", "draw", "draw"]
    assert (4, 0, "stand", dp.TOO_LONG) in got.unpriced
    # seat 5's wagers differ: nothing priced
    assert 5 not in by_seat and (5, 0, "stand", dp.UNEQUAL) in got.unpriced
    handles = dict(got.handles)
    assert handles[1] == Decimal("20") and handles[2] == Decimal("50") and handles[5] == Decimal("0")
    assert got.dealer[0] == upcard
    assert got.cost == sum((d.cost_money for d in got.decisions), Decimal(0))


def test_without_a_stored_solve_a_round_has_nothing_to_price(db):
    # the source is the database's tables (audit.decisions), where none is stored: the reason is
    # the round's (the desk's page says it), no seat's
    rnd = _round([((make_card(Q, 1), make_card(Q, 2), make_card(TWO, 2)), "10", "10")])
    got = dp.round_prices(rnd, PokerOrBustRules())
    assert (got.decisions, got.unpriced, got.handles) == ((), (), ())


def test_the_gamemath_command_reads_a_stored_solve_where_it_keeps_the_hand(solved, db):
    import io
    import json

    from django.core.management import call_command

    from audit.decisions import draw_tables

    def command(hand: str) -> dict:
        out = io.StringIO()
        call_command("gamemath", "decision", "--game", "poker_or_bust", "--hand", hand, "--upcard", "TH", "--json",
                     stdout=out)
        return json.loads(out.getvalue())

    # The short shoe's solve stored under the six-deck settings the command is given (the path is
    # the one a long solve's tables take; the values are held to the recursion above).
    draw_tables.store(PokerOrBustRules(), solved["kept"])
    try:
        got = command("AS,2D,AC")  # 4 points: beyond a decision priced on its own at six decks
        values, bound = solved["kept"].values([parse_card(t) for t in ("AS", "2D", "AC")], parse_card("TH"))
        assert got["source"] == "the stored whole-game solve"
        assert got["actions"] == {a: round(v, 12) for a, v in sorted(values.items())} and got["best"] == "draw"
        assert got["precision"] == max(bound, 1e-12)
    finally:
        draw_tables.forget()


def test_the_kept_starts_best_values_average_back_to_the_games_edge(solved):
    # Every three-card start weighted by its chance, the better of its two kept values (the draw
    # at 21 or less, where the table pays a better hand no less): the game's Ante + Odds.
    from math import comb

    book = solved["kept"]
    total = 0.0
    for upcard, p_up in ex.upcard_classes(SHOE):
        left = list(SHOE)
        left[upcard] -= 1
        size = sum(left)
        for hand in _hands(SHOE, upcard):
            if len(hand) != 3:
                continue
            p = 1.0
            for c in set(hand):
                p *= comb(left[c], hand.count(c))
            values, _bound = book.values(hand, upcard)
            forced = sum(BJ_POINTS[c] for c in hand) <= 21 and dp.DRAW in values
            total += p_up * p / comb(size, 3) * (values[dp.DRAW] if forced else values[dp.best_of(values)])
    assert -total / 2 == pytest.approx(solved["combined"]["house_edge"], abs=1e-12)
