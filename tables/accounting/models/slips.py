"""Table inventory slips (opener, closer) and fill and credit slips, with their lines per
denomination, and the casino's accounting thresholds.

Every slip carries a system-issued serial number, gapless per casino and series
(models/serials.py). Slips are never deleted; an inventory slip never changes, a fill or
credit slip only moves requested -> issued -> received, or to voided with a reason and a
second person (PostgreSQL guard, casino/audit_guard.py RULES). Who signs what, and the
regulations each record follows: README.md beside this package.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from simple_history.models import HistoricalRecords

from casino.models import Casino
from tables.accounting.models.chips import Denomination
from tables.accounting.models.ledger import MONEY, Transaction
from tables.accounting.models.serials import SerialCounter, serial_label
from tables.models import Dealer, Table, TableSession

_USER = {"to": settings.AUTH_USER_MODEL, "on_delete": models.PROTECT, "related_name": "+"}


class AccountingSettings(models.Model):
    """A casino's accounting settings, one row per casino: the discrepancy thresholds (defaults:
    New Jersey's, ACCOUNTING.md) and who counts the drop boxes."""

    casino = models.OneToOneField(Casino, on_delete=models.PROTECT, related_name="accounting_settings")
    report_above = models.DecimalField(
        **MONEY, default=Decimal("25.00"), validators=[MinValueValidator(Decimal("0"))],
        help_text="An opener that differs from the last closer by more than this is a finding.")
    regulator_at = models.DecimalField(
        **MONEY, default=Decimal("100.00"), validators=[MinValueValidator(Decimal("0"))],
        help_text="A discrepancy of this much or more is also reported to the regulator.")
    finance_counts = models.BooleanField(
        default=False, help_text="The casino has no count team: finance drops and counts the boxes.")
    unexplained_above = models.DecimalField(
        **MONEY, default=Decimal("100.00"), validators=[MinValueValidator(Decimal("0"))],
        help_text="A table day whose statistical win differs from its recorded play by more than this, once "
                  "dealer errors and jackpots are accounted for, is a finding for surveillance.")
    # An amount no table takes in one buy-in is a typing mistake (a 5,000 typed 500,000), refused
    # with the field named, not stored and explained later.
    buy_in_max = models.DecimalField(
        **MONEY, default=Decimal("100000.00"), validators=[MinValueValidator(Decimal("0.01"))],
        help_text="The largest single buy-in a table records; more is refused as a typing mistake.")
    slip_max = models.DecimalField(
        **MONEY, default=Decimal("5000000.00"), validators=[MinValueValidator(Decimal("0.01"))],
        help_text="The largest total of chips one slip (opener, closer, fill, credit) or one drop box "
                  "holds; more is refused as a typing mistake.")
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = "accounting settings"
        constraints = [models.CheckConstraint(condition=models.Q(report_above__gte=0, regulator_at__gte=0),
                                              name="accountingsettings_not_negative"),
                       models.CheckConstraint(condition=models.Q(unexplained_above__gte=0),
                                              name="accountingsettings_unexplained_not_negative")]

    def __str__(self) -> str:
        who = "finance counts" if self.finance_counts else "count team"
        return f"{self.casino}: report above {self.report_above}, regulator at {self.regulator_at}, {who}"


