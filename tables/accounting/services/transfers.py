"""Fills and credits: requested at the tablet, issued by the cage, received and signed at the
table; or voided with a reason and a second person's signature.

A slip posts when it is received (both sides have signed): a fill moves its chips from the
cage to the table's tray, a credit from the tray to the cage, per denomination. A fill received
without the dealer's signature happened (its chips are already in the tray): it is stored,
posted and flagged. A credit is not received without it: its chips leave the dealer's tray
only when the dealer signs for them, and until then they can stay at the table. Nobody signs a
slip twice: the cashier who issues it did not request it, the pit boss who receives it did
not issue it, and a void's second signature is another person's.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from casino.audit_guard import allow_audit_write
from casino.gaming_day import gaming_day_of
from tables.accounting.ledger import account_for, ledger_post
from tables.accounting.models import Account, ChipSlip, ChipSlipLine, SerialCounter, Transaction
from tables.accounting.serials import serial_next
from tables.accounting.services.counts import (
    ChipCount,
    chip_counts,
    counts_total,
    dealer_signature,
    legs_between,
)
from tables.accounting.services.findings import unsigned_receipt_flag
from tables.accounting.signals import money_written
from tables.closed_days import refuse_closed_day
from tables.models import Table
from tables.services.sessions import table_session_current

SERIES = {ChipSlip.FILL: SerialCounter.FILL, ChipSlip.CREDIT: SerialCounter.CREDIT}


def _save(slip: ChipSlip, *, author, reason: str, fields: list[str]) -> None:
    allow_audit_write()  # a slip's status moves only as audit_guard RULES allow
    slip._history_user, slip._change_reason = author, reason
    slip.save(update_fields=fields)
    money_written.send(ChipSlip, kind="chipslip", instance=slip)  # the history row the save wrote


def _locked(slip: ChipSlip) -> ChipSlip:
    """The slip, locked; refused when its gaming day is closed (every change of a slip starts here)."""
    slip = ChipSlip.objects.select_for_update(of=("self",)).select_related("table__pit__casino").get(pk=slip.pk)
    refuse_closed_day(slip.casino_id, slip.gaming_day)
    return slip


def _table_open(table: Table, what: str) -> None:
    if table_session_current(table) is None:
        raise ValidationError({"table": [f"Table {table.label} is closed: no {what} to a closed table"]})


@transaction.atomic
def chip_slip_request(*, table: Table, kind: str, counts, author, at=None) -> ChipSlip:
    """A fill or credit requested at the tablet; it takes its serial number now."""
    if kind not in SERIES:
        raise ValidationError({"kind": [f"{kind!r} is not fill or credit"]})
    at = at or timezone.now()
    # The table's row lock (the recorder's, FOR NO KEY UPDATE): a close cannot slip in between
    # the check that the table is open and the request.
    table = Table.objects.select_for_update(no_key=True, of=("self",)).select_related("pit__casino").get(pk=table.pk)
    casino = table.pit.casino
    parsed = chip_counts(casino, counts)
    _table_open(table, kind)
    slip = ChipSlip(casino=casino, table=table, kind=kind, serial=serial_next(casino=casino, series=SERIES[kind]),
                    gaming_day=gaming_day_of(at, casino.time_zone, casino.gaming_day_start_hour),
                    total=counts_total(parsed), requested_at=at, requested_by=author)
    refuse_closed_day(casino.pk, slip.gaming_day)
    slip._history_user, slip._change_reason = author, f"{kind} requested"
    slip.save()
    ChipSlipLine.objects.bulk_create([
        ChipSlipLine(slip=slip, denomination=c.denomination, count=c.count, amount=c.amount) for c in parsed])
    money_written.send(ChipSlip, kind="chipslip", instance=slip)  # the request's history row, with its lines
    return slip


def _not_twice(author, signer, field: str, what: str) -> None:
    if signer is not None and author.pk == signer.pk:
        raise ValidationError({field: [f"{author} already signed this slip ({what}); another person must sign"]})


@transaction.atomic
def chip_slip_issue(*, slip: ChipSlip, author, at=None) -> ChipSlip:
    """The cage issues the slip (prepares the fill's chips, or the credit's receipt)."""
    slip = _locked(slip)
    if slip.status != ChipSlip.REQUESTED:
        raise ValidationError({"status": [f"{slip.label} is {slip.status}; only a requested slip is issued"]})
    _not_twice(author, slip.requested_by, "issued_by", "requested it")
    slip.status, slip.issued_by, slip.issued_at = ChipSlip.ISSUED, author, at or timezone.now()
    _save(slip, author=author, reason="issued by the cage", fields=["status", "issued_by", "issued_at"])
    return slip


@transaction.atomic
def chip_slip_receive(*, slip: ChipSlip, author, dealer=None, dealer_badge: str = "", at=None) -> ChipSlip:
    """The pit boss and the dealer sign the slip at the table, and it posts. A fill without the
    dealer's signature is still received, posted and flagged; a credit without it is refused."""
    at = at or timezone.now()
    slip = _locked(slip)
    if slip.status != ChipSlip.ISSUED:
        raise ValidationError({"status": [f"{slip.label} is {slip.status}; only an issued slip is received"]})
    _not_twice(author, slip.issued_by, "received_by", "issued it")
    casino = slip.table.pit.casino
    signer = dealer_signature(casino, dealer, dealer_badge) if dealer not in (None, "") else None
    if signer is None and slip.kind == ChipSlip.CREDIT:
        raise ValidationError({"dealer": [f"{slip.label} is a credit: its chips leave the dealer's tray, so the "
                                          "dealer signs it (choose the dealer, who types their badge number)"]})
    _table_open(slip.table, slip.kind)
    counts = [ChipCount(line.denomination, line.count) for line in slip.lines.select_related("denomination")]
    cage, tray = account_for(casino, Account.CAGE), account_for(casino, Account.TABLE_INVENTORY, slip.table)
    source, target = (cage, tray) if slip.kind == ChipSlip.FILL else (tray, cage)
    slip.transaction = ledger_post(
        casino=casino, kind=Transaction.FILL if slip.kind == ChipSlip.FILL else Transaction.CREDIT, table=slip.table,
        legs=legs_between(source, target, counts), reference=f"{slip.kind} {slip.label}", author=author, at=at)
    slip.status, slip.received_by, slip.received_at, slip.received_dealer = ChipSlip.RECEIVED, author, at, signer
    _save(slip, author=author, reason="received at the table" + ("" if signer else " without the dealer's signature"),
          fields=["status", "received_by", "received_at", "received_dealer", "transaction"])
    if signer is None:
        unsigned_receipt_flag(slip=slip, at=at)
    return slip


