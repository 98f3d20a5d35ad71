"""Reads of the accounting records that pages, exports and the API share."""

from __future__ import annotations

from datetime import date

from django.db.models import Prefetch, Q

from casino.scoping import narrow
from tables.accounting.models import (
    AccountingFinding,
    ChipSet,
    ChipSlip,
    ChipSlipLine,
    Denomination,
    InventoryLine,
    InventorySlip,
    SerialCounter,
)
from tables.accounting.models.serials import serial_label


def active_denominations(casino) -> list[Denomination]:
    chip_set = ChipSet.objects.filter(casino=casino).first()
    return list(chip_set.denominations.filter(active=True)) if chip_set else []


def chip_slips(casino_ids, **filters):
    rows = ChipSlip.objects.select_related("table", "requested_by", "issued_by", "received_by", "received_dealer",
                                           "void_requested_by", "voided_by")
    return narrow(rows, casino_ids, "casino").filter(**filters).prefetch_related(
        Prefetch("lines", queryset=ChipSlipLine.objects.select_related("denomination")))


def inventory_slips(casino_ids, **filters):
    rows = InventorySlip.objects.select_related("table", "recorded_by", "dealer")
    return narrow(rows, casino_ids, "casino").filter(**filters).prefetch_related(
        Prefetch("lines", queryset=InventoryLine.objects.select_related("denomination")))


def lines_text(slip) -> str:
    return ", ".join(f"{line.count} x {line.denomination.value}" for line in slip.lines.all())


#: (field, header) of the day's slips, in the page, the CSV and the XLSX.
SLIP_COLUMNS = (("serial", "Serial"), ("kind", "Slip"), ("table", "Table"), ("gaming_day", "Gaming day"),
                ("status", "Status"), ("total", "Total"), ("chips", "Chips"), ("time", "Time (UTC)"),
                ("signed", "Signed by"), ("note", "Note"))


def day_slip_rows(casino_ids, day: date) -> list[dict]:
    """Every slip of the gaming day: openers and closers, fills and credits, by serial."""
    rows = []
    for s in inventory_slips(casino_ids, gaming_day=day).order_by("serial"):
        signers = [str(s.recorded_by)] + ([f"dealer {s.dealer.name} (#{s.dealer.employee_number})"] if s.dealer else [])
        rows.append({"serial": s.label, "kind": s.kind, "table": s.table.label, "gaming_day": s.gaming_day,
                     "status": "on paper" if s.on_paper else "counted", "total": s.total, "chips": lines_text(s),
                     "time": s.recorded_at, "signed": "; ".join(signers), "note": ""})
    for s in chip_slips(casino_ids, gaming_day=day).order_by("kind", "serial"):
        signers = [f"requested {s.requested_by}"] + [f"{what} {who}" for what, who in (
            ("issued", s.issued_by), ("received", s.received_by), ("dealer", s.received_dealer),
            ("void asked", s.void_requested_by), ("voided", s.voided_by)) if who]
        rows.append({"serial": s.label, "kind": s.kind, "table": s.table.label, "gaming_day": s.gaming_day,
                     "status": s.status, "total": s.total, "chips": lines_text(s), "time": s.requested_at,
                     "signed": "; ".join(signers), "note": s.void_reason})
    return rows


EXCEPTION_COLUMNS = (("what", "Exception"), ("serial", "Slip"), ("table", "Table"), ("gaming_day", "Gaming day"),
                     ("amount", "Amount"), ("detail", "Detail"))


def exception_rows(casino_ids, day: date) -> list[dict]:
    """The day's exceptions: voids (and voids awaiting a second signature), slips not yet
    received, receipts without the dealer's signature, openers and closers written on paper,
    and the findings (inventory discrepancies, for the regulator or not)."""
    rows = []
    for s in chip_slips(casino_ids, gaming_day=day).filter(
            Q(status__in=(ChipSlip.VOIDED, *ChipSlip.OPEN)) | Q(status=ChipSlip.RECEIVED, received_dealer__isnull=True)
    ).order_by("kind", "serial"):
        if s.status == ChipSlip.VOIDED:
            what, detail = "voided", f"{s.void_reason} (asked by {s.void_requested_by}, voided by {s.voided_by})"
        elif s.status in ChipSlip.OPEN:
            what = "not received"
            detail = f"{s.status}" + (f"; void asked by {s.void_requested_by}: {s.void_reason}"
                                      if s.void_requested_by_id else "")
        else:
            what, detail = "no dealer signature", f"received by {s.received_by}"
        rows.append({"what": what, "serial": s.label, "table": s.table.label, "gaming_day": s.gaming_day,
                     "amount": s.total, "detail": detail})
    for s in inventory_slips(casino_ids, gaming_day=day, on_paper=True).order_by("serial"):
        rows.append({"what": f"{s.kind} on paper", "serial": s.label, "table": s.table.label,
                     "gaming_day": s.gaming_day, "amount": s.total,
                     "detail": "the table stayed open over the gaming-day start: the book's chips, not a count"})
    rows += serial_gap_rows(casino_ids)
    for f in narrow(AccountingFinding.objects.select_related("table", "inventory_slip", "chip_slip"), casino_ids,
                    "casino").filter(gaming_day=day, code=AccountingFinding.INVENTORY_DISCREPANCY):
        rows.append({"what": "discrepancy, to the regulator" if f.to_regulator else "discrepancy",
                     "serial": f.inventory_slip.label, "table": f.table.label, "gaming_day": f.gaming_day,
                     "amount": f.amount, "detail": f.message})
    return rows


def serial_gap_rows(casino_ids) -> list[dict]:
    """Numbers a series has issued (its counter) that no slip holds. The services cannot leave
    one (a rolled-back slip gives its number back); a gap means a row removed behind their back,
    so it is listed on every day's report until it is explained."""
    series_rows = {SerialCounter.FILL: (ChipSlip.objects, {"kind": ChipSlip.FILL}),
                   SerialCounter.CREDIT: (ChipSlip.objects, {"kind": ChipSlip.CREDIT}),
                   SerialCounter.INVENTORY: (InventorySlip.objects, {})}
    rows = []
    for counter in narrow(SerialCounter.objects.select_related("casino"), casino_ids, "casino"):
        manager, filters = series_rows[counter.series]
        held = set(manager.filter(casino=counter.casino, **filters).values_list("serial", flat=True))
        missing = [n for n in range(1, counter.last + 1) if n not in held]
        if missing:
            shown = ", ".join(serial_label(counter.series, n) for n in missing[:20])
            rows.append({"what": "gap in the numbers", "serial": shown, "table": "", "gaming_day": "",
                         "amount": "", "detail": f"{counter.casino}: {len(missing)} number(s) issued but held by "
                                                 f"no slip of the {counter.get_series_display()}"})
    return rows
