"""GET /api/v1/advantage-play/ and the desk page: figures, field errors, roles and casinos."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.advantage.helpers import blackjack_round, dealt_day, table_with_decks
from tests.conftest import api_as
from tests.factories import CasinoFactory, user_with_role

pytestmark = pytest.mark.django_db
API = "/api/v1/advantage-play/"


@pytest.fixture
def played():
    pitboss = user_with_role("pit_boss")
    table, dealer = table_with_decks(6)
    table_session_open(table=table, dealer=dealer, author=pitboss)
    rounds = [round_record(table=table, data=d, author=pitboss).round for d in dealt_day(32, seed=7)]
    return {"table": table, "day": rounds[0].gaming_day.isoformat(), "rounds": rounds}


def test_api_gives_each_player_with_r_interval_spread_and_pairs(played):
    body = api_as(user_with_role("surveillance")).get(API, {"gaming_day": played["day"],
                                                              "table": played["table"].pk}).json()
    assert body["gaming_day"] == played["day"] and body["table"] == played["table"].pk
    assert body["rounds"] == 32 and body["shoes"] == 1
    assert body["thresholds"] == {"lower_bound": 0.3, "min_rounds": 30, "play_flag_p": 0.0001,
                                  "play_min_deviations": 10}
    rows = {r["player"]: r for r in body["rows"]}
    counter = rows["P-COUNTER"]
    assert counter["signal"] == "flag" and counter["n"] == 32
    assert counter["ci_low"] > 0.3 and counter["ci_low"] < counter["r"] < counter["ci_high"]
    assert counter["spread"] == "10.00" and counter["min_bet"] == "10.00" and counter["max_bet"] == "100.00"
    assert isinstance(counter["mean_bet_low"], str)
    first = counter["pairs"][0]
    assert first == {"round": played["rounds"][0].pk, "table": played["table"].label, "sequence": 1, "shoe": 1,
                     "running_count": 0, "decks_remaining": 6.0, "true_count": 0.0, "bet": "10.00"}
    assert rows["P-FLAT"]["signal"] == "flat_bet" and rows["P-FLAT"]["r"] is None


def test_api_refuses_a_bad_date_and_an_unknown_or_other_casinos_table(played):
    client = api_as(user_with_role("gaming_manager"))
    bad = client.get(API, {"gaming_day": "2026-02-30"})
    assert bad.status_code == 400 and "gaming_day" in bad.json()
    for raw in ("abc", "999999"):
        unknown = client.get(API, {"table": raw})
        assert unknown.status_code == 400 and "is not one of your tables" in unknown.json()["table"][0]
    elsewhere = api_as(user_with_role("surveillance", "elsewhere", casinos=[CasinoFactory(name="Elsewhere")]))
    other = elsewhere.get(API, {"table": played["table"].pk, "gaming_day": played["day"]})
    assert other.status_code == 400 and "table" in other.json()
    mine = elsewhere.get(API, {"gaming_day": played["day"]}).json()
    assert mine["rows"] == [] and mine["rounds"] == 0


@pytest.mark.parametrize("role", ["pit_boss", "finance", "cage", "count", "compliance"])
def test_other_roles_are_refused(role, played):
    user = user_with_role(role)
    assert api_as(user).get(API).status_code == 403
    assert api_as(user).get(reverse("desk-advantage")).status_code == 403


def test_page_lists_players_with_their_pairs_and_is_linked_from_the_desk(played, client):
    client.force_login(user_with_role("surveillance"))
    page = client.get(reverse("desk-advantage"), {"gaming_day": played["day"]}).content.decode()
    assert "P-COUNTER" in page and "Flag: the bet follows the count" in page
    assert "No flag: flat bet" in page and "No flag" in page
    assert f'href="{reverse("desk-round", args=[played["rounds"][0].pk])}"' in page  # a pair links its round
    assert f'href="{reverse("desk-advantage")}"' in client.get(reverse("desk-queue")).content.decode()


def test_page_answers_a_bad_date_with_the_default_day_and_an_unknown_table_with_a_message(played, client):
    client.force_login(user_with_role("gaming_manager"))
    response = client.get(reverse("desk-advantage"), {"gaming_day": "2026-13-01", "table": "999999"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "is not one of your tables" in page and "P-COUNTER" in page  # today's rounds, all tables


def test_a_round_without_players_is_counted_but_no_row(client):
    pitboss = user_with_role("pit_boss")
    table, dealer = table_with_decks(1)
    table_session_open(table=table, dealer=dealer, author=pitboss)
    rnd = round_record(table=table, data=blackjack_round(["2H", "3H"], [(None, "10.00", ["4H", "5H"])]),
                       author=pitboss).round
    body = api_as(user_with_role("surveillance")).get(API, {"gaming_day": rnd.gaming_day.isoformat()}).json()
    assert body["rounds"] == 1 and body["rows"] == []


def test_page_opens_the_flagged_rounds_and_links_the_others_to_their_own_view(played, client):
    client.force_login(user_with_role("surveillance"))
    url = reverse("desk-advantage")
    page = client.get(url, {"gaming_day": played["day"]}).content.decode()
    # A busy day has thousands of players: only the flagged and watched rows carry their pairs.
    assert page.count('<table class="data pairs">') == 1 and "Rounds of P-COUNTER: count and bet</summary>" in page
    assert f'?gaming_day={played["day"]}&amp;player=P-FLAT">Rounds of P-FLAT' in page
    flat = client.get(url, {"gaming_day": played["day"], "player": "P-FLAT"}).content.decode()
    assert "P-COUNTER" not in flat and "Player P-FLAT only." in flat
    assert flat.count('<table class="data pairs">') == 1 and "No flag: flat bet" in flat
    body = api_as(user_with_role("surveillance")).get(API, {"gaming_day": played["day"]}).json()
    assert all(len(row["pairs"]) == row["n"] for row in body["rows"])  # the API gives every pair
