"""Drop boxes and the soft count (25 CFR 542.21 and 542.31; README.md beside this package).

* :class:`DropBox` - one per table and gaming day, put on with the table's opener; at a table
  that keeps no chip inventory, on first need (the day's first buy-in, or the box's drop).
* :class:`BoxDrop` - the box was removed from the table at the day's end; only a dropped box
  can be counted.
* :class:`SoftCount` - one revision of the box's count: currency by note, chips by the chip
  set's denominations, markers and coupons, entered by one counter (the first signature).
* :class:`CountSignature` - the second counter's signature; the count then posts to the chip
  ledger. The box's *current* count is its latest signed revision; a later revision needs a
  reason and is signed again by someone other than who entered it.

Every row here is append-only (PostgreSQL guard, migration 0005). Who counts is the casino's
``AccountingSettings.finance_counts`` (models/slips.py).: a count changes only by a
new revision, never in place.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from casino.models import Casino
from tables.accounting.models.chips import Denomination
from tables.accounting.models.ledger import MONEY, Transaction
from tables.models import Table

_USER = {"to": settings.AUTH_USER_MODEL, "on_delete": models.PROTECT, "related_name": "+"}


class DropBox(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="drop_boxes")
    gaming_day = models.DateField()
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(**_USER)

    class Meta:
        ordering = ["gaming_day", "table__label"]
        constraints = [models.UniqueConstraint(fields=["table", "gaming_day"], name="dropbox_one_per_table_day")]
        indexes = [models.Index(fields=["casino", "gaming_day"])]

    def __str__(self) -> str:
        return f"drop box {self.table} {self.gaming_day}"


class BoxDrop(models.Model):
    box = models.OneToOneField(DropBox, on_delete=models.PROTECT, related_name="drop")
    dropped_at = models.DateTimeField()
    dropped_by = models.ForeignKey(**_USER)

    def __str__(self) -> str:
        return f"{self.box} dropped {self.dropped_at:%Y-%m-%d %H:%M}"


class SoftCount(models.Model):
    box = models.ForeignKey(DropBox, on_delete=models.PROTECT, related_name="counts")
    revision = models.PositiveIntegerField()
    reason = models.TextField(blank=True, help_text="Why this revision; required after the first.")
    counted_by = models.ForeignKey(**_USER, help_text="The counter who entered it: first signature.")
    counted_at = models.DateTimeField()
    currency = models.DecimalField(**MONEY)
    chips = models.DecimalField(**MONEY)
    markers = models.DecimalField(**MONEY)
    coupons = models.DecimalField(**MONEY, help_text="Promotional coupons: counted, not drop.")
    drop = models.DecimalField(**MONEY, help_text="currency + chips + markers")

    class Meta:
        ordering = ["box", "revision"]
        constraints = [
            models.UniqueConstraint(fields=["box", "revision"], name="softcount_unique_revision"),
            models.CheckConstraint(condition=models.Q(revision=1) | ~models.Q(reason=""),
                                   name="softcount_revision_has_reason"),
            models.CheckConstraint(
                condition=models.Q(currency__gte=0, chips__gte=0, markers__gte=0, coupons__gte=0,
                                   drop=models.F("currency") + models.F("chips") + models.F("markers")),
                name="softcount_totals"),
        ]

    def __str__(self) -> str:
        return f"count {self.box} rev {self.revision}"


class SoftCountLine(models.Model):
    CURRENCY, CHIPS = "currency", "chips"
    KINDS = [(CURRENCY, "currency notes"), (CHIPS, "chips")]

    count = models.ForeignKey(SoftCount, on_delete=models.PROTECT, related_name="lines")
    kind = models.CharField(max_length=8, choices=KINDS)
    value = models.DecimalField(max_digits=12, decimal_places=2, help_text="The note's or chip's value.")
    denomination = models.ForeignKey(Denomination, on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="+", help_text="Chips: the chip set's denomination.")
    quantity = models.PositiveIntegerField()
    amount = models.DecimalField(**MONEY)

    class Meta:
        ordering = ["count", "kind", "value"]
        constraints = [
            models.UniqueConstraint(fields=["count", "kind", "value"], name="softcountline_unique"),
            models.CheckConstraint(condition=models.Q(amount=models.F("value") * models.F("quantity")),
                                   name="softcountline_amount"),
            models.CheckConstraint(condition=models.Q(kind="chips", denomination__isnull=False)
                                   | models.Q(kind="currency", denomination__isnull=True),
                                   name="softcountline_chips_name_denomination"),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} x {self.value} {self.kind}"


class CountSignature(models.Model):
    """The second counter's signature. ``entered_by`` repeats the revision's first signer so
    that PostgreSQL itself refuses one person signing twice."""

    count = models.OneToOneField(SoftCount, on_delete=models.PROTECT, related_name="signature")
    entered_by = models.ForeignKey(**_USER)
    signed_by = models.ForeignKey(**_USER)
    signed_at = models.DateTimeField()
    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+", help_text="The posting; empty when the revision "
                                    "changed nothing the ledger holds (coupons only).")

    class Meta:
        constraints = [models.CheckConstraint(condition=~models.Q(signed_by=models.F("entered_by")),
                                              name="countsignature_two_people")]

    def __str__(self) -> str:
        return f"{self.count} signed by {self.signed_by}"
