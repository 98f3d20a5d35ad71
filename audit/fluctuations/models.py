"""A casino's hold-fluctuation bounds (with history) and the investigations they open.

An investigation's figures and drafted explanation are written once, when the check opens it;
afterwards only its owner, status and the conclusion/sign-off that go with a status move
change, as casino/audit_guard.py RULES["fluctuations_investigation"] allows (PostgreSQL refuses
anything else), and simple-history keeps every step with its author and reason.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from simple_history.models import HistoricalRecords

from casino.models import Casino

_PCT = {"max_digits": 7, "decimal_places": 2}

MARYLAND, KANSAS, OHIO, CUSTOM = "maryland", "kansas", "ohio", "custom"
PRESETS = [
    (MARYLAND, "Maryland COMAR 36.05.03.25: outside the 95% interval around the prior year's hold"),
    (KANSAS, "Kansas K.A.R. 112-108-51: a swing of more than 3 points month to month"),
    (OHIO, "Ohio OAC 3772-11-43: a minimum/maximum hold band, reviewed each period"),
    (CUSTOM, "Custom: the rules and values chosen below"),
]
#: What each preset switches on (and the values it sets); "custom" leaves the fields as entered.
PRESET_RULES = {
    MARYLAND: {"prior_year_interval": True, "monthly_swing": False, "band": False, "z": Decimal("1.96")},
    KANSAS: {"prior_year_interval": False, "monthly_swing": True, "band": False, "swing_points": Decimal("3.00")},
    OHIO: {"prior_year_interval": False, "monthly_swing": False, "band": True},
}

RULE_PRIOR_YEAR, RULE_SWING, RULE_BAND = "prior_year_interval", "monthly_swing", "band"
RULES = [(RULE_PRIOR_YEAR, "outside the 95% interval around the prior year's hold"),
         (RULE_SWING, "month-to-month swing"), (RULE_BAND, "outside the hold band")]


class FluctuationSettings(models.Model):
    """One row per casino: which rules open an investigation, and their values."""

    casino = models.OneToOneField(Casino, on_delete=models.PROTECT, related_name="fluctuation_settings")
    preset = models.CharField(max_length=10, choices=PRESETS, default=MARYLAND,
                              help_text="A regulator's pattern; it switches its rule on and sets its value.")
    prior_year_interval = models.BooleanField(
        default=True, help_text="A month's hold outside prior year's hold +/- z x (the month's win sd / drop).")
    z = models.DecimalField(max_digits=4, decimal_places=2, default=Decimal("1.96"),
                            help_text="Width of the interval in standard deviations (1.96: 95%).")
    monthly_swing = models.BooleanField(default=False,
                                        help_text="A month's hold that moved from the previous month's by more "
                                        "than the swing points.")
    swing_points = models.DecimalField(**_PCT, default=Decimal("3.00"), help_text="Percentage points.")
    band = models.BooleanField(default=False, help_text="A day's or a month's hold outside [band min, band max].")
    band_min = models.DecimalField(**_PCT, null=True, blank=True, help_text="Lowest acceptable hold %.")
    band_max = models.DecimalField(**_PCT, null=True, blank=True, help_text="Highest acceptable hold %.")
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = "fluctuation settings"

    def __str__(self) -> str:
        return f"{self.casino}: {self.get_preset_display()}"

    def apply_preset(self) -> None:
        for name, value in PRESET_RULES.get(self.preset, {}).items():
            setattr(self, name, value)

    def clean(self) -> None:
        self.apply_preset()
        errors: dict[str, list[str]] = {}
        if self.z is not None and self.z <= 0:
            errors["z"] = ["Must be more than 0 standard deviations."]
        if self.swing_points is not None and self.swing_points <= 0:
            errors["swing_points"] = ["Must be more than 0 points."]
        if self.band:
            for name in ("band_min", "band_max"):
                if getattr(self, name) is None:
                    errors[name] = ["Required when the hold band is on."]
        if self.band_min is not None and self.band_max is not None and self.band_min >= self.band_max:
            errors["band_max"] = ["Must be above the band's minimum."]
        for name in ("band_min", "band_max"):
            value = getattr(self, name)
            if value is not None and not Decimal("-100") <= value <= Decimal("100"):
                errors.setdefault(name, []).append("A hold % between -100 and 100.")
        if not (self.prior_year_interval or self.monthly_swing or self.band):
            errors["preset"] = ["Switch on at least one rule."]
        if errors:
            raise ValidationError(errors)


LEVELS = [("floor", "floor"), ("pit", "pit"), ("game", "game"), ("table", "table")]
DAY, MONTH = "day", "month"
PERIODS = [(DAY, "gaming day"), (MONTH, "month")]


class Investigation(models.Model):
    """A hold outside the casino's bounds, investigated in writing (COMAR 36.05.03.25)."""

    OPEN, IN_REVIEW, SIGNED_OFF = "open", "in_review", "signed_off"
    STATUSES = [(OPEN, "open"), (IN_REVIEW, "in review"), (SIGNED_OFF, "signed off")]

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="investigations")
    level = models.CharField(max_length=8, choices=LEVELS)
    key = models.CharField(max_length=64, help_text="Table/pit id, game key, or 'floor'.")
    label = models.CharField(max_length=120)
    period = models.CharField(max_length=8, choices=PERIODS)
    period_start = models.DateField()
    period_end = models.DateField()
    rule = models.CharField(max_length=24, choices=RULES)
    drop_hold_pct = models.DecimalField(max_digits=9, decimal_places=4)
    bound_low = models.DecimalField(max_digits=9, decimal_places=4, null=True, blank=True)
    bound_high = models.DecimalField(max_digits=9, decimal_places=4, null=True, blank=True)
    figures = models.JSONField(help_text="The period's figures when the check opened it (see README.md).")
    explanation = models.TextField(help_text="Drafted by the system: edge, luck, dealer error.")
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+", help_text="Empty: opened by the check after the final report.")
    status = models.CharField(max_length=12, choices=STATUSES, default=OPEN, db_index=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                              related_name="+")
    conclusion = models.TextField(blank=True)
    concluded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="+")
    concluded_at = models.DateTimeField(null=True, blank=True)
    review_note = models.TextField(blank=True)
    signed_off_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                      related_name="+")
    signed_off_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-period_end", "casino_id", "level", "label", "rule"]
        constraints = [models.UniqueConstraint(fields=["casino", "level", "key", "period", "period_start", "rule"],
                                               name="investigation_one_per_unit_period_rule")]

    def __str__(self) -> str:
        return f"{self.label} {self.get_period_display()} {self.period_start}: {self.get_rule_display()}"
