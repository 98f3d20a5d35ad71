"""Buy-ins at the table: cash, markers or another table's chips exchanged for this table's
chips at a seat. The sum of a table's cash and marker buy-ins for a gaming day is its
*estimated drop* (selectors_drop.estimated_drop), compared with what the count finds.

A buy-in is append-only: a mistake is put right by voiding it (a :class:`BuyInVoid` with a
reason and its author) and recording the right one (``corrects`` names the voided record).
Buy-ins post nothing to the chip ledger: README.md beside this package says why.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models

from casino.models import Casino
from tables.accounting.models.ledger import MONEY
from tables.models import Table, TableSession

_USER = {"to": settings.AUTH_USER_MODEL, "on_delete": models.PROTECT, "related_name": "+"}


class BuyIn(models.Model):
    CASH, MARKER, CHIPS = "cash", "marker", "chips"
    KINDS = [(CASH, "cash"), (MARKER, "marker (credit instrument)"), (CHIPS, "chips from another table")]
    #: What goes into the drop box, so counts towards the estimated drop. Another table's
    #: chips go into this table's tray (they are house chips), not the box.
    DROPPED = (CASH, MARKER)

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="buy_ins")
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="+",
                                help_text="The table's open session when it was recorded.")
    gaming_day = models.DateField()
    seat = models.PositiveSmallIntegerField(help_text="As the table shows it: 1 to the table's seats.")
    kind = models.CharField(max_length=8, choices=KINDS)
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    # Free text until the players' issue gives players records; it will then gain a player key.
    player_identifier = models.CharField(  # noqa: DJ001 - NULL is "not known", "" is never stored
        max_length=40, null=True, blank=True, help_text="The player's card number or ID, when known.")
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(**_USER)
    corrects = models.OneToOneField("self", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="correction", help_text="The voided buy-in this one replaces.")

    class Meta:
        ordering = ["-recorded_at", "-id"]
        indexes = [models.Index(fields=["casino", "gaming_day"]), models.Index(fields=["table", "gaming_day"])]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="buyin_amount_positive"),
            models.CheckConstraint(condition=models.Q(seat__gte=1), name="buyin_seat_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount} {self.table} seat {self.seat}"


class BuyInVoid(models.Model):
    buy_in = models.OneToOneField(BuyIn, on_delete=models.PROTECT, related_name="void")
    reason = models.TextField()
    voided_by = models.ForeignKey(**_USER)
    voided_at = models.DateTimeField()

    class Meta:
        constraints = [models.CheckConstraint(condition=~models.Q(reason=""), name="buyinvoid_has_reason")]

    def __str__(self) -> str:
        return f"void of {self.buy_in}"
