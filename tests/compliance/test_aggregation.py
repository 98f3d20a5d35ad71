"""The MTL and the CTR, worked by hand: cash in (cash buy-ins at any table) and cash out (the
cage) per patron per gaming day, each direction on its own; strict thresholds at their edges."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from audit.compliance.models import CASH_IN, CASH_OUT
from audit.compliance.selectors import compliance_day, ctrs, mtl, unidentified
from audit.compliance.services import settings_save
from tables.accounting.services.buyins import buy_in_void
from tests.compliance.helpers import DAY, t31_floor

pytestmark = pytest.mark.django_db


def test_mtl_adds_up_two_tables_and_the_cage_per_patron_and_direction():
    f = t31_floor()
    # P-1: 1,800 at BJ-1 + 1,500 at BJ-2 = 3,300 cash in (over 3,000); 2,000 out at the cage (not over).
    a = f.cash_in(f.bj1, "1800.00", "P-1", hours=1)
    b = f.cash_in(f.bj2, "1500.00", "P-1", hours=2, seat=4)
    c = f.cash_out("2000.00", "P-1", hours=3)
    # P-2: 2,000 + 1,000 = 3,000.00 exactly in: not over; a marker and another table's chips are not cash.
    f.cash_in(f.bj1, "2000.00", "P-2", hours=1)
    f.cash_in(f.bj2, "1000.00", "P-2", hours=2)
    f.cash_in(f.bj1, "5000.00", "P-2", hours=2, kind="marker")
    f.cash_in(f.bj1, "5000.00", "P-2", hours=2, kind="chips")
    # P-3: 2,900 in and 2,900 out: 5,800 if netted or summed, but each direction stays under.
    f.cash_in(f.bj1, "2900.00", "P-3", hours=1)
    f.cash_out("2900.00", "P-3", hours=4)
    # P-4: out only, 1,000 + 2,500 = 3,500 at the cage.
    f.cash_out("1000.00", "P-4", hours=1)
    f.cash_out("2500.00", "P-4", hours=9)

    log = {p.identifier: p for p in mtl(f.casino, DAY)}
    assert sorted(log) == ["P-1", "P-4"]
    p1 = log["P-1"]
    assert (p1.cash_in, p1.cash_out, p1.over_in, p1.over_out) == (D("3300.00"), D("2000.00"), True, False)
    # Every transaction of the patron that day, both directions, in time order, with its place.
    assert [(t.ref, t.place, t.seat, t.direction, t.amount) for t in p1.transactions] == [
        (f"buy-in {a.pk}", "BJ-1", 1, CASH_IN, D("1800.00")), (f"buy-in {b.pk}", "BJ-2", 4, CASH_IN, D("1500.00")),
        (f"cash-out {c.pk}", "cage", None, CASH_OUT, D("2000.00"))]
    assert (log["P-4"].cash_in, log["P-4"].cash_out, log["P-4"].over_out) == (D("0"), D("3500.00"), True)
    # A voided buy-in leaves the log: P-1 is then at 1,800 in.
    buy_in_void(buy_in=b, reason="wrong patron", author=f.pit_boss)
    assert [p.identifier for p in mtl(f.casino, DAY)] == ["P-4"]


@pytest.mark.parametrize(("amounts", "on_mtl"), [
    (("2999.99",), False), (("3000.00",), False), (("3000.01",), True),
    (("1500.00", "1500.00"), False), (("1500.00", "1500.01"), True),
])
def test_the_mtl_threshold_is_strictly_over(amounts, on_mtl):
    f = t31_floor()
    for i, amount in enumerate(amounts):
        f.cash_in((f.bj1, f.bj2)[i % 2], amount, "EDGE", hours=1 + i)
    assert bool(mtl(f.casino, DAY)) is on_mtl


@pytest.mark.parametrize(("amounts", "ctr"), [
    (("10000.00",), False), (("10000.01",), True), (("6000.00", "4000.00"), False), (("6000.00", "4000.01"), True),
])
@pytest.mark.parametrize("direction", [CASH_IN, CASH_OUT])
def test_the_ctr_threshold_is_more_than_10000_in_either_direction(amounts, ctr, direction):
    f = t31_floor()
    for i, amount in enumerate(amounts):
        if direction == CASH_IN:
            f.cash_in((f.bj1, f.bj2)[i % 2], amount, "EDGE", hours=1 + 8 * i)
        else:
            f.cash_out(amount, "EDGE", hours=1 + 8 * i)
    found = ctrs(f.casino, DAY)
    assert bool(found) is ctr
    if ctr:
        assert (found[0].subject, found[0].direction, found[0].total) == ("EDGE", direction, D("10000.01"))
        assert found[0].missing == ["identification (none recorded)"] and found[0].waiting


def test_cash_in_and_cash_out_are_never_added_together_for_a_ctr():
    f = t31_floor()
    f.cash_in(f.bj1, "9000.00", "P-9", hours=1)
    f.cash_out("9000.00", "P-9", hours=5)
    assert ctrs(f.casino, DAY) == []
    assert [p.identifier for p in mtl(f.casino, DAY)] == ["P-9"]


def test_the_gaming_day_not_the_calendar_day_bounds_the_sum():
    f = t31_floor()
    f.cash_in(f.bj1, "2000.00", "NIGHT", hours=20)  # 02:00 local on 11 March: still the gaming day of 10 March
    f.cash_in(f.bj1, "2000.00", "NIGHT", hours=23.5)  # 05:30 local: still 10 March
    f.cash_in(f.bj1, "2000.00", "NIGHT", hours=24.5)  # 06:30 local: the gaming day of 11 March
    day = mtl(f.casino, DAY)
    assert [(p.identifier, p.cash_in) for p in day] == [("NIGHT", D("4000.00"))]


def test_the_thresholds_are_settings():
    f = t31_floor()
    f.cash_in(f.bj1, "2600.00", "P-1", hours=1)
    assert mtl(f.casino, DAY) == []
    settings_save(casino=f.casino, author=f.compliance, reason="house logs from 2,500", mtl_threshold=D("2500.00"))
    assert [p.identifier for p in mtl(f.casino, DAY)] == ["P-1"]
    assert compliance_day(f.casino, DAY).rules.mtl_threshold == D("2500.00")


def test_an_unidentified_buy_in_over_the_mtl_threshold_on_its_own_is_listed():
    f = t31_floor()
    big = f.cash_in(f.bj1, "3500.00", None, hours=1)
    f.cash_in(f.bj1, "2000.00", None, hours=2)
    f.cash_in(f.bj2, "2000.00", None, hours=2)
    assert [t.ref for t in unidentified(f.casino, DAY)] == [f"buy-in {big.pk}"]
    huge = f.cash_in(f.bj2, "12000.00", None, hours=3)
    assert [(c.subject, c.identifier) for c in ctrs(f.casino, DAY)] == [(f"buy-in {huge.pk}", None)]


def _ctr_queries(f, patrons: int) -> tuple[int, list]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from audit.compliance.selectors import day_transactions

    for i in range(patrons):
        f.cash_in(f.bj1, "6000.00", f"BIG-{patrons}-{i}", hours=1 + i % 5)
        f.cash_in(f.bj2, "6000.00", f"BIG-{patrons}-{i}", hours=2 + i % 5, seat=2)
    txns = day_transactions(f.casino, DAY)
    with CaptureQueriesContext(connection) as queries:
        got = ctrs(f.casino, DAY, txns=txns)
    return len(queries), got


def test_the_days_ctrs_read_every_patrons_identification_at_once():
    """However many patrons cross the CTR line, their identifications are read in one query (a
    busy day's 3,000 patrons were 3,000 queries and a pass over every transaction for each), and
    each CTR still carries the patron's current (newest) identification and their own transactions."""
    from audit.compliance.services import identification_record
    from tests.compliance.helpers import FULL_ID

    f = t31_floor()
    few, _ = _ctr_queries(f, 2)
    identification_record(casino=f.casino, identifier="BIG-6-0", author=f.compliance, reason="at the cage",
                          last_name="Doe")
    identification_record(casino=f.casino, identifier="BIG-6-0", author=f.compliance, reason="the rest of it",
                          **FULL_ID)
    many, got = _ctr_queries(f, 6)
    assert many == few
    mine = [c for c in got if c.identifier.startswith("BIG-6-")]
    assert len(mine) == 6 and all(c.total == D("12000.00") and len(c.transactions) == 2 for c in mine)
    assert all({t.identifier for t in c.transactions} == {c.identifier} for c in mine)
    first = next(c for c in mine if c.identifier == "BIG-6-0")
    assert first.missing == [] and first.identification.tin == FULL_ID["tin"]
    assert all(c.missing == ["identification (none recorded)"] for c in mine if c.identifier != "BIG-6-0")
