"""A date in a query that looks like one but is no day (2026-02-30) is a field error on the API
and is ignored by a page (it falls back to its default day), never a 500: Django's parse_date
and parse_datetime raise ValueError on it, which one reader (casino/query_dates) turns into the
answer."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.conftest import api_as
from tests.factories import TableFactory, user_with_role

pytestmark = pytest.mark.django_db
IMPOSSIBLE = "2026-02-30"


@pytest.mark.parametrize(("role", "url", "field"), [
    ("finance", "/api/v1/buy-ins/estimated-drop/?gaming_day={day}", "gaming_day"),
    ("finance", "/api/v1/period-holds/?gaming_day={day}", "gaming_day"),
    ("finance", "/api/v1/gaming-day-closes/status/?gaming_day={day}", "gaming_day"),
    ("finance", "/api/v1/jackpot-liability/?from={day}", "from"),
    ("finance", "/api/v1/jackpot-liability/?to=2026-02-31", "to"),
    ("finance", "/api/v1/jackpot-meters/?at={day}T10:00:00Z", "at"),
])
def test_an_impossible_date_is_a_field_error_on_the_api(role, url, field):
    TableFactory()
    response = api_as(user_with_role(role)).get(url.format(day=IMPOSSIBLE))
    assert response.status_code == 400, response.content[:300]
    assert field in response.json()


@pytest.mark.parametrize(("role", "url"), [
    ("count", "/count/?day={day}"),
    ("finance", "/closing/?day={day}"),
    ("finance", "/jackpots/ledger/?from={day}"),
    ("finance", "/jackpots/?at={day}T10:00:00Z"),
])
def test_an_impossible_date_on_a_page_is_no_error(role, url):
    TableFactory()
    client = Client()
    client.force_login(user_with_role(role))
    assert client.get(url.format(day=IMPOSSIBLE)).status_code == 200
