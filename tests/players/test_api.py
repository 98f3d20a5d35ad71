"""Players over the API: who sees names, registering and changing with field errors, scoping."""

from __future__ import annotations

import pytest
from django.urls import reverse

from casino.roles import (
    ALL_ROLES,
    CAGE,
    COMPLIANCE,
    COUNT,
    FINANCE,
    GAMING_MANAGER,
    PIT_BOSS,
    SURVEILLANCE,
)
from tables.players.models import Player
from tests.conftest import AUTHS, api_as, client_as
from tests.factories import CasinoFactory, player_for, user_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada(db):
    from tests.factories import CasinoFactory

    return player_for(CasinoFactory(), "P-7", name="Ada Lovelace", loyalty_number="L-1")


@pytest.mark.parametrize("role", ALL_ROLES)
def test_names_only_for_the_roles_that_need_them(role, ada):
    client = api_as(user_with_role(role))
    detail = client.get(reverse("player-detail", args=[ada.pk])).json()
    listed = client.get(reverse("player-list")).json()["results"][0]
    sees = role in (PIT_BOSS, GAMING_MANAGER, COMPLIANCE)
    for data in (detail, listed):
        assert data["identifier"] == "P-7"
        assert ("name" in data, "loyalty_number" in data) == (sees, sees), role
        if sees:
            assert (data["name"], data["loyalty_number"]) == ("Ada Lovelace", "L-1")


@pytest.mark.parametrize("role", (SURVEILLANCE, FINANCE, CAGE, COUNT))
def test_a_name_is_not_searchable_by_who_may_not_read_it(role, ada):
    client = api_as(user_with_role(role))
    assert client.get(reverse("player-list"), {"search": "Lovelace"}).json()["results"] == []
    assert [p["id"] for p in client.get(reverse("player-list"), {"search": "p-7"}).json()["results"]] == [ada.pk]


def test_pit_boss_searches_by_name(ada):
    client = api_as(user_with_role(PIT_BOSS))
    assert [p["id"] for p in client.get(reverse("player-list"), {"search": "lovelace"}).json()["results"]] == [ada.pk]


def test_register_and_field_errors(ada):
    client = api_as(user_with_role(PIT_BOSS))
    made = client.post(reverse("player-list"), {"identifier": " P-8 ", "name": "Grace"}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["identifier"] == "P-8"
    twice = client.post(reverse("player-list"), {"identifier": "P-7"}, format="json")
    assert twice.status_code == 400 and "identifier" in twice.json()
    taken = client.post(reverse("player-list"), {"identifier": "P-9", "loyalty_number": "L-1"}, format="json")
    assert taken.status_code == 400 and "loyalty_number" in taken.json()
    empty = client.post(reverse("player-list"), {}, format="json")
    assert empty.status_code == 400 and "identifier" in empty.json()
    too_long = client.post(reverse("player-list"), {"identifier": "X" * 41}, format="json")
    assert too_long.status_code == 400 and "identifier" in too_long.json()
    assert Player.objects.count() == 2  # Ada and P-8: nothing half-saved


def test_a_user_of_several_casinos_names_the_casino(ada):
    other = CasinoFactory(name="Second Casino")
    boss = user_with_role(PIT_BOSS, casinos=[ada.casino, other])
    client = api_as(boss)
    refused = client.post(reverse("player-list"), {"identifier": "P-8"}, format="json")
    assert refused.status_code == 400 and "casino" in refused.json()
    made = client.post(reverse("player-list"), {"identifier": "P-8", "casino": other.pk}, format="json")
    assert made.status_code == 201 and made.json()["casino"] == other.pk
    stranger = CasinoFactory(name="Not Mine")
    elsewhere = client.post(reverse("player-list"), {"identifier": "P-9", "casino": stranger.pk}, format="json")
    assert elsewhere.status_code == 400 and "casino" in elsewhere.json()


def test_change_needs_a_reason_and_keeps_history(ada):
    boss = user_with_role(GAMING_MANAGER)
    client = api_as(boss)
    url = reverse("player-change", args=[ada.pk])
    no_reason = client.post(url, {"name": "Ada King"}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()
    nothing = client.post(url, {"reason": "typo"}, format="json")
    assert nothing.status_code == 400 and "name" in nothing.json()
    done = client.post(url, {"name": "Ada King", "reason": "married name"}, format="json")
    assert done.status_code == 200 and done.json()["name"] == "Ada King"
    last = ada.history.order_by("-history_date").first()
    assert (last.history_change_reason, last.history_user) == ("married name", boss)
    ada.refresh_from_db()
    assert ada.identifier == "P-7"


@pytest.mark.parametrize("auth", AUTHS)
def test_another_casinos_player_is_a_404(ada, auth):
    client = client_as(user_with_role(PIT_BOSS, casinos=[CasinoFactory(name="Elsewhere")]), auth)
    assert client.get(reverse("player-detail", args=[ada.pk])).status_code == 404
    assert client.post(reverse("player-change", args=[ada.pk]), {"name": "x", "reason": "y"},
                       format="json").status_code == 404
    assert client.get(reverse("player-ratings", args=[ada.pk])).status_code == 404
    ada.refresh_from_db()
    assert ada.name == "Ada Lovelace"
