"""Openers and closers: a table's chips counted per denomination when it opens and closes.

Opening records the opener and opens the table's session in one transaction; closing records
the closer and closes it. Each slip is signed by the pit boss (the author) and the dealer
(chosen on the tablet, confirmed by the badge number). The closer of one day is the opener
of the next: an opener is compared with the table's last closer, a difference is posted to
the table's variance account and flagged at the casino's thresholds. A table that stays
open over the gaming-day start is closed and reopened on paper at the start hour, from the
book (the ledger), when its session rolls over (tables/services/sessions.py).
"""

from __future__ import annotations

from collections import defaultdict

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from casino.audit_guard import allow_audit_write
from casino.double_entry import ZERO
from tables.accounting.ledger import account_for, balance_by_denomination, ledger_post
from tables.accounting.models import (
    Account,
    ChipSet,
    InventoryLine,
    InventorySlip,
    SerialCounter,
    Transaction,
)
from tables.accounting.serials import serial_next
from tables.accounting.services.counts import (
    ChipCount,
    chip_counts,
    counts_total,
    dealer_signature,
    legs_between,
)
from tables.accounting.services.drop_boxes import drop_box_for
from tables.accounting.services.findings import inventory_discrepancy_flag
from tables.accounting.signals import money_written
from tables.models import Table, TableSession
from tables.services.sessions import table_session_close, table_session_current, table_session_open


def last_closer(table: Table) -> InventorySlip | None:
    return InventorySlip.objects.filter(table=table, kind=InventorySlip.CLOSER).order_by("-recorded_at", "-id").first()


def _slip(*, kind, table, session, counts: list[ChipCount], author, at, dealer=None, on_paper=False,
          previous=None, gaming_day=None) -> InventorySlip:
    casino = table.pit.casino
    slip = InventorySlip.objects.create(
        casino=casino, table=table, session=session, kind=kind, gaming_day=gaming_day or session.gaming_day,
        serial=serial_next(casino=casino, series=SerialCounter.INVENTORY), recorded_at=at, recorded_by=author,
        dealer=dealer, on_paper=on_paper, total=counts_total(counts), previous=previous)
    InventoryLine.objects.bulk_create([
        InventoryLine(slip=slip, denomination=c.denomination, count=c.count, amount=c.amount) for c in counts])
    money_written.send(type(slip), kind="invslip", instance=slip)  # with its lines
    if kind == InventorySlip.OPENER:  # the table's box for the day goes on with its opener, counted or on paper
        drop_box_for(table=table, gaming_day=slip.gaming_day, author=author, at=at)
    return slip


def _posted(slip: InventorySlip) -> None:
    allow_audit_write()  # a slip's posting is set once (audit_guard RULES)
    InventorySlip.objects.filter(pk=slip.pk).update(transaction=slip.transaction)


def _by_denomination(counts: list[ChipCount]) -> dict:
    return {c.denomination.pk: c for c in counts}


@transaction.atomic
def inventory_open(*, table: Table, dealer, dealer_badge: str, counts, author, at=None) -> InventorySlip:
    """Open ``table`` with its opener. The table's first opener stocks it from the cage; a later
    one that differs from the last closer posts the difference to the table's variance account
    and, above the casino's threshold, is a finding. Either way the opener is stored as counted."""
    at = at or timezone.now()
    casino = table.pit.casino
    parsed = chip_counts(casino, counts)
    signer = dealer_signature(casino, dealer, dealer_badge)
    session = table_session_open(table=table, dealer=signer, author=author, at=at)
    previous = last_closer(table)
    slip = _slip(kind=InventorySlip.OPENER, table=table, session=session, counts=parsed, author=author, at=at,
                 dealer=signer, previous=previous)
    tray = account_for(casino, Account.TABLE_INVENTORY, table)
    if previous is None:
        legs = list(legs_between(account_for(casino, Account.CAGE), tray, parsed))
        kind, reference = Transaction.STOCK, f"first opener {slip.label}"
    else:
        difference: dict = defaultdict(lambda: ZERO)
        denominations = {}
        for c in parsed:
            difference[c.denomination.pk] += c.amount
            denominations[c.denomination.pk] = c.denomination
        for line in previous.lines.select_related("denomination"):
            difference[line.denomination_id] -= line.amount
            denominations[line.denomination_id] = line.denomination
        variance = account_for(casino, Account.VARIANCE, table)
        legs = [leg for pk, amount in difference.items() if amount
                for leg in ((tray, amount, denominations[pk]), (variance, -amount, denominations[pk]))]
        kind, reference = Transaction.VARIANCE, f"opener {slip.label} against closer {previous.label}"
        inventory_discrepancy_flag(slip=slip, previous=previous, at=at,
                                   difference=sum((abs(a) for a in difference.values()), ZERO))
    if legs:
        slip.transaction = ledger_post(casino=casino, kind=kind, legs=legs, reference=reference, author=author,
                                       at=at, table=table)
        _posted(slip)
    return slip


