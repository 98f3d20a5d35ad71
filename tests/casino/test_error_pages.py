"""403, 404 and 500 pages in the app's frame with a sentence on what to do; JSON under /api/."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from casino.api_errors import server_error
from casino.roles import CAGE, PIT_BOSS
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db

FRAME = '<header class="top">'
NAV = '<nav class="main" aria-label="Main">'


def _client(user=None) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def test_404_is_in_the_frame_with_the_menu_and_what_to_do():
    response = _client(user_with_role(PIT_BOSS)).get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert FRAME in page and NAV in page and "Log out" in page
    assert "There is no page at this address" in page and "Go to the start page" in page


def test_404_for_someone_not_logged_in_has_the_frame_without_a_menu():
    page = _client().get("/no-such-page/").content.decode()
    assert FRAME in page and NAV not in page
    assert "There is no page at this address" in page


def test_403_says_why_and_where_to_go():
    response = _client(user_with_role(CAGE)).get(reverse("desk-queue"))
    assert response.status_code == 403
    page = response.content.decode()
    assert FRAME in page and NAV in page
    assert "This page is not open to your role" in page
    assert "Your role does not allow this page." in page and "ask a gaming manager" in page


@pytest.mark.urls("tests.casino.error_urls")
def test_500_is_in_the_frame_and_says_what_to_do():
    response = _client(user_with_role(PIT_BOSS)).get("/crash/")
    assert response.status_code == 500
    page = response.content.decode()
    assert FRAME in page and "Something went wrong on our side" in page
    assert "check whether it was saved" in page
    assert NAV not in page  # no navigation: it would ask the database for the user's roles


def test_the_500_page_reads_nothing_from_the_database(django_assert_max_num_queries):
    request = RequestFactory().get("/crash/")
    request.user = user_with_role(PIT_BOSS)
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        with django_assert_max_num_queries(0):
            response = server_error(request)
    assert response.status_code == 500 and "Something went wrong on our side" in response.content.decode()


@pytest.mark.urls("tests.casino.error_urls")
def test_api_errors_stay_json():
    client = _client(user_with_role(PIT_BOSS))
    crashed = client.get("/api/v1/crash/")
    assert crashed.status_code == 500 and crashed["Content-Type"] == "application/json"
    assert crashed.json() == {"detail": "Server error; it has been logged."}
    missing = client.get("/api/v1/no-such-thing/")
    assert missing.status_code == 404 and missing.json() == {"detail": "Not found."}
    denied = client.get("/api/v1/denied/")
    assert denied.status_code == 403 and denied.json() == {"detail": "Your role does not allow this."}
