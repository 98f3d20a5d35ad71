"""The login lockout is keyed on the user name and the real client's address, read behind the
documented proxy (nginx appends the client to X-Forwarded-For; TRUSTED_PROXY_COUNT=1), and a
locked login is told when it opens again (in the casino's zone) and that a manager can unlock it.

Every request here arrives as it does from nginx: the socket's address is the proxy's,
127.0.0.1, and the client is only in X-Forwarded-For.
"""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.urls import reverse
from rest_framework.test import APIClient

from casino.client_address import axes_ipware_settings
from tests.deployed import gunicorn_serving
from tests.factories import PASSWORD, CasinoFactory, user_with_role

pytestmark = pytest.mark.django_db

CLIENT_A, CLIENT_B = "198.51.100.7", "203.0.113.20"


def _behind_proxies(settings, count: int) -> None:
    """The settings casino/settings.py derives from TRUSTED_PROXY_COUNT=count."""
    settings.TRUSTED_PROXY_COUNT = count
    for name, value in axes_ipware_settings(count).items():
        setattr(settings, name, value)
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": count}


def _login(username, password, forwarded_for=None, *, json=False):
    headers = {"Accept": "application/json"} if json else {}
    if forwarded_for is not None:
        headers["X-Forwarded-For"] = forwarded_for
    client = APIClient(REMOTE_ADDR="127.0.0.1")
    response = client.post(reverse("login"), {"username": username, "password": password},
                           format="multipart", headers=headers)
    return response, client


def _fail_to_the_limit(username, forwarded_for):
    for _ in range(django_settings.AXES_FAILURE_LIMIT):
        _login(username, "wrong-password", forwarded_for)


def test_behind_one_proxy_a_user_is_locked_for_the_failing_client_only(settings):
    _behind_proxies(settings, 1)
    user_with_role("pit_boss", username="boss")
    _fail_to_the_limit("boss", CLIENT_A)

    locked, client = _login("boss", PASSWORD, CLIENT_A)
    assert locked.status_code == 429 and "_auth_user_id" not in client.session
    # The same user from another client through the same proxy is not locked out.
    other, client = _login("boss", PASSWORD, CLIENT_B)
    assert other.status_code == 302, other.content.decode()[-2000:]
    assert client.session["_auth_user_id"]
    # The attempts were counted against the client's address, not the proxy's.
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {CLIENT_A}


def test_a_client_cannot_dodge_the_lock_by_writing_its_own_forwarded_for(settings):
    """nginx appends the address it saw; what a client wrote itself stands to the left of it."""
    _behind_proxies(settings, 1)
    user_with_role("pit_boss", username="boss")
    for n in range(django_settings.AXES_FAILURE_LIMIT):
        _login("boss", "wrong-password", f"10.9.9.{n}, {CLIENT_A}")
    assert _login("boss", PASSWORD, f"10.0.0.1, {CLIENT_A}")[0].status_code == 429
    assert _login("boss", PASSWORD, CLIENT_B)[0].status_code == 302


def test_without_a_trusted_proxy_a_forwarded_for_header_is_ignored(settings):
    _behind_proxies(settings, 0)
    user_with_role("pit_boss", username="boss")
    _fail_to_the_limit("boss", CLIENT_A)
    # Claiming to be another client changes nothing: the socket's address is the key.
    spoofed, _ = _login("boss", PASSWORD, CLIENT_B)
    assert spoofed.status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.1"}


