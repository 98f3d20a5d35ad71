"""Reads of buy-ins and the count: the estimated drop per table and gaming day, and the day's
boxes with their counts beside it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db.models import Q

from casino.double_entry import ZERO
from casino.money import money_sum
from casino.scoping import narrow
from tables.accounting.models import BuyIn, DropBox, SoftCount
from tables.models import Table, TableSession


def buy_ins_of_day(casino_ids, gaming_day: date):
    """The day's buy-ins at the given casinos (``None``: all), voided ones included."""
    qs = BuyIn.objects.filter(gaming_day=gaming_day).select_related("table", "recorded_by", "void", "corrects")
    return narrow(qs, casino_ids).order_by("table__label", "recorded_at", "id")


def estimated_drop(casino_ids, gaming_day: date) -> dict[int, dict[str, Decimal]]:
    """Table id -> ``{"cash", "marker", "chips", "estimated_drop"}`` for ``gaming_day``: the
    buy-ins not voided; the estimated drop is cash + markers (what goes into the box)."""
    qs = narrow(BuyIn.objects.filter(gaming_day=gaming_day, void__isnull=True), casino_ids)
    sums = {kind: money_sum("amount", filter=Q(kind=kind)) for kind, _ in BuyIn.KINDS}
    out: dict[int, dict[str, Decimal]] = {}
    for row in qs.values("table_id").annotate(**sums):
        figures = {kind: row[kind] or ZERO for kind, _ in BuyIn.KINDS}
        figures["estimated_drop"] = sum((figures[k] for k in BuyIn.DROPPED), ZERO)
        out[row["table_id"]] = figures
    return out


@dataclass
class BoxRow:
    table: Table
    box: DropBox | None
    dropped: bool
    revisions: list[SoftCount] = field(default_factory=list)
    estimated: Decimal = ZERO

    @property
    def current(self) -> SoftCount | None:
        signed = [c for c in self.revisions if hasattr(c, "signature")]
        return signed[-1] if signed else None

    @property
    def pending(self) -> SoftCount | None:
        last = self.revisions[-1] if self.revisions else None
        return last if last is not None and not hasattr(last, "signature") else None

    @property
    def difference(self) -> Decimal | None:
        """Counted drop minus estimated drop (None until a count is signed)."""
        return None if self.current is None else self.current.drop - self.estimated


def boxes_of_day(casino_ids, gaming_day: date) -> list[BoxRow]:
    """Every table that was open on ``gaming_day`` or has a box for it, with its box, whether
    it was dropped, its count revisions (oldest first) and its estimated drop."""
    boxes = {b.table_id: b for b in narrow(DropBox.objects.filter(gaming_day=gaming_day), casino_ids)
             .select_related("drop", "table__pit")}
    opened = narrow(TableSession.objects.filter(gaming_day=gaming_day), casino_ids, "table__pit__casino")
    table_ids = set(boxes) | set(opened.values_list("table_id", flat=True))
    tables = Table.objects.filter(pk__in=table_ids).select_related("pit").order_by("pit__name", "label")
    counts: dict[int, list[SoftCount]] = {}
    for count in (SoftCount.objects.filter(box__in=boxes.values())
                  .select_related("signature__signed_by", "counted_by").prefetch_related("lines")
                  .order_by("revision")):
        counts.setdefault(count.box_id, []).append(count)
    estimates = estimated_drop(casino_ids, gaming_day)
    rows = []
    for table in tables:
        box = boxes.get(table.pk)
        rows.append(BoxRow(
            table=table, box=box, dropped=box is not None and hasattr(box, "drop"),
            revisions=counts.get(box.pk, []) if box else [],
            estimated=estimates.get(table.pk, {}).get("estimated_drop", ZERO)))
    return rows
