"""The dealer against any player hand from tables built once per upcard
(tables/games/poker_or_bust/dealer_moments.py): the full inclusion-exclusion is the dealer drawn
from the shoe less the player's cards, card by card; kept to fewer shared cards it stays within
the bound it reports, on short shoes, one deck and six."""

from __future__ import annotations

from decimal import Decimal
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games.poker_or_bust import exact as ex
from tables.games.poker_or_bust import three_card_poker as tcp
from tables.games.poker_or_bust.dealer import dealer_outcome
from tables.games.poker_or_bust.dealer_moments import MOST_SHARED, DealerMoments, _decode, _Walk
from tables.games.poker_or_bust.exact import full_shoe, parse_hand
from tables.games.settings import paytables as pt
from tests.examples import examples
from tests.games.test_poker_or_bust_exact import PAY, SHORT, TENS, _card_pass, shoe_of

#: Enough shared cards that nothing is left out on a short shoe: the expansion is exact.
EVERY = MOST_SHARED


@st.composite
def hands_against_a_short_shoe(draw):
    """A short shoe (eight ten-values and up to 22 cards of any rank and suit), an upcard from
    it, and a player hand of three to six of the other cards (never a ten-value of the eight,
    so that the dealer cannot run out)."""
    extra = draw(st.lists(st.integers(0, 51), min_size=6, max_size=22))
    cards = list(TENS) + extra
    upcard = draw(st.sampled_from(cards))
    pool = list(extra)
    if upcard in pool:
        pool.remove(upcard)
    hand = draw(st.lists(st.sampled_from(range(len(pool))), min_size=3, max_size=min(6, len(pool)), unique=True))
    return shoe_of(cards), upcard, [pool[i] for i in hand]


def _exact(shoe, upcard, hand) -> list[tuple[int, float, float]]:
    """(value, Ante mean, P(not a push)) of a player standing with ``hand`` at every value that
    compares differently with the dealer's (and the hand's own), by the card-by-card pass."""
    left = list(shoe)
    for c in (upcard, *hand):
        left[c] -= 1
    bust, dist = _card_pass(left, upcard)
    out = []
    for v in sorted({0, tcp.best_value(hand), *dist, *(w + 1 for w in dist), 1 << 15}):
        below = sum(p for w, p in dist.items() if w < v)
        above = sum(p for w, p in dist.items() if w > v)
        out.append((v, bust + below - above, bust + below + above))
    return out


class _Listing(_Walk):
    """The walk's visits, listed: what the build and the reads are handed."""

    def __init__(self) -> None:
        super().__init__(53)
        self.seen: list[tuple[tuple[int, ...], int, float]] = []

    def _visit(self, code: int, size: int, w: float) -> None:
        self.seen.append((_decode(code, 53), size, w))


def test_the_walk_visits_every_sub_multiset_once_with_the_product_of_its_factors():
    parts = [(2, (1.0, 0.5, 0.25)), (7, (1.0, 3.0)), (9, (1.0, -2.0, 5.0, 7.0))]
    for most in range(0, 7):
        walk = _Listing()
        walk.load(parts)
        walk.walk(0, 0, 0, 1.0, most)
        assert all(len(key) == size for key, size, _w in walk.seen)
        got = [(key, w) for key, _size, w in walk.seen]
        want = {}
        for ts in product(*(range(len(f)) for _x, f in parts)):
            if sum(ts) <= most:
                w = 1.0
                for (_x, f), t in zip(parts, ts, strict=True):
                    w *= f[t]
                want[tuple(x for (x, _f), t in zip(parts, ts, strict=True) for _ in range(t))] = w
        assert [k for k, _w in got][0] == ()
        assert len(got) == len(want)
        assert dict(got) == pytest.approx(want)


