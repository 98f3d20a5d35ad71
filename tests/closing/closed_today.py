"""Records of every kind on today's gaming day, then today marked closed.

Today's final report cannot run (the day has not ended), so the close is written directly:
this is the check's test, not the close rule's (test_close_rule.py plays that through)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal as D

from django.utils import timezone

from casino.gaming_day import current_gaming_day
from tables.accounting.services.buyins import buy_in_record
from tables.accounting.services.drop_boxes import drop_box_drop
from tables.accounting.services.inventory import inventory_open
from tables.accounting.services.soft_count import soft_count_enter
from tables.accounting.services.transfers import (
    chip_slip_issue,
    chip_slip_request,
    chip_slip_void_request,
)
from tables.closing.models import DayClose, FinalRun
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.accounting.drop_floor import drop_floor
from tests.factories import DealerFactory, TableFactory, user_with_role
from tests.tables.rounds_data import ROUNDS


@dataclass
class ClosedToday:
    f: object
    day: object
    dealer: object
    other_dealer: object
    cashier: object
    session: object
    round: object
    buy_in: object
    requested: object
    issued: object
    void_asked: object
    box: object
    dropped_box: object
    count: object
    idle_table: object


def close_directly(casino, day) -> DayClose:
    now = timezone.now()
    run = FinalRun.objects.create(casino=casino, gaming_day=day, report_id=0, run_id="00000000-0000-0000-0000-000000000001",
                                  requested_at=now, finished_at=now, recorded_at=now, lines={})
    return DayClose.objects.create(casino=casino, gaming_day=day, closed_at=now, final_run=run, counts=[])


def closed_today() -> ClosedToday:
    f = drop_floor(open_table=False)
    casino = f.casino
    dealer, other = DealerFactory(casino=casino), DealerFactory(casino=casino)
    cashier = user_with_role("cage", username="cashier")
    day = current_gaming_day(casino, timezone.now())
    inventory_open(table=f.table, dealer=dealer.pk, dealer_badge=dealer.employee_number, counts={"100": 20},
                   author=f.pit_boss)
    session = f.table.sessions.get(closed_at__isnull=True)
    rnd = round_record(table=f.table, data=ROUNDS["ante_up_21"]["underpay"][0], author=f.pit_boss).round
    buy_in = buy_in_record(table=f.table, seat=1, kind="cash", amount=D("300.00"), author=f.pit_boss)
    requested = chip_slip_request(table=f.table, kind="fill", counts={"25": 4}, author=f.pit_boss)
    issued = chip_slip_issue(slip=chip_slip_request(table=f.table, kind="fill", counts={"25": 4}, author=f.pit_boss),
                             author=cashier)
    void_asked = chip_slip_void_request(
        slip=chip_slip_request(table=f.table, kind="credit", counts={"100": 1}, author=f.pit_boss),
        reason="keyed twice", author=f.pit_boss)
    second = TableFactory(label="BJ-2", pit=f.table.pit)
    table_session_open(table=second, dealer=other, author=f.pit_boss)
    buy_in_record(table=second, seat=1, kind="cash", amount=D("100.00"), author=f.pit_boss)
    dropped = drop_box_drop(table=second, gaming_day=day, author=f.counter)
    count = soft_count_enter(box=dropped, author=f.counter, currency={"100": 1})
    idle = TableFactory(label="BJ-3", pit=f.table.pit)
    close_directly(casino, day)
    return ClosedToday(f=f, day=day, dealer=dealer, other_dealer=DealerFactory(casino=casino), cashier=cashier,
                       session=session, round=rnd, buy_in=buy_in, requested=requested, issued=issued,
                       void_asked=void_asked, box=f.table.drop_boxes.get(gaming_day=day), dropped_box=dropped,
                       count=count, idle_table=idle)
