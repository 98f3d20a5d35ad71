"""A table with a chip set, open with a dealer, and the people of the drop and the count."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal as D

from tables.accounting.models import ChipSet
from tables.models import Table
from tables.services.sessions import table_session_open
from tests.factories import DealerFactory, TableFactory, user_with_role

CHIP_VALUES = ("1", "5", "25", "100", "500")


@dataclass
class DropFloor:
    table: Table
    pit_boss: object
    counter: object
    second_counter: object
    finance: object
    manager: object

    @property
    def casino(self):
        return self.table.pit.casino


def drop_floor(*, open_table: bool = True, label: str = "BJ-1") -> DropFloor:
    table = TableFactory(label=label)
    casino = table.pit.casino
    chips, _ = ChipSet.objects.get_or_create(casino=casino, defaults={"name": "House chips"})
    for value in CHIP_VALUES:
        chips.denominations.get_or_create(value=D(value))
    pit_boss = user_with_role("pit_boss", username="pit-boss")
    if open_table:
        table_session_open(table=table, dealer=DealerFactory(casino=casino), author=pit_boss)
    return DropFloor(table=table, pit_boss=pit_boss, counter=user_with_role("count", username="counter-1"),
                     second_counter=user_with_role("count", username="counter-2"),
                     finance=user_with_role("finance", username="fin"),
                     manager=user_with_role("gaming_manager", username="gm"))