@settings(max_examples=examples(120, 15), deadline=None)
@given(hands_against_a_short_shoe())
def test_every_shared_card_kept_is_the_dealer_drawn_from_the_shoe_less_the_hand(state):
    shoe, upcard, hand = state
    tables = DealerMoments(shoe, upcard, order=EVERY)
    for v, want_mean, want_nonzero in _exact(shoe, upcard, hand):
        mean, nonzero, bound = tables.ante(hand, v)
        assert bound == 0.0
        assert mean == pytest.approx(want_mean, abs=1e-12)
        assert nonzero == pytest.approx(want_nonzero, abs=1e-12)


@settings(max_examples=examples(120, 15), deadline=None)
@given(hands_against_a_short_shoe(), st.integers(0, 3))
def test_fewer_shared_cards_kept_stay_within_the_bound_they_report(state, order):
    shoe, upcard, hand = state
    tables = DealerMoments(shoe, upcard, order=order)
    for v, want_mean, want_nonzero in _exact(shoe, upcard, hand):
        mean, nonzero, bound = tables.ante(hand, v)
        assert abs(mean - want_mean) <= bound + 1e-12
        assert abs(nonzero - want_nonzero) <= bound + 1e-12


def test_one_suit_draw_per_orbit_of_the_other_suits_gives_the_tables_of_every_draw():
    # a deck without its 6s to 9s (fewer final hands, the same suits): the three suits other
    # than the upcard's are interchangeable
    shoe, up = list(full_shoe(1)), parse_hand("KD")[0]
    for card in range(4 * 5, 4 * 9):
        shoe[card] = 0
    orbits, every = DealerMoments(shoe, up), DealerMoments(shoe, up, suit_orbits=False)
    assert orbits._alike != every._alike
    assert orbits.ranks == every.ranks and orbits.bound == every.bound
    assert set(orbits.suits) == set(every.suits)
    for key, per_n in every.suits.items():
        assert set(orbits.suits[key]) == set(per_n)
        for n, term in per_n.items():
            got = orbits.suits[key][n]
            assert got.bust == pytest.approx(term.bust, abs=1e-14)
            assert got.standing == pytest.approx(term.standing, abs=1e-14)
            for v in {*term.values, *got.values}:
                assert got.ante(v) == pytest.approx(term.ante(v), abs=1e-14)


HANDS = ("7S,5H,4C,8D", "TS,9H,4C", "AS,AH,2S,2H,3C,3D,4D,9C", "KS,QS,5S,9H", "2S,3S,4S,5S,6S,8H")


def _within_bound(decks: int, upcard: str, hands) -> list[tuple[float, float]]:
    """(error, bound) of each hand against the dealer's exact pass: the larger error of its Ante
    mean and its chance of not pushing."""
    shoe = list(full_shoe(decks))
    up = parse_hand(upcard)[0]
    tables = DealerMoments(shoe, up)
    out = []
    for text in hands:
        hand = parse_hand(text)
        left = list(shoe)
        for c in (up, *hand):
            left[c] -= 1
        value = tcp.best_value(hand)
        mean, nonzero, bound = tables.ante(hand, value)
        exact_mean, exact_nonzero = dealer_outcome(left, up).ante(value)
        assert abs(mean - exact_mean) <= bound + 1e-12
        assert abs(nonzero - exact_nonzero) <= bound + 1e-12
        out.append((max(abs(mean - exact_mean), abs(nonzero - exact_nonzero)), bound))
    return out


def test_one_deck_three_shared_cards_stay_within_a_bound_that_is_not_idle():
    hands = [h for h in HANDS if len(set(parse_hand(h))) == len(parse_hand(h))]  # one deck: no repeats
    got = _within_bound(1, "KD", hands)
    # the eight-card hand has four ranks the dealer can all hold: the truncation is real and
    # the bound is within a factor two of it
    error, bound = max(got, key=lambda eb: eb[1])
    assert 1e-4 < error <= bound < 2 * error


@pytest.mark.slow
@pytest.mark.xdist_group("poker-or-bust-6d")
def test_six_decks_with_a_king_up_are_within_their_bound_and_it_is_below_a_millionth():
    got = _within_bound(6, "KD", HANDS)
    assert max(bound for _e, bound in got) < 1e-6
    assert max(error for error, _b in got) > 1e-9  # the long hand's truncation is seen


