"""Any sequence of openers, fills, credits, voids and closers keeps every transaction balanced,
and each account's balance, as of any step, is the sum of its legs and what the slips say."""

from __future__ import annotations

import os
from collections import defaultdict
from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tables.accounting.ledger import account_for, balance, balance_by_denomination
from tables.accounting.models import Account, ChipSlip, Leg
from tables.accounting.services.transfers import (
    chip_slip_issue,
    chip_slip_receive,
    chip_slip_request,
    chip_slip_void_confirm,
    chip_slip_void_request,
)
from tests.accounting.helpers import DAY, closer, floor, opener
from tests.examples import examples
from tests.factories import DealerFactory, TableFactory

VALUES = ("1", "2.50", "25", "100")
counts = st.dictionaries(st.sampled_from(VALUES), st.integers(0, 40), min_size=1)
OPS = st.lists(st.one_of(
    st.tuples(st.sampled_from(("fill", "credit")), st.integers(0, 1), counts, st.booleans()),
    st.tuples(st.just("void"), st.integers(0, 1), counts, st.booleans()),
    st.tuples(st.just("close_open"), st.integers(0, 1), counts, st.booleans()),
), min_size=1, max_size=12)


def _expected_after(kind, book, cage, parsed):
    sign = 1 if kind == "fill" else -1
    for value, n in parsed.items():
        book[value] += sign * D(value) * n
        cage[value] -= sign * D(value) * n


@settings(max_examples=int(os.environ.get("ACCOUNTING_PROPERTY_EXAMPLES", examples(60, 6))), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(ops=OPS)
@example(ops=[("fill", 0, {"25": 3}, True), ("credit", 1, {"100": 2}, False), ("close_open", 0, {"1": 7}, True),
              ("void", 0, {"25": 1}, True)])
def test_any_sequence_keeps_the_chip_ledger_balanced_and_balances_sums_of_legs(db, ops):
    with transaction.atomic():
        f = floor()
        tables, dealers = [f.table, TableFactory(pit=f.table.pit)], []
        books = [defaultdict(lambda: D(0)), defaultdict(lambda: D(0))]
        cage = defaultdict(lambda: D(0))
        for n, table in enumerate(tables):
            f.table = table
            f.dealer = DealerFactory(casino=f.casino)
            dealers.append(f.dealer)
            opener(f, {"100": 10, "25": 20}, at=DAY + timedelta(minutes=n))
            _expected_after("fill", books[n], cage, {"100": 10, "25": 20})
        snapshots = []
        for step, (op, t, chips, signed) in enumerate(ops, start=1):
            at = DAY + timedelta(hours=1, minutes=step)
            f.table, f.dealer = tables[t], dealers[t]
            chips = {v: n for v, n in chips.items() if n} or {"1": 1}
            if op in ("fill", "credit", "void"):
                slip = chip_slip_request(table=f.table, kind="credit" if op == "credit" else "fill", counts=chips,
                                         author=f.boss, at=at)
                chip_slip_issue(slip=slip, author=f.cashier, at=at)
                if op == "void":
                    chip_slip_void_request(slip=slip, reason="mis-keyed", author=f.boss, at=at)
                    chip_slip_void_confirm(slip=slip, author=f.cashier, at=at)
                    continue
                sign = {"dealer": f.dealer.pk, "dealer_badge": f.dealer.employee_number}
                if op == "credit" and not signed:
                    # A credit's chips leave the tray only on the dealer's signature: refused,
                    # nothing posted, and the dealer then signs.
                    legs = Leg.objects.count()
                    with pytest.raises(ValidationError), transaction.atomic():
                        chip_slip_receive(slip=slip, author=f.boss, at=at)
                    assert Leg.objects.count() == legs
                chip_slip_receive(slip=slip, author=f.boss, at=at, **(sign if signed or op == "credit" else {}))
                _expected_after(op, books[t], cage, chips)
            else:
                closer(f, chips, at=at)
                books[t] = defaultdict(lambda: D(0), {v: D(v) * n for v, n in chips.items()})
                opener(f, chips if signed else {"1": 3}, at=at + timedelta(seconds=1))  # unsigned: a discrepancy
                if not signed:
                    books[t] = defaultdict(lambda: D(0), {"1": D(3)})
            snapshots.append((at + timedelta(seconds=2), [dict(b) for b in books], dict(cage)))
        totals = Leg.objects.values("transaction").annotate(total=Sum("amount"))
        assert all(row["total"] == 0 for row in totals)
        for account in Account.objects.filter(casino=f.casino):
            legs = Leg.objects.filter(account=account).aggregate(s=Sum("amount"))["s"] or 0
            assert balance(account) == legs
        for at, expected_books, expected_cage in snapshots:
            for t, table in enumerate(tables):
                tray = account_for(f.casino, Account.TABLE_INVENTORY, table)
                want = {D(v): a for v, a in expected_books[t].items() if a}
                assert balance_by_denomination(tray, as_of=at) == want
            got_cage = balance_by_denomination(account_for(f.casino, Account.CAGE), as_of=at)
            assert got_cage == {D(v): a for v, a in expected_cage.items() if a}
        assert ChipSlip.objects.filter(status="voided").count() == sum(op[0] == "void" for op in ops)
        transaction.set_rollback(True)
