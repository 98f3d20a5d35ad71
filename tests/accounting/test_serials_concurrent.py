"""Slip numbers under concurrent requests: no gap, no duplicate (PostgreSQL row locks)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction

from tables.accounting.models import ChipSlip, InventorySlip
from tables.accounting.services.transfers import chip_slip_request
from tests.accounting.helpers import DAY, floor, opener
from tests.concurrency import run_at_once
from tests.factories import DealerFactory, TableFactory

WRITERS, EACH = 6, 8


class _RolledBack(Exception):
    pass


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_get_gapless_unique_numbers_per_series():
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (SQLite serialises every writer)")
    f = floor()
    tables = [f.table] + [TableFactory(pit=f.table.pit) for _ in range(WRITERS - 1)]
    for n, table in enumerate(tables):
        f.table, f.dealer = table, DealerFactory(casino=f.casino)
        opener(f, {"100": 10}, at=DAY + timedelta(minutes=n))
    def write(index: int) -> None:
        for i in range(EACH):
            kind = "fill" if (index + i) % 2 else "credit"
            try:
                with transaction.atomic():
                    chip_slip_request(table=tables[index], kind=kind, counts={"100": 1}, author=f.boss,
                                      at=DAY + timedelta(hours=1, seconds=i))
                    if i == 3:  # a request that fails after taking its number gives it back
                        raise _RolledBack
            except _RolledBack:
                pass

    errors = run_at_once(WRITERS, write)
    assert not errors, errors
    for kind in ("fill", "credit"):
        numbers = sorted(ChipSlip.objects.filter(casino=f.casino, kind=kind).values_list("serial", flat=True))
        assert numbers == list(range(1, len(numbers) + 1)), kind
    assert ChipSlip.objects.count() == WRITERS * (EACH - 1)
    assert sorted(InventorySlip.objects.values_list("serial", flat=True)) == list(range(1, WRITERS + 1))
