"""API tokens: hashed, expiring, issued and revoked by a gaming manager; the user and their
roles are read in one statement (casino.token_auth)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from casino.roles import ROLE_GROUPS
from casino.token_auth import RoleTokenAuthentication
from casino.tokens import api_token_issue
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db


def new_key(user, **kwargs) -> str:
    return api_token_issue(user=user, author=None, name="test", **kwargs)[1]


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {new_key(user)}")
    return client


def test_a_token_carries_its_users_roles():
    finance = token_client(user_with_role("finance"))
    assert finance.get(reverse("round-list")).status_code == 200
    assert finance.post(reverse("round-list"), {"table": 1, "round": {}}, format="json").status_code == 403


def test_a_user_with_two_roles_holds_both():
    user = user_with_role("finance")
    user.groups.add(Group.objects.get(name=ROLE_GROUPS["pit_boss"]))
    user_, _ = RoleTokenAuthentication().authenticate_credentials(new_key(user))
    assert user_._casino_roles == {"finance", "pit_boss"}


def test_one_statement_reads_the_user_and_roles_and_other_fields_load_on_use():
    user = user_with_role("surveillance")
    key = new_key(user)
    with CaptureQueriesContext(connection) as queries:
        authenticated, token = RoleTokenAuthentication().authenticate_credentials(key)
    assert len(queries) == 1
    assert authenticated.pk == user.pk and token.user_id == user.pk
    assert authenticated.username == user.username  # deferred: read when asked for


def test_the_tokens_user_has_its_own_flags():
    """The user a token authenticates is its user as the database holds it: a pit boss is no
    superuser (and sees only their casinos), a superuser is one, and both are active."""
    from django.contrib.auth import get_user_model

    from casino.scoping import user_casino_ids

    boss = user_with_role("pit_boss")
    root = get_user_model().objects.create_superuser("root", "root@example.com", "x-long-password-1")
    for user in (boss, root):
        authenticated, token = RoleTokenAuthentication().authenticate_credentials(new_key(user))
        assert (authenticated.is_superuser, authenticated.is_active) == (user.is_superuser, True), user
        assert (token.user_id, token.revoked_at) == (user.pk, None)
    authenticated, _ = RoleTokenAuthentication().authenticate_credentials(new_key(boss))
    assert user_casino_ids(authenticated) == {boss.casino_memberships.get().casino_id}


def test_unknown_token_and_inactive_user_are_refused():
    # Session authentication comes first and sends no WWW-Authenticate header, so DRF answers 403.
    refused = APIClient(HTTP_AUTHORIZATION="Token nope").get(reverse("round-list"))
    assert refused.status_code == 403 and refused.json()["detail"] == "Invalid token."
    user = user_with_role("pit_boss")
    client = token_client(user)
    user.is_active = False
    user.save()
    response = client.get(reverse("round-list"))
    assert response.status_code == 403
    assert response.json()["detail"] == "User inactive or deleted."


def test_a_user_without_a_role_is_forbidden():
    from django.contrib.auth import get_user_model

    nobody = get_user_model().objects.create_user("nobody", password="x-long-password-1")
    assert token_client(nobody).get(reverse("round-list")).status_code == 403


def test_a_superuser_holds_every_role():
    from django.contrib.auth import get_user_model

    root = get_user_model().objects.create_superuser("root", "root@example.com", "x-long-password-1")
    user, _ = RoleTokenAuthentication().authenticate_credentials(new_key(root))
    assert user._casino_roles == {"pit_boss", "surveillance", "finance", "gaming_manager", "cage", "count",
                                  "compliance"}


def test_only_the_keys_digest_is_stored_and_the_key_is_shown_once():
    import hashlib

    from casino.models import ApiToken

    user = user_with_role("pit_boss")
    token, key = api_token_issue(user=user, author=None, name="tablet 1")
    stored = ApiToken.objects.get(pk=token.pk)
    assert stored.digest == hashlib.sha256(key.encode()).hexdigest()
    assert key not in {str(v) for v in ApiToken.objects.filter(pk=token.pk).values().get().values()}
    assert key.startswith(stored.prefix) and len(stored.prefix) < len(key) // 4


def test_tokens_expire_after_the_configured_lifetime(settings):
    from datetime import timedelta

    from django.utils import timezone

    settings.API_TOKEN_LIFETIME_DAYS = 30
    user = user_with_role("finance")
    token, key = api_token_issue(user=user, author=None, name="export job")
    assert abs(token.expires_at - (timezone.now() + timedelta(days=30))) < timedelta(minutes=1)
    client = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(reverse("round-list")).status_code == 200
    type(token).objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    expired = client.get(reverse("round-list"))
    assert expired.status_code == 403 and expired.json()["detail"] == "Token expired."


def test_a_gaming_manager_issues_and_revokes_tokens_on_a_page():
    from casino.models import ApiToken
    from tests.conftest import api_as

    manager = api_as(user_with_role("gaming_manager"))
    boss = user_with_role("pit_boss", username="boss")
    boss.set_unusable_password()  # a service account (a tablet's): see test_token_issuers
    boss.save()
    page = manager.get(reverse("api-tokens"))
    assert page.status_code == 200
    issued = manager.post(reverse("api-tokens"), {"user": boss.pk, "name": "tablet pit 2", "days": "7"},
                          format="multipart")
    assert issued.status_code == 200
    token = ApiToken.objects.get(user=boss)
    key = issued.context["issued_key"]
    assert key in issued.content.decode() and token.created_by.username == "gaming_manager"
    assert key not in manager.get(reverse("api-tokens")).content.decode()  # shown once
    client = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(reverse("round-list")).status_code == 200
    revoked = manager.post(reverse("api-token-revoke", args=[token.pk]), {"confirm": "yes"}, format="multipart")
    assert revoked.status_code == 302
    refused = client.get(reverse("round-list"))
    assert refused.status_code == 403 and refused.json()["detail"] == "Token revoked."
    bad = manager.post(reverse("api-tokens"), {"user": boss.pk, "name": "", "days": "0"}, format="multipart")
    assert bad.status_code == 400 and "days" in bad.context["form"].errors
    for role in ("pit_boss", "surveillance", "finance"):
        assert api_as(user_with_role(role)).get(reverse("api-tokens")).status_code == 403


def test_existing_plain_tokens_are_hashed_and_keep_working():
    import importlib

    from django.apps import apps
    from rest_framework.authtoken.models import Token

    from casino.models import ApiToken

    user = user_with_role("pit_boss")
    plain = Token.objects.create(user=user)
    migration = importlib.import_module("casino.migrations.0002_hash_plain_tokens")
    migration.hash_plain_tokens(apps, None)
    assert not Token.objects.exists()  # the plain key is gone
    assert ApiToken.objects.get(user=user).prefix == plain.key[:6]
    response = APIClient(HTTP_AUTHORIZATION=f"Token {plain.key}").get(reverse("round-list"))
    assert response.status_code == 200
