"""The rating sessions kept as rounds are recorded, corrected and voided (audit/ratings/writer.py)
equal a rebuild from the raw rounds after any mix of changes, and the ratings read from them
equal the previous computation from raw rows (tests/ratings/reference.py) at the threshold they
were cut with, a longer one (stored sessions join) and a shorter one (the day's table is cut again
from its rounds)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import override_settings
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from audit.ratings.models import RatingDay, RatingSession
from audit.ratings.selectors import day_ratings
from audit.ratings.writer import (
    figures_of,
    rating_days_rebuild,
    ratings_rebuild,
    round_posted_sessions,
    sessions_recompute,
)
from tables.services.rounds import round_correct, round_record, round_void
from tests.examples import examples
from tests.ratings.helpers import DAY, at, pob_round, pob_tables, set_edges
from tests.ratings.reference import previous_day_ratings
from tests.ratings.test_same_as_before import _as_dicts, _mixed_day

pytestmark = pytest.mark.django_db


def stored() -> list[tuple]:
    return sorted((s.gaming_day, s.table_id, s.player, s.start, s.end, s.rounds, s.seconds, s.longest_gap,
                   sorted(figures_of(s.wagers).items())) for s in RatingSession.objects.all())


def stored_days() -> list[tuple]:
    return sorted((d.gaming_day, d.casino_id, d.player, d.rounds, d.sessions, d.seconds, d.threshold,
                   sorted(figures_of(d.wagers).items())) for d in RatingDay.objects.all())


def _same_as_raw(casino_ids) -> None:
    for minutes in (15, 5, 40):  # as cut; shorter (cut again from the rounds); longer (sessions join)
        with override_settings(RATING_GAP_MINUTES=minutes):
            new = day_ratings(casino_ids=casino_ids, first=DAY)
            previous = previous_day_ratings(casino_ids=casino_ids, first=DAY)
            assert _as_dicts(new) == _as_dicts(previous), minutes
            # Without the sessions: the day rows at the threshold they were counted at, else the sessions.
            summed = day_ratings(casino_ids=casino_ids, first=DAY, sessions=False)
            assert _as_dicts(summed, sessions=False) == _as_dicts(previous, sessions=False), minutes


def test_the_kept_sessions_are_a_rebuilds_and_rate_as_the_raw_rows_at_any_threshold():
    casino, _other = _mixed_day()
    kept, days = stored(), stored_days()
    assert kept and days
    RatingSession.objects.all().delete()
    RatingDay.objects.all().delete()
    assert ratings_rebuild() == 6  # (day, table) pairs: T-A on two days, T-B, T-C, T-H, O-1
    assert stored() == kept
    assert stored_days() == days
    _same_as_raw([casino.pk])


def test_the_day_rows_of_kept_sessions_are_rebuilt_by_the_migrations_function():
    _mixed_day()
    days = stored_days()
    RatingDay.objects.all().delete()
    RatingDay.objects.create(gaming_day=DAY, casino_id=days[0][1], player="P-stale", rounds=1, sessions=1,
                             seconds=0, threshold=0, wagers={})
    assert rating_days_rebuild() == len({(d[0], d[1]) for d in days})
    assert stored_days() == days


def test_a_damaged_day_is_repaired_by_its_recompute():
    casino, _other = _mixed_day()
    kept = stored()
    days = stored_days()
    damaged = RatingSession.objects.filter(player="P-2").first()
    RatingSession.objects.filter(pk=damaged.pk).update(rounds=99, wagers={})
    RatingDay.objects.filter(player="P-2").update(rounds=99)
    assert stored() != kept
    sessions_recompute(damaged.gaming_day, [damaged.table_id])
    assert stored() == kept
    assert stored_days() == days


def test_a_round_recorded_out_of_time_order_cuts_its_table_again():
    set_edges()
    boss, (table,) = pob_tables("T-A")
    for when in ("15:00", "15:40", "15:10"):  # the last one recorded late, between the other two
        round_record(table=table, data=pob_round("P-1"), author=boss, at=at(when))
    assert [(s.start, s.end, s.rounds) for s in RatingSession.objects.order_by("start")] == [
        (at("15:00"), at("15:10"), 2), (at("15:40"), at("15:40"), 1)]
    _same_as_raw([table.pit.casino_id])


def test_a_new_round_reads_one_row_set_and_writes_the_session_and_the_day(django_assert_max_num_queries):
    """Recording stays fast: a round's players' sessions of the day are one read; the session
    extended is an update and their day rows one upsert."""
    set_edges()
    boss, (table,) = pob_tables("T-A")
    round_record(table=table, data=pob_round("P-1"), author=boss, at=at("15:00"))
    recorded = round_record(table=table, data=pob_round("P-1"), author=boss, at=at("15:05"))
    with django_assert_max_num_queries(3):
        round_posted_sessions(round=recorded.round, revision=recorded.revision,
                              casino_id=table.pit.casino_id)


record_op = st.tuples(st.just("record"), st.integers(0, 1), st.sampled_from(["P-1", "P-2", "P-3", ""]),
                      st.integers(0, 40), st.sampled_from(["5.00", "10.00", "25.00"]),
                      st.sampled_from(["correct", "underpay"]))
late_op = st.tuples(st.just("late"), st.integers(0, 1), st.sampled_from(["P-1", "P-2"]), st.integers(1, 30))
correct_op = st.tuples(st.just("correct"), st.integers(0, 20), st.sampled_from(["P-1", "P-3"]),
                       st.sampled_from(["10.00", "50.00"]))
void_op = st.tuples(st.just("void"), st.integers(0, 20))
OPS = st.lists(st.one_of(record_op, record_op, record_op, late_op, correct_op, void_op), min_size=1, max_size=12)


def _seat(player: str, stake: str = "10.00", kind: str = "correct") -> dict:
    """A Poker or Bust round of ``player``, or of a seat without an identifier ("")."""
    data = pob_round(player or "x", stake, kind=kind)
    if not player:
        del data["seats"][0]["player"]
    return data


def _apply(op, boss, tables, clocks: list, rounds: list) -> None:
    match op:
        case ("record", t, player, minutes, stake, kind):
            clocks[t] += timedelta(minutes=minutes, microseconds=minutes * 7919)
            rounds.append(round_record(table=tables[t], data=_seat(player, stake, kind), author=boss,
                                       at=clocks[t]).round)
        case ("late", t, player, minutes):
            rounds.append(round_record(table=tables[t], data=pob_round(player), author=boss,
                                       at=clocks[t] - timedelta(minutes=minutes)).round)
        case ("correct", n, player, stake) if rounds:
            rnd = rounds[n % len(rounds)]
            rnd.refresh_from_db()
            round_correct(round=rnd, revision=rnd.revision, data=pob_round(player, stake), reason="a correction",
                          author=boss)
        case ("void", n) if rounds:
            round_void(round=rounds[n % len(rounds)], reason="misdeal", author=boss)


@pytest.fixture
def two_tables(db):
    set_edges()
    return pob_tables("T-A", "T-B")


@settings(max_examples=examples(80, 8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
# Always once: a void that splits a session in two, and a correction that moves the round to another player.
@example(ops=[("record", 0, "P-1", 0, "10.00", "correct"), ("record", 0, "P-1", 10, "10.00", "correct"),
              ("record", 0, "P-1", 10, "10.00", "correct"), ("void", 1), ("correct", 0, "P-3", "50.00")])
def test_the_kept_sessions_equal_a_rebuild_after_any_changes(two_tables, ops):
    boss, tables = two_tables
    with transaction.atomic():
        clocks, rounds = [at("15:00"), at("15:00") + timedelta(microseconds=1)], []
        for op in ops:
            try:
                with transaction.atomic():
                    _apply(op, boss, tables, clocks, rounds)
            except ValidationError:
                pass  # a refused change (a voided round corrected or voided again) changes nothing
        kept, days = stored(), stored_days()
        ratings_rebuild()
        assert stored() == kept
        assert stored_days() == days
        _same_as_raw([tables[0].pit.casino_id])
        transaction.set_rollback(True)


def test_pot_shares_keep_every_digit():
    """A rake share is kept as the exact quotient, not rounded: three players' shares of 1.00 add
    up to 1.00 again when summed, as the computation from raw rows does."""
    from audit.ratings.writer import round_figures

    rows = [(p, "pot", Decimal("1.00"), Decimal("0"), None) for p in ("A", "B", "C")]
    rows.append(("", "rake", Decimal("0"), Decimal("1.00"), None))
    shares = [f["7:pot"][3] for f in round_figures(7, rows).values()]
    assert shares[0] == Decimal(1) / Decimal(3)
    assert sum(shares, Decimal(0)).quantize(Decimal("0.01")) == Decimal("1.00")


def test_the_days_without_sessions_read_the_day_rows_at_their_threshold_and_the_sessions_at_another():
    casino, _other = _mixed_day()
    RatingDay.objects.filter(player="P-2").update(rounds=1234)  # marks what was read

    def rounds_of_p2():
        return {r.rounds for r in day_ratings(casino_ids=[casino.pk], first=DAY, sessions=False)
                if r.identifier == "P-2"}

    assert rounds_of_p2() == {1234}
    with override_settings(RATING_GAP_MINUTES=40):
        assert rounds_of_p2() == {9}
    RatingDay.objects.filter(player="P-2").update(threshold=None)  # a session with a longer gap
    assert rounds_of_p2() == {9}
