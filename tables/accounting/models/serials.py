"""System-issued slip numbers, gapless per casino and series.

A slip takes its number from its series' counter row, locked with SELECT ... FOR UPDATE in
the slip's own transaction: a second request waits for the first to commit or roll back, so
numbers are never skipped (a rolled-back slip gives its number back) nor given twice. The
counter only grows (PostgreSQL guard, casino/audit_guard.py RULES).
"""

from __future__ import annotations

from django.db import models

from casino.models import Casino


class SerialCounter(models.Model):
    FILL, CREDIT, INVENTORY = "fill", "credit", "inventory"
    SERIES = [(FILL, "fill slips"), (CREDIT, "credit slips"), (INVENTORY, "opener and closer slips")]
    PREFIX = {FILL: "F", CREDIT: "C", INVENTORY: "I"}

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    series = models.CharField(max_length=16, choices=SERIES)
    last = models.PositiveIntegerField(default=0, help_text="The last number issued.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["casino", "series"], name="serialcounter_unique")]

    def __str__(self) -> str:
        return f"{self.casino} {self.series} #{self.last}"


def serial_label(series: str, number: int) -> str:
    """How a slip's number is written on the slip and everywhere it is named: ``F-000042``."""
    return f"{SerialCounter.PREFIX[series]}-{number:06d}"
