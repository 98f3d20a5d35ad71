"""Issuing and revoking API tokens (casino.models.ApiToken); the key is returned once.

A token acts with all of its user's authority, so issuing one for another person would let the
issuer act as them (a gaming manager approving their own jackpot adjustment as a second gaming
manager, deciding findings as surveillance). The rule (:func:`token_issue_refusal`): a token is
issued for its issuer themselves, or by a gaming manager for a *service account* of their
casinos: an active login that cannot sign in with a password (a tablet's or a job's, not a
person's), holds no role but pit boss (which requests and decides nothing a gaming manager
decides or approves), is neither staff nor a superuser, and works at no casino outside the
issuer's. ``author=None`` is the shell or a test: no issuer, no rule.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils import timezone

from casino.models import ApiToken, CasinoMembership
from casino.roles import GAMING_MANAGER, PIT_BOSS, ROLE_GROUPS, has_role, user_roles
from casino.scoping import user_casino_ids, users_visible_to

PREFIX_LENGTH = 6
#: The roles a service account may hold: recording rounds and paying awards, which surveillance
#: reviews; no request or decision a gaming manager takes part in.
SERVICE_ACCOUNT_ROLES = frozenset({PIT_BOSS})
_OTHER_ROLE_GROUPS = [name for role, name in ROLE_GROUPS.items() if role not in SERVICE_ACCOUNT_ROLES]
NOT_FOR_THEM = ("a token acts with all of its user's authority, so only they are issued one; "
                "for another user a gaming manager issues tokens only to a service account of their "
                "casinos (no password, no role but pit boss)")


def token_issue_refusal(issuer, user) -> str | None:
    """Why ``issuer`` may not have a token issued for ``user`` (``None``: they may)."""
    if user.pk == issuer.pk:
        return None
    if not has_role(issuer, GAMING_MANAGER):
        return "Only a gaming manager issues a token for another user"
    if user.is_superuser:
        return f"This user is a superuser: {NOT_FOR_THEM}"
    others = sorted(user_roles(user) - SERVICE_ACCOUNT_ROLES)
    if others:
        held = ", ".join(role.replace("_", " ") for role in others)
        return f"This user holds the {held} role: {NOT_FOR_THEM}"
    issuer_casinos, casinos = user_casino_ids(issuer), user_casino_ids(user)
    if issuer_casinos is not None and not casinos:
        return f"This user works at none of your casinos: {NOT_FOR_THEM}"
    if issuer_casinos is not None and not casinos <= issuer_casinos:
        return f"This user works at a casino you do not: {NOT_FOR_THEM}"
    if user.is_staff:
        return f"This user may use the admin: {NOT_FOR_THEM}"
    if user.has_usable_password():
        return f"This user signs in with a password (a person): {NOT_FOR_THEM}"
    return None


def token_users_for(issuer):
    """The active users ``issuer`` may issue a token for (the same rule as
    :func:`token_issue_refusal`, as a queryset for the page's choices and list)."""
    users = get_user_model().objects.filter(is_active=True)
    if not has_role(issuer, GAMING_MANAGER):
        return users.filter(pk=issuer.pk)
    membership = CasinoMembership
    service = users_visible_to(issuer).filter(is_superuser=False, is_staff=False,
                                              password__startswith=UNUSABLE_PASSWORD_PREFIX)
    service = service.exclude(groups__name__in=_OTHER_ROLE_GROUPS)
    issuer_casinos = user_casino_ids(issuer)
    if issuer_casinos is not None:
        service = service.exclude(
            pk__in=membership.objects.exclude(casino_id__in=issuer_casinos).values("user_id"))
    return users.filter(Q(pk=issuer.pk) | Q(pk__in=service.values("pk")))


def tokens_revocable_by(viewer):
    """The tokens ``viewer`` lists and may revoke on the page: of the users they may issue for
    (themselves included) and the ones they issued; a superuser's: every token."""
    tokens = ApiToken.objects.all()
    if viewer.is_superuser:
        return tokens
    return tokens.filter(Q(user__in=token_users_for(viewer)) | Q(created_by=viewer))


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def api_token_issue(*, user, author, name: str = "", days: int | None = None, at=None) -> tuple[ApiToken, str]:
    """A new token for ``user``, valid ``days`` (default ``API_TOKEN_LIFETIME_DAYS``); returns
    the token and its key, which is not stored and cannot be shown again. ``author`` issues it
    (see the module's rule; ``None``: the shell or a test)."""
    days = settings.API_TOKEN_LIFETIME_DAYS if days is None else days
    if not 1 <= days <= settings.API_TOKEN_MAX_LIFETIME_DAYS:
        raise ValidationError({"days": [f"A token lives 1 to {settings.API_TOKEN_MAX_LIFETIME_DAYS} days"]})
    if not user.is_active:
        raise ValidationError({"user": ["This user is inactive"]})
    refusal = None if author is None else token_issue_refusal(author, user)
    if refusal:
        raise ValidationError({"user": [refusal]})
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

