"""The core's records: the casino (a property, its time zone and gaming day) and who works at
it; API tokens (only a digest of each key is stored; every token expires and can be revoked);
the task outbox (Celery tasks written in their transaction, sent once it commits)."""

from __future__ import annotations

from zoneinfo import available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils import timezone
from simple_history.models import HistoricalRecords

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
    history = HistoricalRecords(table_name="tables_historicalcasino")

    class Meta:
        db_table = "tables_casino"  # made by the floor app before the core held it
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(gaming_day_start_hour__lte=23), name="casino_start_hour_0_23"),
        ]

    def __str__(self) -> str:
        return self.name

    #: What defines the casino's gaming day (casino/gaming_day.py).
    GAMING_DAY_FIELDS = ("time_zone", "gaming_day_start_hour")

    def clean(self) -> None:
        # Every stored round's gaming day was fixed by these when it was recorded: changing
        # them later would put the stored days and the reports' bounds at odds and refuse
        # every round at a table left open. Set them before play; a new definition is a new
        # casino record (docs/architecture.md, "One gaming day").
        if not self.pk:
            return
        before = Casino.objects.filter(pk=self.pk).values(*self.GAMING_DAY_FIELDS).first()
        changed = [f for f in self.GAMING_DAY_FIELDS if before is not None and before[f] != getattr(self, f)]
        if changed and Casino.objects.filter(pk=self.pk, pits__tables__rounds__isnull=False).exists():
            raise ValidationError({f: ["This casino has recorded rounds, whose gaming days were fixed by its "
                                       "time zone and start hour; they cannot change now"] for f in changed})


class CasinoMembership(models.Model):
    """A user works at a casino: they see its floor, rounds, findings, reports and jackpots,
    and no other casino's. Superusers see every casino without a membership."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="casino_memberships")
    casino = models.ForeignKey(Casino, on_delete=models.CASCADE, related_name="memberships")
    history = HistoricalRecords(table_name="tables_historicalcasinomembership")

    class Meta:
        db_table = "tables_casinomembership"
        constraints = [models.UniqueConstraint(fields=["user", "casino"], name="casinomembership_unique")]

    def __str__(self) -> str:
        return f"{self.user} at {self.casino}"



class ApiToken(models.Model):
    """A bearer key for the API (``Authorization: Token <key>``).

    The key is shown once, when issued; what is kept is its SHA-256 digest (the key has 256
    random bits, so a plain, unsalted digest is enough: nothing can be guessed from it) and its
    first characters, so a person can tell their tokens apart.
    """

    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=120, blank=True, help_text="What it is for (a tablet, a job).")
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+")
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+")

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"

    @property
    def state(self) -> str:
        return token_state(revoked_at=self.revoked_at, expires_at=self.expires_at)


def token_state(*, revoked_at, expires_at) -> str:
    """"revoked", "expired" or "active": the page's and the authenticator's one rule."""
    if revoked_at:
        return "revoked"
    return "expired" if expires_at <= timezone.now() else "active"


class OutboxTask(models.Model):
    """A Celery task written in the transaction that asks for it, sent once that commits.

    Sent at once after the commit and deleted; while the broker is down the row waits and the
    beat's ``casino.outbox_drain`` sends it when the broker is back (casino/outbox.py). So a
    change that needs a task is never saved without it, and a broker outage never makes it fail.
    """

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    kwargs = models.JSONField(default=dict)
    created_at = models.DateTimeField(db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)} (waiting since {self.created_at:%Y-%m-%d %H:%M:%S} UTC)"