@transaction.atomic
def chip_slip_void_request(*, slip: ChipSlip, reason: str, author, at=None) -> ChipSlip:
    """First signature of a void; the slip keeps its number and waits for a second person."""
    slip = _locked(slip)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": ["say why the slip is voided"]})
    if slip.status not in ChipSlip.OPEN:
        raise ValidationError({"status": [f"{slip.label} is {slip.status}; a received or voided slip is not voided "
                                          "(a received one is put right by a new slip)"]})
    if slip.void_requested_by_id is not None:
        raise ValidationError({"status": [f"a void of {slip.label} already waits for its second signature"]})
    slip.void_reason, slip.void_requested_by, slip.void_requested_at = reason, author, at or timezone.now()
    _save(slip, author=author, reason=f"void requested: {reason}",
          fields=["void_reason", "void_requested_by", "void_requested_at"])
    return slip


@transaction.atomic
def chip_slip_void_confirm(*, slip: ChipSlip, author, at=None) -> ChipSlip:
    """Second signature: another person voids the slip."""
    slip = _locked(slip)
    if slip.status not in ChipSlip.OPEN or slip.void_requested_by_id is None:
        raise ValidationError({"status": [f"{slip.label} has no void waiting for a second signature"]})
    _not_twice(author, slip.void_requested_by, "voided_by", "requested the void")
    slip.status, slip.voided_by, slip.voided_at = ChipSlip.VOIDED, author, at or timezone.now()
    _save(slip, author=author, reason=f"voided: {slip.void_reason}", fields=["status", "voided_by", "voided_at"])
    return slip
