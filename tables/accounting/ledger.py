"""Posting to the chip ledger and reading its balances.

:func:`ledger_post` is the one way a chip movement is written: a balanced transaction of
legs (account, debit-positive amount, denomination). Balances are never stored: they are
sums of legs, as of any moment, in total or per denomination.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from django.db import transaction as db_transaction
from django.utils import timezone

from casino.double_entry import ZERO, LedgerUnbalanced, legs_merged
from casino.gaming_day import gaming_day_of
from casino.models import Casino
from casino.money import money_sum
from tables.accounting.models import Account, Denomination, Leg, Transaction
from tables.accounting.signals import money_written
from tables.models import Table

__all__ = ["LedgerUnbalanced", "account_for", "balance", "balance_by_denomination", "ledger_post"]


def account_for(casino: Casino, kind: str, table: Table | None = None) -> Account:
    """The casino's account of ``kind`` (per table for the kinds kept per table), made on
    first use: accounts are append-only, so a concurrent first use meets the unique
    constraint and reads the winner's row."""
    if (kind in Account.PER_TABLE) != (table is not None):
        raise ValueError(f"account kind {kind} is {'per table' if kind in Account.PER_TABLE else 'per casino'}")
    account, _ = Account.objects.get_or_create(casino=casino, kind=kind, table=table)
    return account


@db_transaction.atomic
def ledger_post(
    *,
    casino: Casino,
    kind: str,
    legs: Iterable[tuple[Account, Decimal, Denomination | None]],
    reference: str,
    author,
    at=None,
    table: Table | None = None,
    gaming_day=None,
) -> Transaction:
    """Write one balanced transaction. Legs of the same account and denomination are merged;
    zero legs are dropped. Refuses (LedgerUnbalanced) legs that do not sum to zero, that are
    not whole cents, or that leave nothing to post; PostgreSQL checks again at COMMIT.
    ``gaming_day``: the day the movement belongs to when it is not the day of ``at`` (a drop
    box counted the next morning belongs to the day it was on the table)."""
    accounts: dict[int, Account] = {}
    keyed = []
    for account, amount, denomination in legs:
        if account.casino_id != casino.pk:
            raise LedgerUnbalanced(f"{kind}: account {account} belongs to another casino")
        accounts[account.pk] = account
        keyed.append(((account.pk, denomination.pk if denomination else None), amount))
    merged = legs_merged(kind, keyed)
    if not merged:
        raise LedgerUnbalanced(f"{kind}: nothing to post")
    at = at or timezone.now()
    txn = Transaction.objects.create(
        casino=casino, kind=kind, table=table, reference=reference[:120], created_at=at,
        gaming_day=gaming_day or gaming_day_of(at, casino.time_zone, casino.gaming_day_start_hour),
        created_by=author)
    Leg.objects.bulk_create([
        Leg(transaction=txn, account_id=account_id, denomination_id=denomination_id, amount=amount)
        for (account_id, denomination_id), amount in merged.items()
    ])
    money_written.send(type(txn), kind="chiptxn", instance=txn)
    return txn


def _legs(account: Account, as_of):
    legs = Leg.objects.filter(account=account)
    if as_of is not None:
        legs = legs.filter(transaction__created_at__lte=as_of)
    return legs


def balance(account: Account, as_of=None) -> Decimal:
    """The account's chips (sum of its legs), as of ``as_of`` inclusive, or now."""
    return _legs(account, as_of).aggregate(total=money_sum("amount"))["total"] or ZERO


def balance_by_denomination(account: Account, as_of=None) -> dict[Decimal | None, Decimal]:
    """Denomination value (None: legs that name none) -> the account's amount of it;
    denominations that net to zero are left out."""
    rows = _legs(account, as_of).values("denomination__value").annotate(total=money_sum("amount"))
    return {r["denomination__value"]: r["total"] for r in rows if r["total"] != 0}
