"""Title 31 records (README.md beside this package): the casino's thresholds (with history),
cash paid out at the cage, patrons' identification, the compliance sign-off of a day's multiple
transaction log and the CTR exceptions compliance records.

Everything here is append-only (PostgreSQL triggers, migration 0002): a cash-out is put right by
a void with a reason and a new record; an identification is put right by a newer one (the latest
is the patron's current identification, every earlier one stays); a sign-off or an exception is
never taken back, only followed by a newer one. Only the settings change, with their history.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from simple_history.models import HistoricalRecords

from casino.models import Casino
from tables.players.models import Player

MONEY = {"max_digits": 14, "decimal_places": 2}
_USER = {"to": settings.AUTH_USER_MODEL, "on_delete": models.PROTECT, "related_name": "+"}
CASH_IN, CASH_OUT = "in", "out"
DIRECTIONS = [(CASH_IN, "cash in"), (CASH_OUT, "cash out")]


class ComplianceSettings(models.Model):
    """One row per casino (none: the defaults below, 31 CFR 1021.311's $10,000 and the house's
    $3,000 log)."""

    casino = models.OneToOneField(Casino, on_delete=models.PROTECT, related_name="compliance_settings")
    mtl_threshold = models.DecimalField(
        **MONEY, default=Decimal("3000.00"), validators=[MinValueValidator(Decimal("0.01"))],
        help_text="A patron whose cash in, or cash out, in a gaming day is over this is on the day's MTL.")
    ctr_threshold = models.DecimalField(
        **MONEY, default=Decimal("10000.00"), validators=[MinValueValidator(Decimal("0.01"))],
        help_text="More than this in a gaming day, in one direction, needs a CTR (31 CFR 1021.311).")
    band_pct = models.DecimalField(
        max_digits=5, decimal_places=2, default=Decimal("10.00"),
        validators=[MinValueValidator(Decimal("0.01"))],
        help_text="A transaction within this percentage under a threshold is 'near' it (structuring).")
    near_count = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(2)],
        help_text="This many near-threshold transactions of a patron in a day are flagged.")
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = "compliance settings"
        constraints = [models.CheckConstraint(
            condition=models.Q(mtl_threshold__gt=0, ctr_threshold__gt=0, band_pct__gt=0, band_pct__lt=100,
                               near_count__gte=2), name="compliancesettings_sane")]

    def __str__(self) -> str:
        return f"{self.casino}: MTL over {self.mtl_threshold}, CTR over {self.ctr_threshold}"


class CashOut(models.Model):
    """Currency the cage paid a patron (chips redeemed, or another payment in cash)."""

    REDEMPTION, OTHER = "chip_redemption", "other"
    KINDS = [(REDEMPTION, "chip redemption"), (OTHER, "other currency paid to the patron")]

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    kind = models.CharField(max_length=16, choices=KINDS)
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    player_identifier = models.CharField(  # noqa: DJ001 - NULL is "not known", "" is never stored
        max_length=40, null=True, blank=True, help_text="The patron's card number or ID, when known.")
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(**_USER)
    corrects = models.OneToOneField("self", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="correction", help_text="The voided cash-out this one replaces.")

    class Meta:
        ordering = ["-recorded_at", "-id"]
        indexes = [models.Index(fields=["casino", "gaming_day"])]
        constraints = [models.CheckConstraint(condition=models.Q(amount__gt=0), name="cashout_amount_positive")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount} on {self.gaming_day}"


class CashOutVoid(models.Model):
    cash_out = models.OneToOneField(CashOut, on_delete=models.PROTECT, related_name="void")
    reason = models.TextField()
    voided_by = models.ForeignKey(**_USER)
    voided_at = models.DateTimeField()

    class Meta:
        constraints = [models.CheckConstraint(condition=~models.Q(reason=""), name="cashoutvoid_has_reason")]

    def __str__(self) -> str:
        return f"void of {self.cash_out}"


class PatronIdentification(models.Model):
    """A patron's identification as compliance recorded it from the document (what FinCEN Form 112
    asks). The latest row of a player is the current one; a correction is a newer row with a reason."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="identifications")
    last_name = models.CharField(max_length=80, blank=True)
    first_name = models.CharField(max_length=80, blank=True)
    address = models.TextField(blank=True, help_text="Permanent address: street, city, state, ZIP, country.")
    date_of_birth = models.DateField(null=True, blank=True)
    tin = models.CharField(max_length=20, blank=True, help_text="SSN or taxpayer identification number.")
    occupation = models.CharField(max_length=80, blank=True)
    document_type = models.CharField(max_length=40, blank=True,
                                     help_text="Driver's license, passport, state ID, alien registration, ...")
    document_number = models.CharField(max_length=40, blank=True)
    document_issuer = models.CharField(max_length=80, blank=True, help_text="Issuing state or country.")
    document_expiry = models.DateField(null=True, blank=True)
    reason = models.TextField()
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(**_USER)

    class Meta:
        ordering = ["-recorded_at", "-id"]
        constraints = [models.CheckConstraint(condition=~models.Q(reason=""), name="identification_has_reason")]

    def __str__(self) -> str:
        return f"identification of {self.player.identifier} ({self.recorded_at:%Y-%m-%d})"


class MtlSignOff(models.Model):
    """Compliance signed the day's MTL as it stood: ``digest`` is the SHA-256 of its contents
    (selectors.mtl_digest), so a later change shows as 'changed since signed'."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    digest = models.CharField(max_length=64)
    patrons = models.PositiveIntegerField(help_text="Patrons on the MTL when signed.")
    note = models.TextField(blank=True)
    signed_by = models.ForeignKey(**_USER)
    signed_at = models.DateTimeField()

    class Meta:
        ordering = ["-signed_at", "-id"]
        indexes = [models.Index(fields=["casino", "gaming_day"])]

    def __str__(self) -> str:
        return f"MTL {self.gaming_day} signed by {self.signed_by}"


class CtrException(models.Model):
    """Compliance settled a required CTR without full identification (the patron left without
    showing ID; the CTR was filed with what is known): the day may then close."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    subject = models.CharField(max_length=60, help_text="The patron's identifier, or 'buy-in 12' / 'cash-out 3' "
                               "for a transaction recorded without one.")
    direction = models.CharField(max_length=3, choices=DIRECTIONS)
    reason = models.TextField()
    recorded_by = models.ForeignKey(**_USER)
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-recorded_at", "-id"]
        indexes = [models.Index(fields=["casino", "gaming_day"])]
        constraints = [models.CheckConstraint(condition=~models.Q(reason=""), name="ctrexception_has_reason")]

    def __str__(self) -> str:
        return f"CTR exception {self.subject} {self.direction} {self.gaming_day}"
