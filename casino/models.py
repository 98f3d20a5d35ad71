"""API tokens: only a digest of each key is stored; every token expires and can be revoked.
The task outbox: Celery tasks written in their transaction, sent once it commits."""

from __future__ import annotations

from django.conf import settings
from django.db import models


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
    from django.utils import timezone

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
