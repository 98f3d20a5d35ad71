"""Login attempts are limited (django-axes) and the API is throttled (DRF), both by settings."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from rest_framework.test import APIClient

from tests.conftest import api_as
from tests.factories import PASSWORD, user_with_role

pytestmark = pytest.mark.django_db


def _login(client, username, password, **headers):
    return client.post(reverse("login"), {"username": username, "password": password}, format="multipart",
                       headers=headers)


def test_wrong_passwords_lock_the_login_and_the_right_one_then_fails():
    user_with_role("pit_boss", username="boss")
    client = APIClient()
    for _ in range(django_settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "boss", "wrong-password").status_code == 200  # the form again
    locked = _login(client, "boss", "wrong-password")
    assert locked.status_code == 429
    assert "locked" in locked.content.decode().lower()
    right = _login(client, "boss", PASSWORD)
    assert right.status_code == 429 and "_auth_user_id" not in client.session
    as_json = _login(client, "boss", PASSWORD, Accept="application/json")
    assert as_json.status_code == 429 and "locked" in as_json.json()["detail"].lower()
    # Another user from the same address is not locked out by it.
    user_with_role("finance", username="fin")
    assert _login(APIClient(), "fin", PASSWORD).status_code == 302


def test_a_gaming_manager_unlocks_a_locked_user_in_the_admin():
    from axes.models import AccessAttempt

    user_with_role("pit_boss", username="boss")
    for _ in range(django_settings.AXES_FAILURE_LIMIT):
        _login(APIClient(), "boss", "wrong-password")
    attempt = AccessAttempt.objects.get(username="boss")
    manager = api_as(user_with_role("gaming_manager"))
    assert manager.get(reverse("admin:axes_accessattempt_changelist")).status_code == 200
    unlock = manager.post(reverse("admin:axes_accessattempt_delete", args=[attempt.pk]), {"post": "yes"},
                          format="multipart")
    assert unlock.status_code == 302, unlock.content.decode()[-3000:]
    assert _login(APIClient(), "boss", PASSWORD).status_code == 302
    # Other roles may not.
    pit_boss = api_as(user_with_role("surveillance"))
    assert pit_boss.get(reverse("admin:axes_accessattempt_changelist")).status_code in (302, 403)


def test_api_is_throttled_per_user(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"user": "3/minute"}}
    client = api_as(user_with_role("finance"))
    answers = [client.get(reverse("casino-list")).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    refused = client.get(reverse("casino-list"))
    assert "throttled" in refused.json()["detail"].lower() and "Retry-After" in refused.headers


def test_default_rates_are_above_what_a_floor_or_the_ingest_benchmark_sends():
    from rest_framework.throttling import SimpleRateThrottle

    rates = django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    per_second = {scope: n / d for scope, (n, d) in
                  ((s, SimpleRateThrottle.parse_rate(None, r)) for s, r in rates.items())}
    # bench_ingest: 8 clients under one token at ~300 rounds/s.
    assert per_second["user"] >= 1000