def test_the_lockout_says_when_it_unlocks_in_the_casinos_zone_and_that_a_manager_can_unlock(settings):
    _behind_proxies(settings, 1)
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    berlin = CasinoFactory(name="Spielbank", time_zone="Europe/Berlin")
    user_with_role("pit_boss", username="boss", casinos=[berlin])
    _fail_to_the_limit("boss", CLIENT_A)

    answer, _ = _login("boss", PASSWORD, CLIENT_A, json=True)
    assert answer.status_code == 429
    body = answer.json()
    last_failure = AccessAttempt.objects.get(username="boss", ip_address=CLIENT_A).attempt_time
    unlocks = last_failure + timedelta(minutes=15)
    local = unlocks.astimezone(ZoneInfo("Europe/Berlin"))
    assert body["unlocks_at"] == unlocks.isoformat()
    assert body["unlocks_at_local"] == f"{local:%Y-%m-%d %H:%M} {local.tzname()}"
    assert local.tzname() in ("CET", "CEST")
    assert body["unlocks_at_local"] in body["detail"]
    assert "gaming manager can unlock" in body["detail"]
    assert body["retry_after_minutes"] == 15 and body["unlocked_by"] == "gaming_manager"
    assert 14 * 60 <= int(answer.headers["Retry-After"]) <= 15 * 60 + 1

    page, _ = _login("boss", PASSWORD, CLIENT_A)
    assert page.status_code == 429
    text = page.content.decode()
    assert body["unlocks_at_local"] in text and "gaming manager can unlock" in text


def test_a_name_with_no_casino_is_told_the_installations_zone(settings):
    _behind_proxies(settings, 1)
    settings.CASINO_TIME_ZONE = "Asia/Tokyo"
    _fail_to_the_limit("nobody-by-this-name", CLIENT_A)
    body = _login("nobody-by-this-name", "x", CLIENT_A, json=True)[0].json()
    assert body["unlocks_at_local"].endswith(" JST")


def test_the_lock_lapses_by_itself_after_the_cool_off(settings):
    _behind_proxies(settings, 1)
    user_with_role("pit_boss", username="boss")
    _fail_to_the_limit("boss", CLIENT_A)
    assert _login("boss", PASSWORD, CLIENT_A)[0].status_code == 429
    # The clock moved past the cool-off since the last try.
    AccessAttempt.objects.filter(username="boss").update(
        attempt_time=AccessAttempt.objects.get(username="boss").attempt_time
        - django_settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    assert _login("boss", PASSWORD, CLIENT_A)[0].status_code == 302


# --- through gunicorn with the deploy configuration, as nginx hands requests on -------------------

def _http(port, method, path, *, forwarded_for, body=None, cookie=None, accept="text/html"):
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    headers = {"X-Forwarded-For": forwarded_for, "Accept": accept, "Connection": "close"}
    if cookie:
        headers["Cookie"] = cookie
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        conn.close()


def _post_login(port, username, password, forwarded_for, *, accept="text/html"):
    """A browser's login through the proxy: the form (for its CSRF cookie and token), then the post."""
    import re
    from urllib.parse import urlencode

    _status, headers, page = _http(port, "GET", "/accounts/login/", forwarded_for=forwarded_for)
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    body = urlencode({"username": username, "password": password, "csrfmiddlewaretoken": token})
    return _http(port, "POST", "/accounts/login/", forwarded_for=forwarded_for, body=body, cookie=cookie,
                 accept=accept)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_through_gunicorn_behind_one_proxy_the_lock_is_the_failing_clients_only(tmp_path):
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    boss = user_with_role("pit_boss", username="boss")
    # The server hashes as production does, not with the tests' fast hasher.
    hasher = PBKDF2PasswordHasher()
    boss.password = hasher.encode(PASSWORD, hasher.salt())
    boss.save(update_fields=["password"])
    with gunicorn_serving(tmp_path, GUNICORN_WORKERS="2", GUNICORN_THREADS="1", TRUSTED_PROXY_COUNT="1") as (port, log):
        for _ in range(django_settings.AXES_FAILURE_LIMIT):
            _post_login(port, "boss", "wrong-password", CLIENT_A)
        status, headers, body = _post_login(port, "boss", PASSWORD, f"10.0.0.9, {CLIENT_A}",
                                            accept="application/json")
        assert status == 429, body
        assert "gaming manager can unlock" in body and "Retry-After" in headers
        status, headers, _ = _post_login(port, "boss", PASSWORD, CLIENT_B)
        assert status == 302 and headers["Location"] != "/accounts/login/"
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {CLIENT_A}
    assert "Traceback" not in log.read_text()