@transaction.atomic
def inventory_close(*, table: Table, dealer, dealer_badge: str, counts, author, at=None) -> InventorySlip:
    """Close ``table`` with its closer; the book moves to the count (the table's play, against
    its result account)."""
    at = at or timezone.now()
    casino = table.pit.casino
    session = table_session_current(table)
    if session is None:
        raise ValidationError({"table": [f"Table {table.label} is closed; a closer needs an open table"]})
    parsed = chip_counts(casino, counts, allow_empty=True)
    signer = dealer_signature(casino, dealer, dealer_badge)
    session = table_session_close(session=session, author=author, at=at)
    slip = _slip(kind=InventorySlip.CLOSER, table=table, session=session, counts=parsed, author=author, at=at,
                 dealer=signer)
    tray = account_for(casino, Account.TABLE_INVENTORY, table)
    book = _book(table, tray)
    counted = _by_denomination(parsed)
    result = account_for(casino, Account.TABLE_RESULT, table)
    legs = []
    for pk in set(book) | set(counted):
        denomination = counted[pk].denomination if pk in counted else book[pk][0]
        amount = (counted[pk].amount if pk in counted else ZERO) - (book[pk][1] if pk in book else ZERO)
        if amount:
            legs += [(tray, amount, denomination), (result, -amount, denomination)]
    if legs:
        slip.transaction = ledger_post(casino=casino, kind=Transaction.CLOSE, legs=legs, table=table, author=author,
                                       at=at, reference=f"closer {slip.label}")
        _posted(slip)
    return slip


def _book(table: Table, tray: Account) -> dict[int, tuple]:
    """Denomination id -> (denomination, amount) the ledger says the tray holds."""
    chip_set = ChipSet.objects.filter(casino_id=tray.casino_id).first()
    values = balance_by_denomination(tray)
    if chip_set is None:
        return {}
    return {d.pk: (d, values[d.value]) for d in chip_set.denominations.all() if values.get(d.value)}


def inventory_roll_over(*, old: TableSession, new: TableSession, at, author) -> None:
    """Close ``old``'s inventory and reopen it for ``new`` on paper, at the gaming day's start,
    from the book: nobody counted, so nothing is posted. Only at tables that keep chip
    inventories (an opener on record)."""
    table = Table.objects.select_related("pit__casino").get(pk=new.table_id)
    if not InventorySlip.objects.filter(table=table).exists():
        return
    book = _book(table, account_for(table.pit.casino, Account.TABLE_INVENTORY, table))
    # The book may hold a negative amount of a denomination (more credited than the tray got from
    # fills and its opener; play moves chips): the paper slips carry it as the book has it.
    counts = [ChipCount(d, int(amount / d.value)) for d, amount in book.values()]
    closer = _slip(kind=InventorySlip.CLOSER, table=table, session=old, counts=counts, author=author, at=at,
                   on_paper=True)
    _slip(kind=InventorySlip.OPENER, table=table, session=new, counts=counts, author=author, at=at, on_paper=True,
          previous=closer)


def inventory_roll_over_hook(sender, *, old, new, at, author, **kwargs) -> None:
    inventory_roll_over(old=old, new=new, at=at, author=author)