# --- the solver's choice: a dealer pass per stand, or the tables ----------------------------


def _decision(monkeypatch, decks: int, hand: str, upcard: str, *, tables: bool) -> dict:
    if tables:  # whatever either would cost
        monkeypatch.setattr(ex, "TABLES_FROM", -1)
        monkeypatch.setattr(ex, "build_size", lambda shoe, upcard: 0)
    pay = {k: Decimal(v) for k, v in pt.POKER_OR_BUST_ODDS_PAYTABLE.items()}
    return ex.decision_evs(ex.full_shoe(decks), pay, parse_hand(hand), parse_hand(upcard)[0])


def test_a_decision_priced_from_the_tables_is_the_passes_decision_within_the_precision_it_reports(monkeypatch):
    # one deck, a King up: seven small cards at 28 (the dealer may hold four of their ranks), a
    # draw to 29, 30 or 31 at most: a handful of stands
    passes = _decision(monkeypatch, 1, "AS,2H,3C,4D,5S,6H,7C", "KD", tables=False)
    tables = _decision(monkeypatch, 1, "AS,2H,3C,4D,5S,6H,7C", "KD", tables=True)
    assert passes["precision"] == 1e-12
    assert 1e-12 < tables["precision"] < 1e-3
    assert tables["best"] == passes["best"]
    for action, ev in passes["actions"].items():
        assert abs(tables["actions"][action] - ev) <= tables["precision"] + 1e-12


def test_six_decks_choose_the_tables_where_the_passes_are_too_many_and_refuse_where_both_are(monkeypatch):
    def route(hand: str, upcard: str) -> ex.Solver:
        s = ex.solver(ex.full_shoe(6), parse_hand(upcard)[0], pt.POKER_OR_BUST_ODDS_PAYTABLE)
        s.check_size([tuple(sorted(parse_hand(hand)))])
        return s

    assert not route("TS,TH,9C,2D", "QD")._use_tables  # one stand: one pass
    assert route("TS,9H,4C", "KD")._use_tables  # thousands of stands against a King: the tables
    assert route("TS,9H,4C", "7D")._use_tables  # and against a 7 (13 million suit draws)
    assert route("TS,9H,4C", "AD")._use_tables  # and an Ace (272 million)
    monkeypatch.setattr(ex, "MAX_TABLE_BUILD", 100_000_000)
    with pytest.raises(ex.TooLarge, match=r"would enumerate 272,110,242 suit draws.*too large for exact enumeration"):
        route("TS,9H,4C", "AD")  # both beyond their budgets


def test_the_gamemath_command_prints_a_tables_priced_decision_with_its_precision(monkeypatch, db):
    import io
    import json

    from django.core.management import call_command

    def command() -> dict:
        out = io.StringIO()
        call_command("gamemath", "decision", "--game", "poker_or_bust", "--rules", '{"decks": 1}',
                     "--hand", "AS,2H,3C,4D,5S,6H,7C", "--upcard", "KD", "--json", stdout=out)
        return json.loads(out.getvalue())

    passes = command()
    monkeypatch.setattr(ex, "TABLES_FROM", -1)
    monkeypatch.setattr(ex, "build_size", lambda shoe, upcard: 0)
    tables = command()
    assert passes["precision"] == 1e-12 and 1e-12 < tables["precision"] < 1e-3
    assert tables["best"] == passes["best"] == "stand"
    for action, ev in passes["actions"].items():
        assert abs(tables["actions"][action] - ev) <= tables["precision"] + 1e-11  # printed to 1e-12


