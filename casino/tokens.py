"""Issuing and revoking API tokens (casino.models.ApiToken); the key is returned once."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone

from casino.models import ApiToken

PREFIX_LENGTH = 6


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def api_token_issue(*, user, author, name: str = "", days: int | None = None, at=None) -> tuple[ApiToken, str]:
    """A new token for ``user``, valid ``days`` (default ``API_TOKEN_LIFETIME_DAYS``); returns
    the token and its key, which is not stored and cannot be shown again."""
    days = settings.API_TOKEN_LIFETIME_DAYS if days is None else days
    if not 1 <= days <= settings.API_TOKEN_MAX_LIFETIME_DAYS:
        raise ValidationError({"days": [f"A token lives 1 to {settings.API_TOKEN_MAX_LIFETIME_DAYS} days"]})
    if not user.is_active:
        raise ValidationError({"user": ["This user is inactive"]})
    at = at or timezone.now()
    key = secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        digest=key_digest(key), prefix=key[:PREFIX_LENGTH], user=user, name=(name or "").strip()[:120],
        created_at=at, created_by=author, expires_at=at + timedelta(days=days))
    return token, key


def api_token_revoke(*, token: ApiToken, author, at=None) -> ApiToken:
    if token.revoked_at is None:
        token.revoked_at, token.revoked_by = at or timezone.now(), author
        token.save(update_fields=["revoked_at", "revoked_by"])
    return token
