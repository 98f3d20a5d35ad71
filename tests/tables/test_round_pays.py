"""A round cannot hide its pays: every settled wager's pay is recorded, or the pit boss
attests "paid as shown" and the revision is stored as attested; with neither the round is
refused, a field error per missing pay, and nothing is stored. Through a session and a real
``Authorization: Token`` header."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from tables.models import Round, RoundRevision, Wager
from tests.conftest import AUTHS, client_as
from tests.factories import user_with_role
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table

pytestmark = pytest.mark.django_db

GAMES = list(ROUNDS)


@pytest.fixture
def pitboss(db):
    return user_with_role("pit_boss")


def without_pays(game: str, data: dict) -> dict:
    data = copy.deepcopy(data)
    if game == "holdem_blackjack":
        data["actions"] = [a for a in data["actions"] if a["action"] not in ("award", "rake")]
    else:
        for seat in data["seats"]:
            seat.pop("paid", None)
    return data


def post(client, table, data, **extra):
    return client.post(reverse("round-list"), {"table": table.pk, "round": data, **extra}, format="json")


@pytest.mark.parametrize("auth", AUTHS)
@pytest.mark.parametrize("game", GAMES)
def test_a_round_with_no_pays_is_refused_a_field_error_per_missing_pay(game, auth, pitboss):
    table = open_table(game, pitboss)
    data, _, _ = ROUNDS[game]["correct"]
    response = post(client_as(pitboss, auth), table, without_pays(game, data))
    assert response.status_code == 400, response.content
    errors = response.json()
    if game == "holdem_blackjack":
        # The pot's pushes and the rake are recorded whole: one error per seat's award and the rake.
        assert len(errors["round.actions"]) == len(data["seats"]) + 1, errors
        assert any("Seat 1: no award (chips pushed) recorded (the engine says 38.50)" in m
                   for m in errors["round.actions"]), errors
    else:
        settled = len(data["seats"][0]["paid"])
        assert len(errors["round.seats[0].paid"]) == settled, errors
        assert all('attest "paid as shown"' in m for m in errors["round.seats[0].paid"])
    assert not Round.objects.exists() and not RoundRevision.objects.exists() and not Wager.objects.exists()


@pytest.mark.parametrize("auth", AUTHS)
@pytest.mark.parametrize("game", GAMES)
def test_attested_pays_are_stored_as_attested_not_as_recorded(game, auth, pitboss):
    table = open_table(game, pitboss)
    data, _, _ = ROUNDS[game]["correct"]
    response = post(client_as(pitboss, auth), table, without_pays(game, data), pays="attested")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["pays_attested"] is True
    assert all(w["recorded_net"] is None for w in body["wagers"])
    assert RoundRevision.objects.get(round_id=body["id"]).pays_attested is True
    read = client_as(pitboss, auth).get(reverse("round-detail", args=[body["id"]])).json()
    assert read["pays_attested"] is True


@pytest.mark.parametrize("game", GAMES)
def test_a_round_with_every_pay_recorded_is_not_attested_even_when_asked(game, pitboss):
    table = open_table(game, pitboss)
    data, _, _ = ROUNDS[game]["correct"]
    body = post(client_as(pitboss), table, data, pays="attested").json()
    assert body["pays_attested"] is False


def test_some_pays_recorded_and_the_rest_attested_keeps_the_recorded_ones(pitboss):
    table = open_table("ante_up_21", pitboss)
    data = copy.deepcopy(ROUNDS["ante_up_21"]["correct"][0])
    data["seats"][0]["paid"] = data["seats"][0]["paid"][:1]
    refused = post(client_as(pitboss, "token"), table, data)
    assert refused.status_code == 400
    assert len(refused.json()["round.seats[0].paid"]) == len(ROUNDS["ante_up_21"]["correct"][0]["seats"][0]["paid"]) - 1
    body = post(client_as(pitboss, "token"), table, data, pays="attested").json()
    recorded = [w for w in body["wagers"] if w["recorded_net"] is not None]
    assert len(recorded) == 1 and body["pays_attested"] is True


def test_an_unknown_pays_choice_is_a_field_error(pitboss):
    table = open_table("ante_up_21", pitboss)
    response = post(client_as(pitboss, "token"), table, ROUNDS["ante_up_21"]["correct"][0], pays="trust me")
    assert response.status_code == 400 and "pays" in response.json()
    assert not Round.objects.exists()


@pytest.mark.parametrize("auth", AUTHS)
def test_a_correction_follows_the_same_rule(auth, pitboss):
    game = "poker_or_bust"
    table = open_table(game, pitboss)
    data = ROUNDS[game]["correct"][0]
    client = client_as(pitboss, auth)
    body = post(client, table, without_pays(game, data), pays="attested").json()
    url = reverse("round-corrections", args=[body["id"]])
    refused = client.post(url, {"revision": 1, "reason": "pays counted", "round": without_pays(game, data)},
                          format="json")
    assert refused.status_code == 400 and "round.seats[0].paid" in refused.json()
    fixed = client.post(url, {"revision": 1, "reason": "pays counted", "round": data}, format="json")
    assert fixed.status_code == 200, fixed.content
    assert fixed.json()["pays_attested"] is False and fixed.json()["revision"] == 2
    assert list(RoundRevision.objects.filter(round_id=body["id"]).order_by("number")
                .values_list("pays_attested", flat=True)) == [True, False]
