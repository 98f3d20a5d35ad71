"""Revoking an API token asks first: the token page's button opens a confirmation that names the
token and its user and says it cannot be undone; only the confirmed POST revokes it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from casino.models import ApiToken
from casino.tokens import api_token_issue
from tests.conftest import api_as
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db


def test_revoking_a_token_is_confirmed_first_and_cancel_keeps_it_working():
    manager = user_with_role("gaming_manager")
    token, key = api_token_issue(user=manager, author=manager, name="night job")
    client = api_as(manager)
    listing = client.get(reverse("api-tokens")).content.decode()
    row = listing[listing.index(f"<code>{token.prefix}…</code>"):].split("</tr>")[0]
    assert "Revoke…" in row and 'method="get"' in row  # the button only opens the confirmation
    asked = client.get(reverse("api-token-revoke", args=[token.pk]))
    html = asked.content.decode()
    assert asked.status_code == 200 and f"Revoke token {token.prefix}… of {manager}?" in html
    assert "(for night job)" in html and "This cannot be undone" in html and "never works again" in html
    assert f'id="cancel-revoke" href="{reverse("api-tokens")}"' in html
    again = client.post(reverse("api-token-revoke", args=[token.pk]))  # no confirmation: the question again
    assert again.status_code == 200 and "This cannot be undone" in again.content.decode()
    token.refresh_from_db()
    assert token.revoked_at is None
    assert APIClient(HTTP_AUTHORIZATION=f"Token {key}").get(reverse("round-list")).status_code == 200
    done = client.post(reverse("api-token-revoke", args=[token.pk]), {"confirm": "yes"}, format="multipart")
    assert done.status_code == 302 and done["Location"] == reverse("api-tokens")
    token.refresh_from_db()
    assert token.revoked_by == manager
    refused = APIClient(HTTP_AUTHORIZATION=f"Token {key}").get(reverse("round-list"))
    assert refused.status_code == 403 and refused.json()["detail"] == "Token revoked."
    told = client.get(reverse("api-token-revoke", args=[token.pk])).content.decode()
    assert "was already revoked" in told and 'value="yes"' not in told
    # A second confirm changes nothing.
    client.post(reverse("api-token-revoke", args=[token.pk]), {"confirm": "yes"}, format="multipart")
    assert ApiToken.objects.get(pk=token.pk).revoked_at == token.revoked_at
