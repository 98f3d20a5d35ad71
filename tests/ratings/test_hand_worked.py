"""A rating worked by hand: one player on two tables in one gaming day, with a gap.

Casino: America/New_York, gaming day from 06:00; gaming day 2026-03-02. Times below are UTC
(15:00 UTC = 10:00 EST). Gap threshold: 15 minutes (the default). Edges set as the casino's
assumptions: Poker or Bust Ante 1% (0.01), Odds 5% (0.05). Every round: Ante and Odds of the same
stake; the engine settles the Ante +stake to the player and the Odds -stake, so the player's net
is 0 unless the dealer's recorded pay differs.

Player P-7:
  Table A: 15:00, 15:05, 15:12 (gaps 5 and 7 min)   -> session A1: 3 rounds, 12 min
           15:26 recorded then VOIDED               -> not counted (it would bridge the gap)
           15:40 (28 min after 15:12 > 15: new)     -> session A2 starts
           15:50 underpaid: Ante recorded 0, not +10 -> A2: 2 rounds, 10 min; player net -10
  Table B: 15:45 recorded at 10/10, CORRECTED to 20/20 (only the current revision counts)
           15:55                                    -> session B: 2 rounds, 10 min
  Stakes $10 Ante + $10 Odds, except B 15:45: $20 + $20.

  Theo = stake x edge:
    A1: Ante 30 x 0.01 = 0.30, Odds 30 x 0.05 = 1.50            -> 1.80; actual 0.00
    A2: Ante 20 x 0.01 = 0.20, Odds 20 x 0.05 = 1.00            -> 1.20; actual 10.00 (house: -(-10))
    B : Ante 30 x 0.01 = 0.30, Odds 30 x 0.05 = 1.50            -> 1.80; actual 0.00
  Day: 7 rounds; Ante 7 wagers, 80.00, average 80/7 = 11.43, theo 0.80; Odds the same, theo 4.00;
       theo 4.80, actual 10.00, average bet per round 160/7 = 22.86.
  Time on game: A1 15:00-15:12 (12) + A2 15:40-15:50 and B 15:45-15:55 overlap -> 15:40-15:55 (15)
       = 27 minutes (not 12 + 10 + 10 = 32: the overlap counts once).
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import override_settings

from audit.ratings.selectors import day_ratings, player_ratings
from tests.ratings.helpers import DAY, at, worked_day

D = Decimal


@pytest.fixture
def worked(db):
    return worked_day()


def _summary(session):
    return (session.table_label, session.start, session.end, session.rounds, session.seconds // 60,
            session.theo, session.actual)


def test_sessions_and_day(worked):
    [day] = player_ratings(player=worked["player"], first=DAY)
    assert day.player == worked["player"]
    assert [_summary(s) for s in day.sessions] == [
        ("T-A", at("15:00"), at("15:12"), 3, 12, D("1.80"), D("0.00")),
        ("T-A", at("15:40"), at("15:50"), 2, 10, D("1.20"), D("10.00")),
        ("T-B", at("15:45"), at("15:55"), 2, 10, D("1.80"), D("0.00")),
    ]
    assert (day.rounds, day.minutes, day.theo, day.actual, day.average_bet) == (7, 27, D("4.80"), D("10.00"),
                                                                                 D("22.86"))
    ante, odds = day.wager_list()
    assert (ante.wager, ante.count, ante.stake, ante.average, ante.theo) == ("ante", 7, D("80.00"), D("11.43"),
                                                                             D("0.8000"))
    assert (odds.wager, odds.count, odds.stake, odds.average, odds.theo) == ("odds", 7, D("80.00"), D("11.43"),
                                                                             D("4.0000"))
    # Actual per wager type: the house paid every Ante but the underpaid one (10+10+10+10+0 at A,
    # 20+10 at B = 70: -70.00) and took every Odds (80.00): 10.00 in all.
    assert ante.actual == D("-70.00") and odds.actual == D("80.00")


def test_top_of_the_day_sorts_by_theo_and_marks_the_unregistered(worked):
    ratings = day_ratings(casino_ids=[worked["a"].pit.casino_id], first=DAY)
    # P-9: one round, Ante 50 x 0.01 + Odds 50 x 0.05 = 0.50 + 2.50 = 3.00 < 4.80.
    assert [(r.identifier, r.theo, r.player is not None) for r in ratings] == [
        ("P-7", D("4.80"), True), ("P-9", D("3.00"), False)]


@override_settings(RATING_GAP_MINUTES=30)
def test_a_longer_threshold_joins_the_sessions(worked):
    [day] = player_ratings(player=worked["player"], first=DAY)
    # 15:12 -> 15:40 is 28 minutes <= 30: table A is one session 15:00-15:50 (50 min), and table B's
    # 15:45-15:55 adds 5 minutes beyond it: 55.
    assert [(s.table_label, s.rounds, s.minutes) for s in day.sessions] == [("T-A", 5, 50), ("T-B", 2, 10)]
    assert day.minutes == 55


def test_another_day_or_casino_rates_nothing(worked):
    from datetime import timedelta

    assert player_ratings(player=worked["player"], first=DAY + timedelta(days=1)) == []
    assert day_ratings(casino_ids=[], first=DAY) == []


def test_the_number_of_queries_does_not_grow_with_rounds(worked, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables.models import Round

    player_ratings(player=worked["player"], first=DAY)  # the engine's exact odds are cached on first use
    with CaptureQueriesContext(connection) as before:
        player_ratings(player=worked["player"], first=DAY)
    assert len(before) <= 8
    from tests.ratings.helpers import pob_round, record

    boss = Round.objects.filter(table=worked["a"]).first().recorded_by
    for minute in range(0, 30, 2):
        record(worked["a"], boss, f"17:{minute:02d}", pob_round("P-7"))
    with django_assert_max_num_queries(len(before)):
        [day] = player_ratings(player=worked["player"], first=DAY)
    assert day.rounds == 7 + 15
