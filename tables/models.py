"""The floor: casinos, pits, tables, dealers, and the rulesets tables run under.

Every change is kept by django-simple-history (who, when, what, why). A ruleset's every
configuration is also frozen as an append-only :class:`RulesetVersion`, which is what a
recorded round points at: editing a ruleset never changes how a past round settles.
"""

from __future__ import annotations

from decimal import Decimal
from zoneinfo import available_timezones

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from simple_history.models import HistoricalRecords

from tables.games import GAME_CHOICES, GAMES

_TIME_ZONES = sorted(available_timezones())


class Casino(models.Model):
    """A property: its own time zone, gaming-day start hour and currency."""

    name = models.CharField(max_length=120, unique=True)
    time_zone = models.CharField(max_length=64, choices=[(z, z) for z in _TIME_ZONES])
    gaming_day_start_hour = models.PositiveSmallIntegerField(
        default=6, validators=[MaxValueValidator(23)],
        help_text="Local hour at which a gaming day starts (0-23).",
    )
    currency = models.CharField(max_length=3, default="USD", help_text="ISO 4217 code.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(gaming_day_start_hour__lte=23), name="casino_start_hour_0_23"),
        ]

    def __str__(self) -> str:
        return self.name


class Pit(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="pits")
    name = models.CharField(max_length=60)
    history = HistoricalRecords()

    class Meta:
        ordering = ["casino__name", "name"]
        constraints = [models.UniqueConstraint(fields=["casino", "name"], name="pit_unique_name")]

    def __str__(self) -> str:
        return self.name


class Ruleset(models.Model):
    """A named set of rules for one game. ``config`` is the full engine snapshot."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="rulesets")
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    name = models.CharField(max_length=120)
    config = models.JSONField(help_text="Every setting of the game; see the engine's rulesets.")
    version = models.PositiveIntegerField(default=1, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["casino__name", "game", "name"]
        constraints = [models.UniqueConstraint(fields=["casino", "name"], name="ruleset_unique_name")]

    def __str__(self) -> str:
        return f"{self.name} (v{self.version})"

    @property
    def game_info(self):
        return GAMES[self.game]

    def rules(self):
        """The engine's frozen ruleset for this configuration."""
        return self.game_info.rules_from_dict(self.config)

    @property
    def current_version(self) -> RulesetVersion:
        return self.versions.get(number=self.version)


class RulesetVersion(models.Model):
    """One frozen configuration of a ruleset. Append-only: rounds point here."""

    ruleset = models.ForeignKey(Ruleset, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField()
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    config = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    reason = models.CharField(max_length=500)

    class Meta:
        ordering = ["ruleset", "-number"]
        constraints = [models.UniqueConstraint(fields=["ruleset", "number"], name="rulesetversion_unique_number")]

    def __str__(self) -> str:
        return f"{self.ruleset.name} v{self.number}"

    def rules(self):
        return GAMES[self.game].rules_from_dict(self.config)


class Table(models.Model):
    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="tables")
    label = models.CharField(max_length=30)
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    ruleset = models.ForeignKey(Ruleset, on_delete=models.PROTECT, related_name="tables")
    is_open = models.BooleanField(default=False)
    min_bet = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("10.00"),
                                  validators=[MinValueValidator(Decimal("0.01"))])
    max_bet = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("500.00"),
                                  validators=[MinValueValidator(Decimal("0.01"))])
    seats = models.PositiveSmallIntegerField(default=7, validators=[MinValueValidator(1), MaxValueValidator(7)])
    history = HistoricalRecords()

    class Meta:
        ordering = ["pit__name", "label"]
        constraints = [
            models.UniqueConstraint(fields=["pit", "label"], name="table_unique_label"),
            models.CheckConstraint(condition=models.Q(max_bet__gte=models.F("min_bet")), name="table_max_ge_min"),
        ]

    def __str__(self) -> str:
        return self.label


class Dealer(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="dealers")
    employee_number = models.CharField(max_length=20)
    name = models.CharField(max_length=120)
    active = models.BooleanField(default=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "employee_number"], name="dealer_unique_employee_number"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.employee_number})"
