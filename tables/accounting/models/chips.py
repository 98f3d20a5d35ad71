"""A casino's chips: the set of denominations its tables and cage hold.

A gaming manager sets them (admin and API, with a reason kept in the history). A
denomination is never deleted, because slips and ledger legs name it: it is retired
(``active`` off) and a retired one is refused on new slips.
"""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models
from simple_history.models import HistoricalRecords

from casino.models import Casino

CHIP_VALUE = {"max_digits": 12, "decimal_places": 2}


class ChipSet(models.Model):
    """One per casino."""

    casino = models.OneToOneField(Casino, on_delete=models.PROTECT, related_name="chip_set")
    name = models.CharField(max_length=120)
    history = HistoricalRecords()

    class Meta:
        ordering = ["casino__name"]

    def __str__(self) -> str:
        return self.name


class Denomination(models.Model):
    chip_set = models.ForeignKey(ChipSet, on_delete=models.PROTECT, related_name="denominations")
    value = models.DecimalField(**CHIP_VALUE, validators=[MinValueValidator(Decimal("0.01"))])
    active = models.BooleanField(default=True, help_text="Retired chips stay in old slips and legs.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["chip_set", "value"]
        constraints = [
            models.UniqueConstraint(fields=["chip_set", "value"], name="denomination_unique_value"),
            models.CheckConstraint(condition=models.Q(value__gt=0), name="denomination_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.value:,}"