@pytest.mark.slow
@pytest.mark.xdist_group("poker-or-bust-6d")
def test_six_decks_fit_three_cards_at_15_in_the_solvers_budget():
    # 786,025 player hands, priced in about 44 s (at 12 they are beyond the budget: the refusal
    # and its reason are tested with a lower budget, the walk to a million hands costing 5 s)
    s = ex.solver(ex.full_shoe(6), parse_hand("KD")[0], pt.POKER_OR_BUST_ODDS_PAYTABLE)
    s.check_size([tuple(sorted(parse_hand("TS,3H,2C")))])
    assert s._use_tables


@pytest.mark.slow
@pytest.mark.xdist_group("poker-or-bust-6d")
def test_a_six_deck_decision_stands_where_the_exact_dealer_pass_stands():
    # nothing patched: the tables the solver chose price the stand; one exact dealer pass of the
    # shoe less the player's cards prices it again
    hand, up = parse_hand("TS,9H,4C"), parse_hand("KD")[0]
    pay = {k: Decimal(v) for k, v in pt.POKER_OR_BUST_ODDS_PAYTABLE.items()}
    got = ex.decision_evs(ex.full_shoe(6), pay, hand, up)
    assert got["best"] == "draw" and got["precision"] < 1e-6
    passes = ex.solver(ex.full_shoe(6), up, pt.POKER_OR_BUST_ODDS_PAYTABLE)
    stand = passes.stand(tuple(sorted(hand)))
    assert not passes._use_tables
    assert abs(got["actions"]["stand"] - stand.total) <= got["precision"] + 1e-12


def test_the_whole_game_priced_from_the_tables_is_within_the_bound_it_reports(monkeypatch):
    passes = ex.optimal_edge(shoe_of(SHORT), PAY)
    monkeypatch.setattr(ex, "TABLES_FROM", -1)
    monkeypatch.setattr(ex, "build_size", lambda shoe, upcard: 0)
    tables = ex.optimal_edge(shoe_of(SHORT), PAY)
    assert passes["error"] == 0.0 and tables["error"] > 1e-12  # a short shoe: the truncation shows
    # the round's optimal value (Ante + Odds) is the better of two values each within its bound
    value = {name: got["ante"]["house_edge"] + got["odds"]["house_edge"] for name, got in
             (("passes", passes), ("tables", tables))}
    assert abs(value["tables"] - value["passes"]) <= tables["error"] + 1e-12

    class Rules:
        decks = 1
        odds_paytable = PAY

    # the whole game solved a card count at a time, as `gamemath edge` does, reads the tables
    # to fewer shared cards for the long hands: within its own bound, reported as its precision
    monkeypatch.setattr(ex, "full_shoe", lambda decks: shoe_of(SHORT))
    levels = ex.level_edge(shoe_of(SHORT), PAY)
    total = levels["ante"]["house_edge"] + levels["odds"]["house_edge"]
    assert levels["error"] > 1e-12 and abs(total - value["passes"]) <= levels["error"] + 1e-12
    entry = ex.edge_wagers(Rules)[ex.ANTE]["exact"]
    assert entry["precision"] == f"within {levels['error']:.2g} of the exact figure (the dealer's tables' bound, over every hand stood)"


@settings(max_examples=examples(60, 10), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 53 ** 3), st.integers(0, 1 << 20), st.floats(-1, 1)), max_size=2000),
       st.integers(0, 3))
def test_the_builds_cells_sum_what_is_added_to_each_key_and_slot_through_growth_and_draining(adds, repeat):
    # every add made up to four times (one cell summed), then 40,000 cells more: both tables grow
    from tables.games.poker_or_bust.dealer_moments import _Cells

    adds = adds * (repeat + 1) + [(k, 7, 0.5) for k in range(40_000)]
    local, into = _Cells(), _Cells()
    want: dict[tuple[int, int], float] = {}
    for key, slot, x in adds:
        local.add(key, slot, x)
        want[(key, slot)] = want.get((key, slot), 0.0) + x
    local.drain(into)
    assert local.used == 0 and list(local.items()) == []
    got = {(k, s): v for k, s, v in into.items()}
    assert got.keys() == want.keys()
    for cell, x in want.items():
        assert got[cell] == pytest.approx(x, abs=1e-9)