class InventorySlip(models.Model):
    OPENER, CLOSER = "opener", "closer"
    KINDS = [(OPENER, "opener"), (CLOSER, "closer")]

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="inventory_slips")
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="inventory_slips")
    kind = models.CharField(max_length=8, choices=KINDS)
    serial = models.PositiveIntegerField()
    gaming_day = models.DateField()
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(**_USER, help_text="The pit boss: first signature.")
    dealer = models.ForeignKey(Dealer, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                               help_text="Second signature: the dealer, confirmed by their badge number.")
    on_paper = models.BooleanField(
        default=False, help_text="Written at the gaming-day start for a table that stayed open: the book's "
        "chips, closed and reopened on paper, not counted.")
    total = models.DecimalField(**MONEY)
    previous = models.OneToOneField("self", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="next_opener", help_text="An opener's: the table's last closer.")
    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+")

    class Meta:
        ordering = ["-recorded_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["casino", "serial"], name="inventoryslip_unique_serial")]
        indexes = [models.Index(fields=["table", "recorded_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.label} {self.table}"

    @property
    def label(self) -> str:
        return serial_label(SerialCounter.INVENTORY, self.serial)


class InventoryLine(models.Model):
    slip = models.ForeignKey(InventorySlip, on_delete=models.PROTECT, related_name="lines")
    denomination = models.ForeignKey(Denomination, on_delete=models.PROTECT, related_name="+")
    # Counted slips hold 0 or more (services/counts.py); a slip written on paper at the gaming-day
    # start holds the book, which may owe a denomination (services/inventory.py).
    count = models.IntegerField()
    amount = models.DecimalField(**MONEY)

    class Meta:
        ordering = ["slip", "denomination__value"]
        constraints = [models.UniqueConstraint(fields=["slip", "denomination"], name="inventoryline_unique")]

    def __str__(self) -> str:
        return f"{self.count} x {self.denomination}"


class ChipSlip(models.Model):
    """A fill (cage to table) or a credit (table to cage)."""

    FILL, CREDIT = "fill", "credit"
    KINDS = [(FILL, "fill"), (CREDIT, "credit")]
    REQUESTED, ISSUED, RECEIVED, VOIDED = "requested", "issued", "received", "voided"
    STATUSES = [(REQUESTED, "requested at the table"), (ISSUED, "issued by the cage"),
                (RECEIVED, "received and signed at the table"), (VOIDED, "voided")]
    OPEN = (REQUESTED, ISSUED)

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="chip_slips")
    kind = models.CharField(max_length=8, choices=KINDS)
    serial = models.PositiveIntegerField()
    gaming_day = models.DateField()
    total = models.DecimalField(**MONEY)
    status = models.CharField(max_length=10, choices=STATUSES, default=REQUESTED)
    requested_at = models.DateTimeField()
    requested_by = models.ForeignKey(**_USER)
    issued_at = models.DateTimeField(null=True, blank=True)
    issued_by = models.ForeignKey(**_USER, null=True, blank=True, help_text="The cage cashier.")
    received_at = models.DateTimeField(null=True, blank=True)
    received_by = models.ForeignKey(**_USER, null=True, blank=True, help_text="The pit boss.")
    received_dealer = models.ForeignKey(Dealer, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                                        help_text="The dealer's signature (badge number confirmed); empty: "
                                        "a fill received without it, flagged (a credit always has it).")
    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    void_reason = models.TextField(blank=True)
    void_requested_by = models.ForeignKey(**_USER, null=True, blank=True, help_text="First signature of a void.")
    void_requested_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(**_USER, null=True, blank=True, help_text="Second signature: another person.")
    voided_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "kind", "serial"], name="chipslip_unique_serial"),
            models.CheckConstraint(condition=~models.Q(status="voided") | ~models.Q(void_reason=""),
                                   name="chipslip_void_has_reason"),
            models.CheckConstraint(
                condition=models.Q(voided_by__isnull=True) | ~models.Q(voided_by=models.F("void_requested_by")),
                name="chipslip_void_two_people"),
            # Four eyes on the money's way, held by the database as well as by the services
            # (services/transfers.py): the cashier who issues a slip did not request it, and the
            # pit boss who receives it did not issue it.
            models.CheckConstraint(
                condition=models.Q(issued_by__isnull=True) | ~models.Q(issued_by=models.F("requested_by")),
                name="chipslip_issuer_not_requester"),
            models.CheckConstraint(
                condition=models.Q(received_by__isnull=True) | ~models.Q(received_by=models.F("issued_by")),
                name="chipslip_receiver_not_issuer"),
            # A credit's chips leave the tray only on the dealer's signature (services/transfers.py);
            # migration 0010 adds it NOT VALID in PostgreSQL: older unsigned credits stay as history.
            models.CheckConstraint(
                condition=~models.Q(kind="credit", status="received") | models.Q(received_dealer__isnull=False),
                name="chipslip_credit_dealer_signed"),
        ]
        indexes = [models.Index(fields=["casino", "gaming_day"]), models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.label}"

    @property
    def label(self) -> str:
        return serial_label(self.kind, self.serial)  # the kinds are the series' names


class ChipSlipLine(models.Model):
    slip = models.ForeignKey(ChipSlip, on_delete=models.PROTECT, related_name="lines")
    denomination = models.ForeignKey(Denomination, on_delete=models.PROTECT, related_name="+")
    count = models.PositiveIntegerField()
    amount = models.DecimalField(**MONEY)

    class Meta:
        ordering = ["slip", "denomination__value"]
        constraints = [models.UniqueConstraint(fields=["slip", "denomination"], name="chipslipline_unique")]

    def __str__(self) -> str:
        return f"{self.count} x {self.denomination}"


class AccountingFinding(models.Model):
    """Something that happened but broke a procedure: stored as recorded and flagged.

    Not an ``audit.Finding``: those belong to a round's revision and count as dealer errors.
    These belong to a slip; surveillance and compliance read them on the exception report."""

    INVENTORY_DISCREPANCY, NO_DEALER_SIGNATURE = "INVENTORY_DISCREPANCY", "NO_DEALER_SIGNATURE"
    UNEXPLAINED_DIFFERENCE = "UNEXPLAINED_DIFFERENCE"
    CODES = [(INVENTORY_DISCREPANCY, "opener differs from the last closer"),
             (NO_DEALER_SIGNATURE, "slip received without the dealer's signature"),
             (UNEXPLAINED_DIFFERENCE, "statistical win differs from recorded play beyond the threshold")]

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    code = models.CharField(max_length=40, choices=CODES)
    message = models.TextField()
    amount = models.DecimalField(**MONEY, help_text="Money at stake.")
    to_regulator = models.BooleanField(default=False, help_text="At or above the casino's regulator threshold.")
    inventory_slip = models.ForeignKey(InventorySlip, on_delete=models.PROTECT, null=True, blank=True,
                                       related_name="findings")
    chip_slip = models.ForeignKey(ChipSlip, on_delete=models.PROTECT, null=True, blank=True, related_name="findings")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["casino", "gaming_day"])]

    def __str__(self) -> str:
        return f"{self.code} {self.table} {self.gaming_day}"
