"""The statistical win of a table's day, worked on paper (ACCOUNTING.md; COMAR 36.05.03.25):
closer - opener + drop + credits - fills, and hold % = win / drop."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal as D

import pytest

from tables.accounting.selectors_win import CashFigures, drop_hold_pct, summed, table_days
from tables.accounting.services.buyins import buy_in_record
from tables.accounting.services.drop_boxes import drop_box_drop
from tables.accounting.services.soft_count import soft_count_enter, soft_count_sign
from tables.accounting.services.transfers import (
    chip_slip_issue,
    chip_slip_receive,
    chip_slip_request,
)
from tests.accounting.helpers import DAY, closer, floor, opener
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db
H = timedelta(hours=1)
GAMING_DAY = date(2026, 3, 10)


def _slip(f, kind, counts, at):
    slip = chip_slip_request(table=f.table, kind=kind, counts=counts, author=f.boss, at=at)
    chip_slip_issue(slip=slip, author=f.cashier, at=at)
    return chip_slip_receive(slip=slip, author=f.boss, dealer=f.dealer.pk, dealer_badge=f.dealer.employee_number,
                             at=at + H / 2)


def _played_day(*, sign: bool = True):
    f = floor()
    opener(f, {"100": 100})                                   # 10,000.00
    _slip(f, "fill", {"100": 20}, DAY + H)                   # 2,000.00
    _slip(f, "fill", {"25": 20}, DAY + 2 * H)                # 500.00
    _slip(f, "credit", {"100": 15}, DAY + 3 * H)             # 1,500.00
    buy_in_record(table=f.table, seat=1, kind="cash", amount=D("2000"), author=f.boss, at=DAY + 4 * H)
    buy_in_record(table=f.table, seat=2, kind="marker", amount=D("1000"), author=f.boss, at=DAY + 4 * H)
    buy_in_record(table=f.table, seat=3, kind="chips", amount=D("300"), author=f.boss, at=DAY + 4 * H)
    closer(f, {"100": 96, "25": 40}, DAY + 8 * H)             # 9,600 + 1,000 = 10,600.00
    counter, second = user_with_role("count", username="c1"), user_with_role("count", username="c2")
    box = drop_box_drop(table=f.table, gaming_day=GAMING_DAY, author=counter, at=DAY + 9 * H)
    count = soft_count_enter(box=box, author=counter, currency={"100": 20}, markers="1000.00", at=DAY + 10 * H)
    if sign:
        soft_count_sign(count=count, author=second, at=DAY + 10 * H)
    return f


def test_a_table_day_worked_on_paper():
    f = _played_day()
    day = table_days(None, GAMING_DAY)[(f.table.pk, GAMING_DAY)]
    assert (day.opener, day.closer, day.fills, day.credits, day.drop, day.estimated_drop) == (
        D("10000"), D("10600"), D("2500"), D("1500"), D("3000"), D("3000"))
    # 10,600 - 10,000 + 3,000 + 1,500 - 2,500 = 2,600; 2,600 / 3,000 = 86.6667 %
    assert day.stat_win == D("2600") and day.drop_hold_pct == D("86.6667")


def test_an_unsigned_count_leaves_the_win_unknown_not_zero():
    f = _played_day(sign=False)
    day = table_days(None, GAMING_DAY)[(f.table.pk, GAMING_DAY)]
    assert day.drop is None and day.stat_win is None and day.drop_hold_pct is None
    assert day.estimated_drop == D("3000")


def test_a_roll_up_adds_complete_days_and_counts_the_others_apart():
    complete = CashFigures(opener=D("100"), closer=D("150"), fills=D("20"), credits=D("10"), drop=D("200"))
    assert complete.stat_win == D("240")
    no_count = CashFigures(opener=D("100"), closer=D("90"), estimated_drop=D("75"))
    total = summed([complete, no_count, complete])
    assert (total.tables, total.incomplete, total.stat_win, total.drop, total.estimated_drop) == (
        2, 1, D("480"), D("400"), D("75"))
    assert total.drop_hold_pct == D("120.0000")
    again = summed([total, CashFigures()])
    assert (again.tables, again.incomplete, again.stat_win) == (2, 2, D("480"))
    assert drop_hold_pct(D("1"), D("3")) == D("33.3333") and drop_hold_pct(D("1"), D("0")) is None
