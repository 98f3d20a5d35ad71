"""Structuring flags: several transactions just under a threshold, and a threshold passed only
when summed across tables or shifts."""

from __future__ import annotations

import pytest

from audit.compliance.models import CASH_IN, CASH_OUT
from audit.compliance.selectors import structuring_flags
from tests.compliance.helpers import DAY, t31_floor

pytestmark = pytest.mark.django_db


def _flags(f):
    return [(fl.identifier, fl.direction, fl.kind, fl.threshold) for fl in structuring_flags(f.casino, DAY)]


def test_two_buy_ins_within_ten_percent_under_the_ctr_threshold_are_flagged():
    f = t31_floor()
    # 9,000.00 is the band's floor (10% under 10,000) and 10,000.00 its top: both count as near.
    f.cash_in(f.bj1, "9000.00", "S-1", hours=1)
    f.cash_in(f.bj1, "9999.00", "S-1", hours=2)
    assert ("S-1", CASH_IN, "near", "CTR") in _flags(f)
    near = next(fl for fl in structuring_flags(f.casino, DAY) if fl.kind == "near" and fl.threshold == "CTR")
    assert len(near.transactions) == 2 and "9,000.00 and 10,000.00" in near.detail


def test_one_near_transaction_or_one_just_below_the_band_is_not_a_pattern():
    f = t31_floor()
    f.cash_in(f.bj1, "8999.99", "S-2", hours=1)  # below the band
    f.cash_in(f.bj1, "9500.00", "S-2", hours=2)  # one near transaction only
    assert [x for x in _flags(f) if x[2] == "near" and x[3] == "CTR"] == []


def test_near_the_mtl_threshold_at_two_tables_is_flagged_too():
    f = t31_floor()
    f.cash_in(f.bj1, "2800.00", "S-3", hours=1)
    f.cash_in(f.bj2, "2950.00", "S-3", hours=2)
    assert ("S-3", CASH_IN, "near", "MTL") in _flags(f)


def test_a_total_over_the_ctr_threshold_only_across_tables_is_flagged_split():
    f = t31_floor()
    f.cash_in(f.bj1, "6000.00", "S-4", hours=1)
    f.cash_in(f.bj2, "5000.00", "S-4", hours=1.5)  # the same shift, another table
    flags = _flags(f)
    assert ("S-4", CASH_IN, "split", "CTR") in flags
    split = next(fl for fl in structuring_flags(f.casino, DAY) if fl.kind == "split" and fl.threshold == "CTR")
    assert "BJ-1, BJ-2" in split.detail


def test_a_total_over_the_threshold_only_across_shifts_at_one_table_is_flagged_split():
    f = t31_floor()
    f.cash_in(f.bj1, "6000.00", "S-5", hours=1)  # day shift
    f.cash_in(f.bj1, "5000.00", "S-5", hours=17)  # graveyard shift, same table
    assert ("S-5", CASH_IN, "split", "CTR") in _flags(f)


def test_no_split_flag_when_one_table_alone_passes_or_one_place_and_shift_holds_it_all():
    f = t31_floor()
    f.cash_in(f.bj1, "10500.00", "S-6", hours=1)
    f.cash_in(f.bj2, "500.00", "S-6", hours=2)  # BJ-1 alone passes: a CTR, not structuring
    f.cash_in(f.bj1, "6000.00", "S-7", hours=1)
    f.cash_in(f.bj1, "5000.00", "S-7", hours=2)  # one table, one shift
    assert [x for x in _flags(f) if x[2] == "split" and x[3] == "CTR"] == []


def test_cash_outs_split_across_shifts_at_the_cage_are_flagged():
    f = t31_floor()
    f.cash_out("6000.00", "S-8", hours=2)
    f.cash_out("6000.00", "S-8", hours=10)
    assert ("S-8", CASH_OUT, "split", "CTR") in _flags(f)
