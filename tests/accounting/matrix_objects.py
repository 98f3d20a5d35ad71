"""Objects the permission matrix and the schema test need for the accounting URLs that take a pk."""

from __future__ import annotations

from decimal import Decimal as D

from tables.accounting.services.buyins import buy_in_record
from tables.accounting.services.drop_boxes import drop_box_drop
from tables.accounting.services.inventory import inventory_open
from tables.accounting.services.soft_count import soft_count_enter
from tables.accounting.services.transfers import (
    chip_slip_issue,
    chip_slip_receive,
    chip_slip_request,
)
from tests.factories import DealerFactory, TableFactory, chip_set_for, user_with_role


def accounting_matrix_objects(table, pit_boss) -> dict:
    """A chip set, an opener, a requested fill and a finding (a fill received unsigned) at a
    second table of ``table``'s pit; a buy-in, a dropped box and its count at ``table`` (open)."""
    pit = table.pit
    chip_set = chip_set_for(pit.casino)
    chips_table = TableFactory(pit=pit)
    dealer = DealerFactory(casino=pit.casino)
    boss = user_with_role("pit_boss", username="matrix-chips-pb")
    cashier = user_with_role("cage", username="matrix-chips-cage")
    opener = inventory_open(table=chips_table, dealer=dealer.pk, dealer_badge=dealer.employee_number,
                            counts={"100": 10}, author=boss)
    unsigned = chip_slip_request(table=chips_table, kind="fill", counts={"25": 4}, author=boss)
    chip_slip_issue(slip=unsigned, author=cashier)
    chip_slip_receive(slip=unsigned, author=boss)
    buy_in = buy_in_record(table=table, seat=1, kind="cash", amount=D("100"), author=pit_boss)
    counter = user_with_role("count", username="matrix-counter")
    box = drop_box_drop(table=table, gaming_day=buy_in.gaming_day, author=counter)
    return {"chipset": chip_set, "inventoryslip": opener,
            "chipslip": chip_slip_request(table=chips_table, kind="fill", counts={"100": 1}, author=boss),
            "accountingfinding": unsigned.findings.get(), "buyin": buy_in, "dropbox": box,
            "softcount": soft_count_enter(box=box, author=counter, currency={"100": 1})}
