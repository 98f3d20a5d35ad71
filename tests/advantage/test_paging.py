"""Issue #20: the API gives the players a page at a time like every API list, the desk page lists
them a page at a time, and the day's read costs the same queries whatever the number of rounds."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit.advantage import views
from audit.advantage.selectors import advantage_day
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.advantage.helpers import blackjack_round, dealt_day, table_with_decks
from tests.conftest import api_as
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db
API = "/api/v1/advantage-play/"


def _many_players_day(rounds: int, players: int = 7) -> dict:
    """``rounds`` rounds at one table, each with ``players`` players betting (their cards from a
    dealt day: the counter and the others of helpers.dealt_day, then more on the same cards)."""
    pitboss = user_with_role("pit_boss")
    table, dealer = table_with_decks(6)
    table_session_open(table=table, dealer=dealer, author=pitboss)
    made, dealt = [], []
    while len(dealt) < rounds:  # a new shoe every 32 rounds (one shoe holds 39 of these rounds)
        dealt += dealt_day(min(32, rounds - len(dealt)), seed=7 + len(dealt))
    for n, data in enumerate(dealt):
        seats = [(seat["player"], seat["wagers"]["21"], seat["hands"][0]["cards"]) for seat in data["seats"]]
        extra = [(f"P-{k:02d}", f"{10 + (n * k) % 4 * 5}.00", ["2C", "3C"]) for k in range(players - len(seats))]
        made.append(round_record(table=table, data=blackjack_round(data["dealer"]["cards"], seats + extra),
                                 author=pitboss).round)
    return {"table": table, "day": made[0].gaming_day.isoformat(), "rounds": made}


def test_the_api_gives_the_players_a_page_at_a_time_in_the_order_of_the_whole_list():
    day = _many_players_day(32)
    client = api_as(user_with_role("surveillance"))
    whole = client.get(API, {"gaming_day": day["day"], "limit": 500}).json()
    assert whole["count"] == 7 and len(whole["rows"]) == 7
    assert whole["next"] is None and whole["previous"] is None
    order = {"flag": 0, "watch": 1}
    assert sorted(whole["rows"], key=lambda r: order.get(r["signal"], 2)) == whole["rows"]  # flagged first

    first = client.get(API, {"gaming_day": day["day"], "limit": 3}).json()
    assert first["count"] == 7 and [r["player"] for r in first["rows"]] == [r["player"] for r in whole["rows"][:3]]
    assert "offset=3" in first["next"] and "limit=3" in first["next"] and first["previous"] is None
    # The day's figures are the whole day's on every page.
    assert {k: first[k] for k in ("gaming_day", "table", "rounds", "shoes", "thresholds")} == {
        k: whole[k] for k in ("gaming_day", "table", "rounds", "shoes", "thresholds")}
    rows, url = [], f"{API}?gaming_day={day['day']}&limit=3"
    while url:
        page = client.get(url).json()
        assert len(page["rows"]) <= 3
        rows += page["rows"]
        url = page["next"]
    assert rows == whole["rows"]  # every pair of every player too
    assert client.get(API, {"gaming_day": day["day"]}).json()["count"] == 7  # default limit 50


@pytest.mark.parametrize("query", [{"limit": "0"}, {"limit": "501"}, {"limit": "x"}, {"offset": "-1"}])
def test_a_page_out_of_range_is_a_field_error(query):
    body = api_as(user_with_role("surveillance")).get(API, query)
    assert body.status_code == 400 and set(body.json()) == set(query)


def test_the_page_lists_the_players_a_page_at_a_time(client, monkeypatch):
    day = _many_players_day(32)
    whole = [r["player"] for r in api_as(user_with_role("surveillance")).get(
        API, {"gaming_day": day["day"], "limit": 500}).json()["rows"]]
    monkeypatch.setattr(views, "PLAYER_PAGE", 3)
    client.force_login(user_with_role("surveillance"))
    url = reverse("desk-advantage")
    seen, number = [], 1
    while number:
        response = client.get(url, {"gaming_day": day["day"], "table": day["table"].pk, "page": number})
        assert response.status_code == 200
        shown = [row.player for row in response.context["rows"]]
        assert len(shown) <= 3
        seen += shown
        page = response.content.decode()
        assert f"Players {3 * (number - 1) + 1}–{3 * (number - 1) + len(shown)} of 7" in page
        number = response.context["next_page"]
        if number:
            assert f"&amp;table={day['table'].pk}&amp;page={number}" in page
    assert seen == whole
    wrong = client.get(url, {"gaming_day": day["day"], "page": "x"}).content.decode()
    assert "is not a page number" in wrong and f"<td>{whole[0]}</td>" in wrong  # the first page, said so


def test_the_days_read_costs_the_same_queries_whatever_the_number_of_rounds():
    def queries(rounds: int) -> tuple[int, int]:
        day = _many_players_day(rounds)
        with CaptureQueriesContext(connection) as read:
            result = advantage_day(day["rounds"][0].gaming_day, casinos=None, table_id=day["table"].pk)
            [row.pairs for row in result.rows]  # noqa: B018 - the pairs too
        assert result.rounds == rounds
        client = api_as(user_with_role("surveillance"))
        with CaptureQueriesContext(connection) as api:
            assert client.get(API, {"gaming_day": day["day"], "table": day["table"].pk}).status_code == 200
        return len(read), len(api)

    few, many = queries(5), queries(50)
    assert few == many
    assert few[0] == 2  # the day's lines, with their tables' labels, and its priced decisions (none here)
