"""The day's rounds read from the database: current revisions, voids left out, shoes split at a
dealer change and a new session, and the players judged."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from audit.advantage.count import NEW_DEALER, NEW_SESSION
from audit.advantage.selectors import (
    CLEAR,
    FLAG,
    FLAT_BET,
    TOO_FEW,
    WATCH,
    Thresholds,
    advantage_day,
    day_rounds,
)
from tables.services.rounds import round_correct, round_record, round_void
from tables.services.sessions import (
    table_session_close,
    table_session_dealer_change,
    table_session_open,
)
from tests.advantage.helpers import blackjack_round, dealt_day, table_with_decks
from tests.factories import DealerFactory, user_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def pitboss():
    return user_with_role("pit_boss")


def _record(table, rounds, author):
    return [round_record(table=table, data=data, author=author).round for data in rounds]


def test_counts_from_the_database_match_the_hand_worked_sequence(pitboss):
    table, dealer = table_with_decks(1)
    session = table_session_open(table=table, dealer=dealer, author=pitboss)
    rounds = _record(table, [
        blackjack_round(["QH", "7C"], [("P-1", "10.00", ["9S", "9D"])]),            # -1 after
        blackjack_round(["5H", "6C"], [("P-1", "20.00", ["2S", "3D"]), (None, "10.00", ["TD", "4H"])]),  # +4: +3
        blackjack_round(["AS", "KD"], [("P-1", "40.00", ["8H", "8C"])]),            # -2: +1
    ], pitboss)
    day = advantage_day(rounds[0].gaming_day, casinos=None)
    assert day.rounds == 3 and day.shoes == 1
    (row,) = day.rows  # the seat without a player is not a row, but its cards counted
    assert row.player == "P-1"
    assert [(p.running_count, round(p.true_count, 4), p.bet) for p in row.pairs] == [
        (0, 0.0, Decimal("10.00")), (-1, -1.0833, Decimal("20.00")), (3, 3.7143, Decimal("40.00"))]
    assert row.signal == TOO_FEW and row.correlation is None
    assert row.spread == Decimal("4.00") and row.mean_bet_low == Decimal("15.00")
    assert row.mean_bet_high == Decimal("40.00")

    # A correction replaces the round's cards (current revision only): round 1 now counts +1.
    round_correct(round=rounds[0], revision=1, reason="cards misread",
                  data=blackjack_round(["2H", "7C"], [("P-1", "10.00", ["9S", "9D"])]), author=pitboss)
    assert [p.running_count for p in advantage_day(rounds[0].gaming_day, casinos=None).rows[0].pairs] == [0, 1, 5]

    # A voided round's cards do not count: void round 2 and round 3 sees only round 1's +1.
    round_void(round=rounds[1], reason="recorded at the wrong table", author=pitboss)
    pairs = advantage_day(rounds[0].gaming_day, casinos=None).rows[0].pairs
    assert [(p.sequence, p.running_count) for p in pairs] == [(1, 0), (3, 1)]
    assert session.pk == rounds[0].session_id


def test_a_dealer_change_and_a_reopened_table_start_new_shoes(pitboss):
    table, dealer = table_with_decks(6)
    session = table_session_open(table=table, dealer=dealer, author=pitboss)
    one = blackjack_round(["2H", "3H"], [("P-1", "10.00", ["4H", "5H"])])  # +4 each round
    _record(table, [one, one], pitboss)
    table_session_dealer_change(session=session, dealer=DealerFactory(casino=table.pit.casino), author=pitboss)
    _record(table, [one, one], pitboss)
    table_session_close(session=session, author=pitboss)
    table_session_open(table=table, dealer=dealer, author=pitboss)
    last = _record(table, [one], pitboss)[-1]
    counted = day_rounds(last.gaming_day, casinos=None)
    from audit.advantage.count import walk

    walked = list(walk(counted))
    assert [c.running_count for c in walked] == [0, 4, 0, 4, 0]
    assert [c.new_shoe_reason for c in walked][2:] == [NEW_DEALER, None, NEW_SESSION]
    assert advantage_day(last.gaming_day, casinos=None).shoes == 3


def test_a_counter_is_flagged_and_a_flat_or_random_bettor_is_not(pitboss):
    table, dealer = table_with_decks(6)
    table_session_open(table=table, dealer=dealer, author=pitboss)
    rounds = _record(table, dealt_day(36, seed=7), pitboss)
    day = advantage_day(rounds[0].gaming_day, casinos=None, thresholds=replace(Thresholds.from_settings(), lower_bound=0.3, min_rounds=30))
    rows = {r.player: r for r in day.rows}
    counter, flat, rand = rows["P-COUNTER"], rows["P-FLAT"], rows["P-RANDOM"]
    assert counter.n == 36 and counter.signal == FLAG, (counter.correlation, counter.signal)
    assert counter.correlation.low > 0.3
    assert counter.mean_bet_high > counter.mean_bet_low
    assert flat.signal == FLAT_BET and flat.spread == Decimal("1.00")
    assert rand.signal == CLEAR, rand.correlation
    assert day.rows[0].player == "P-COUNTER"  # flagged first
    # The same counter over fewer rounds than the minimum is only watched.
    fewer = advantage_day(rounds[0].gaming_day, casinos=None, thresholds=replace(Thresholds.from_settings(), lower_bound=0.3, min_rounds=40))
    assert {r.player: r.signal for r in fewer.rows}["P-COUNTER"] == WATCH


def test_other_days_and_other_casinos_are_not_read(pitboss):
    table, dealer = table_with_decks(6)
    table_session_open(table=table, dealer=dealer, author=pitboss)
    (rnd,) = _record(table, [blackjack_round(["2H", "3H"], [("P-1", "10.00", ["4H", "5H"])])], pitboss)
    assert advantage_day(rnd.gaming_day, casinos=frozenset()).rounds == 0
    assert advantage_day(rnd.gaming_day, casinos={table.pit.casino_id}).rounds == 1
    from datetime import timedelta

    assert advantage_day(rnd.gaming_day - timedelta(days=1), casinos=None).rounds == 0
    assert advantage_day(rnd.gaming_day, casinos=None, table_id=table.pk + 1000).rounds == 0
