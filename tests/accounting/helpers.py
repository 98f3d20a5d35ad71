"""A table with a chip set, a dealer, a pit boss and a cage cashier."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from tests.factories import DealerFactory, TableFactory, chip_set_for, user_with_role

NY = ZoneInfo("America/New_York")
DAY = datetime(2026, 3, 10, 10, 0, tzinfo=NY)  # gaming day 2026-03-10 (06:00 start)


@dataclass
class Floor:
    table: object
    casino: object
    dealer: object
    boss: object
    cashier: object


def floor() -> Floor:
    table = TableFactory()
    casino = table.pit.casino
    chip_set_for(casino)
    return Floor(table=table, casino=casino, dealer=DealerFactory(casino=casino),
                 boss=user_with_role("pit_boss", username="boss"), cashier=user_with_role("cage", username="cashier"))


def opener(f: Floor, counts, at=DAY, **kw):
    from tables.accounting.services.inventory import inventory_open

    return inventory_open(table=f.table, dealer=f.dealer.pk, dealer_badge=f.dealer.employee_number, counts=counts,
                          author=f.boss, at=at, **kw)


def closer(f: Floor, counts, at, **kw):
    from tables.accounting.services.inventory import inventory_close

    return inventory_close(table=f.table, dealer=f.dealer.pk, dealer_badge=f.dealer.employee_number, counts=counts,
                           author=f.boss, at=at, **kw)
