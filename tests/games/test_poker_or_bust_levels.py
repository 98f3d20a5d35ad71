"""Poker or Bust's whole game solved a card count at a time
(tables/games/poker_or_bust/player_levels.py): the recursion's figures on any short shoe, one
hand per relabelling where the suits are alike, and the dense reads of the dealer's tables the
walk's, within their bound when fewer shared cards are read."""

from __future__ import annotations

from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games.poker_or_bust import exact as ex
from tables.games.poker_or_bust import player_levels as pl
from tables.games.poker_or_bust.dealer_moments import MOST_SHARED, DealerMoments, counted
from tables.games.vocabulary.cards import make_card
from tests.examples import examples
from tests.games.test_poker_or_bust_exact import INVERTED, PAY, SMALL, TENS, shoe_of
from tests.games.test_poker_or_bust_moments import _exact, hands_against_a_short_shoe


def _every(n: int) -> int:
    return MOST_SHARED


def _levels(shoe, table, **kw):
    return ex.level_edge(shoe, table, order=MOST_SHARED, read_order=_every, **kw)


@st.composite
def short_shoes(draw):
    """Eight ten-values and two to four small cards, some of them twice."""
    smalls = draw(st.lists(st.sampled_from(SMALL), min_size=2, max_size=4))
    return shoe_of(list(TENS) + smalls)


def _same_figures(got: dict, want: dict) -> None:
    for wager in ("ante", "odds", "combined"):
        for fig in ("house_edge", "variance"):
            assert got[wager][fig] == pytest.approx(want[wager][fig], abs=1e-9), (wager, fig)
    assert got["draw_on_three"] == pytest.approx(want["draw_on_three"], abs=1e-9)
    assert got["error"] == 0.0


@settings(max_examples=examples(25, 4), deadline=None)
@given(short_shoes(), st.sampled_from([PAY, INVERTED]))
def test_the_levels_give_the_recursions_figures_on_any_short_shoe(shoe, table):
    # The recursion (exact.optimal_edge) is held to a brute force that deals the hole card
    # first; the levels reach only the hands at 22 or more (every hand under the inverted
    # table), weighing each by the chance the player first decides there.
    _same_figures(_levels(shoe, table), ex.optimal_edge(shoe, table))


#: Two ten-value ranks and Aces and 2s in all four suits: the three suits other than the
#: upcard's are alike, so the solve relabels them.
ALIKE = [make_card(r, s) for r in (1, 2, 10, 12) for s in range(4)]


def test_where_the_other_suits_are_alike_one_hand_per_relabelling_is_priced():
    want = ex.optimal_edge(shoe_of(ALIKE), PAY)
    got = _levels(shoe_of(ALIKE), PAY)
    _same_figures(got, want)
    # every relabelling switched off: every hand priced, the same figures
    every = _levels(shoe_of(ALIKE), PAY, relabel=False)
    _same_figures(every, want)
    assert 3 * got["hands"] < every["hands"]


def test_a_whole_shoe_solves_one_upcard_a_rank():
    classes = ex.upcard_classes(ex.full_shoe(6))
    assert [u for u, _p in classes] == [4 * r for r in range(13)]
    assert sum(p for _u, p in classes) == pytest.approx(1.0, abs=1e-15)
    uneven = shoe_of(ALIKE + [make_card(1, 0)])
    assert [u for u, _p in ex.upcard_classes(uneven)] == [0, 1, 2, 3, 4, 36, 44]


@settings(max_examples=examples(80, 10), deadline=None)
@given(hands_against_a_short_shoe(), st.integers(1, 3))
def test_the_dense_reads_of_the_card_keys_are_the_walks(state, order):
    shoe, upcard, hand = state
    tables = DealerMoments(shoe, upcard, order=3)
    sized = tables.sized(len(hand), order)
    sized.dense()
    ranks, cards = counted(hand)
    for v, _mean, _nonzero in _exact(shoe, upcard, hand):
        want = sized.ante(ranks, cards, v)
        mean, nonzero, error = sized.rank_part(ranks, v)
        sized.card_part(array("q", [c for c, _k in cards]), array("q", [k for _c, k in cards]), len(cards), v)
        assert mean + sized.mean == pytest.approx(want[0], abs=1e-12)
        assert nonzero + sized.nonzero == pytest.approx(want[1], abs=1e-12)
        assert error == want[2]


