"""API tokens: the user and their roles are read in one statement (casino.token_auth)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from casino.roles import ROLE_GROUPS
from casino.token_auth import RoleTokenAuthentication
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def test_a_token_carries_its_users_roles():
    finance = token_client(user_with_role("finance"))
    assert finance.get(reverse("round-list")).status_code == 200
    assert finance.post(reverse("round-list"), {"table": 1, "round": {}}, format="json").status_code == 403


def test_a_user_with_two_roles_holds_both():
    user = user_with_role("finance")
    user.groups.add(Group.objects.get(name=ROLE_GROUPS["pit_boss"]))
    user_, _ = RoleTokenAuthentication().authenticate_credentials(Token.objects.create(user=user).key)
    assert user_._casino_roles == {"finance", "pit_boss"}


def test_one_statement_reads_the_user_and_roles_and_other_fields_load_on_use():
    user = user_with_role("surveillance")
    key = Token.objects.create(user=user).key
    with CaptureQueriesContext(connection) as queries:
        authenticated, token = RoleTokenAuthentication().authenticate_credentials(key)
    assert len(queries) == 1
    assert authenticated.pk == user.pk and token.key == key
    assert authenticated.username == user.username  # deferred: read when asked for


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
    user, _ = RoleTokenAuthentication().authenticate_credentials(Token.objects.create(user=root).key)
    assert user._casino_roles == {"pit_boss", "surveillance", "finance", "gaming_manager"}
