"""The chip ledger posts balanced transactions; PostgreSQL refuses an unbalanced one at COMMIT."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from tables.accounting.ledger import (
    LedgerUnbalanced,
    account_for,
    balance,
    balance_by_denomination,
    ledger_post,
)
from tables.accounting.models import Account, ChipSet, Leg, Transaction
from tests.factories import TableFactory, user_with_role


def _setup():
    table = TableFactory()
    casino = table.pit.casino
    chips = ChipSet.objects.create(casino=casino, name="House chips")
    five = chips.denominations.create(value=D("5"))
    cage = account_for(casino, Account.CAGE)
    tray = account_for(casino, Account.TABLE_INVENTORY, table)
    return casino, table, five, cage, tray, user_with_role("cage")


def test_a_balanced_posting_moves_chips_and_balances_are_sums_of_legs(db):
    casino, table, five, cage, tray, cashier = _setup()
    txn = ledger_post(casino=casino, kind=Transaction.FILL, table=table, reference="fill F-000001",
                      author=cashier, legs=[(tray, D("100"), five), (cage, D("-100"), five)])
    assert txn.legs.count() == 2
    assert balance(tray) == D("100") and balance(cage) == D("-100")
    assert balance_by_denomination(tray) == {D("5.00"): D("100")}
    assert balance(tray, as_of=txn.created_at - timezone.timedelta(seconds=1)) == 0


def test_the_service_refuses_an_unbalanced_posting(db):
    casino, table, five, cage, tray, cashier = _setup()
    with pytest.raises(LedgerUnbalanced):
        ledger_post(casino=casino, kind=Transaction.FILL, reference="x", author=cashier,
                    legs=[(tray, D("100"), five), (cage, D("-99"), five)])
    assert not Transaction.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgresql_refuses_an_unbalanced_transaction_at_commit_and_changes_to_legs():
    if connection.vendor != "postgresql":
        pytest.skip("the balance trigger and the guards are PostgreSQL triggers; SQLite has only the service")
    casino, table, five, cage, tray, cashier = _setup()
    with pytest.raises(IntegrityError, match="unbalanced"), transaction.atomic():
        txn = Transaction.objects.create(casino=casino, kind=Transaction.FILL, reference="raw",
                                         created_at=timezone.now(), gaming_day=timezone.now().date(),
                                         created_by=cashier)
        Leg.objects.create(transaction=txn, account=tray, amount=D("5"), denomination=five)
    assert not Transaction.objects.exists()
    good = ledger_post(casino=casino, kind=Transaction.FILL, reference="ok", author=cashier,
                       legs=[(tray, D("5"), five), (cage, D("-5"), five)])
    with pytest.raises(DatabaseError), transaction.atomic():
        Leg.objects.filter(transaction=good).update(amount=D("1"))
    with pytest.raises(DatabaseError), transaction.atomic():
        # Balanced legs added later to a closed transaction.
        Leg.objects.create(transaction=good, account=tray, amount=D("1"), denomination=five)
        Leg.objects.create(transaction=good, account=cage, amount=D("-1"), denomination=five)
    assert balance(tray) == D("5")