@settings(max_examples=examples(80, 10), deadline=None)
@given(hands_against_a_short_shoe(), st.integers(0, 2))
def test_reads_of_fewer_shared_cards_than_the_tables_keep_stay_within_their_bound(state, order):
    shoe, upcard, hand = state
    tables = DealerMoments(shoe, upcard, order=3)
    sized = tables.sized(len(hand), order)
    ranks, cards = counted(hand)
    for v, want_mean, want_nonzero in _exact(shoe, upcard, hand):
        mean, nonzero, bound = sized.ante(ranks, cards, v)
        assert abs(mean - want_mean) <= bound + 1e-12
        assert abs(nonzero - want_nonzero) <= bound + 1e-12


def test_the_whole_game_read_to_fewer_shared_cards_is_within_the_bound_it_reports():
    shoe = shoe_of(list(TENS) + [make_card(1, 0), make_card(1, 1), make_card(2, 0), make_card(2, 0),
                                 make_card(3, 1), make_card(4, 2)])
    want = ex.optimal_edge(shoe, PAY)
    got = ex.level_edge(shoe, PAY, order=3, read_order=lambda n: 1)
    assert got["error"] > 1e-6  # the truncation is real
    # the best of two values each within its bound is within the larger bound: the round's
    # total (Ante + Odds), not each wager, where a decision could turn on the truncation
    total = got["combined"]["house_edge"] - want["combined"]["house_edge"]
    assert 0 < abs(2 * total) <= got["error"] + 1e-12


def test_a_watched_hand_is_worth_what_the_recursion_gives_it():
    # The levels keep no hand once its count is passed; a watched one is kept with its decision.
    shoe = shoe_of(ALIKE)
    upcard = make_card(10, 0)
    hands = [(make_card(12, 1), make_card(10, 2), make_card(2, 3)), (make_card(12, 1), make_card(10, 1), make_card(2, 1)),
             (make_card(1, 1), make_card(1, 2), make_card(2, 1), make_card(10, 3), make_card(12, 2))]
    s = pl.LevelSolver(shoe, upcard, ex._OddsNet(ex.odds_units(PAY)), monotone=True, order=MOST_SHARED,
                       read_order=_every, watch=hands)
    s.solve()
    recursion = ex.solver(shoe, upcard, PAY)
    for hand in hands:
        action, best, _other = recursion.best(tuple(sorted(hand)))
        moments, drew = s.watched[tuple(sorted(hand))]
        assert drew == (action == ex.DRAW), hand
        assert moments[0] == pytest.approx(best.ante, abs=1e-12) and moments[1] == pytest.approx(best.odds, abs=1e-12)


def test_two_processes_give_one_process_figures():
    one = ex.level_edge(shoe_of(ALIKE), PAY)
    two = ex.level_edge(shoe_of(ALIKE), PAY, jobs=2)
    assert two == one


def test_the_gamemath_command_solves_the_game_when_told_it_may_take_long(monkeypatch):
    import json
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    monkeypatch.setattr(ex, "full_shoe", lambda decks: shoe_of(ALIKE))
    monkeypatch.setattr(ex, "LEVEL_BUDGET", 10)  # as a whole shoe is: beyond what a task may run
    with pytest.raises(CommandError, match=r"player hands to solve.*CPU-hours.*--long"):
        call_command("gamemath", "edge", "--game", "poker_or_bust", "--json")
    out, err = StringIO(), StringIO()
    call_command("gamemath", "edge", "--game", "poker_or_bust", "--long", "--json", stdout=out, stderr=err)
    got = json.loads(out.getvalue())["wagers"]
    want = ex.level_edge(shoe_of(ALIKE), PAY)
    assert got["ante"]["method"] == "exact"
    assert got["ante"]["house_edge"] == want["ante"]["house_edge"]
    assert got["odds"]["house_edge"] == want["odds"]["house_edge"]
    assert got["ante"]["exact"]["hands_priced"] == want["hands"]
    assert "hands of 3 cards done" in err.getvalue()  # progress on stderr, the JSON alone on stdout
