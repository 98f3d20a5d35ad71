"""Gaming managers edit the floor through the API; every change is kept with who and why."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Ruleset
from tests.conftest import api_as
from tests.factories import CasinoFactory, RulesetFactory

pytestmark = pytest.mark.django_db


def test_manager_creates_ruleset_with_card_defaults(manager):
    casino = CasinoFactory()
    response = api_as(manager).post(reverse("ruleset-list"), {
        "casino": casino.pk, "game": "upcard_luck_21", "name": "UL pay table B",
        "config": {"upcard_luck_paytable": "B"}, "reason": "New table in pit 2",
    }, format="json")
    assert response.status_code == 201, response.data
    assert response.data["version"] == 1
    config = response.data["config"]
    assert config["upcard_luck_paytable"] == "B"
    assert config["dealer_hits_soft_17"] is True  # the card's default, spelled out
    assert config["jackpot_columns"]["6"]["bust5_suited"] == "80"


def test_ruleset_update_leaves_history_with_user_and_reason_and_a_new_version(manager):
    ruleset = RulesetFactory(game="blackjack_tie")
    url = reverse("ruleset-detail", args=[ruleset.pk])
    response = api_as(manager).patch(url, {"config": {**ruleset.config, "blackjack_pays": "6:5"},
                                           "reason": "Pit 1 moves to 6:5"}, format="json")
    assert response.status_code == 200, response.data
    ruleset.refresh_from_db()
    assert ruleset.version == 2
    record = ruleset.history.latest()
    assert record.history_user == manager
    assert record.history_change_reason == "Pit 1 moves to 6:5"
    versions = {v.number: v.config["blackjack_pays"] for v in ruleset.versions.all()}
    assert versions == {1: "3:2", 2: "6:5"}  # the old version a past round points at is unchanged

    history = api_as(manager).get(reverse("ruleset-history", args=[ruleset.pk])).json()["results"]
    assert history[0]["history_user"] == str(manager)
    assert history[0]["history_change_reason"] == "Pit 1 moves to 6:5"
    assert any(change["field"] == "config" for change in history[0]["changes"])


def test_write_without_reason_is_refused(manager):
    ruleset = RulesetFactory()
    response = api_as(manager).patch(reverse("ruleset-detail", args=[ruleset.pk]), {"name": "x"}, format="json")
    assert response.status_code == 400
    assert "reason" in response.data


@pytest.mark.parametrize(
    ("game", "config", "field", "words"),
    [
        ("blackjack_tie", {"tie_paytable": {"LS": "-18", "RS": "24", "17": "50", "18": "55", "19": "55", "20": "25",
                                            "21": "250", "blackjack": "400"}}, "tie_paytable.LS", "negative"),
        ("ante_up_21", {"rounding_unit": "0"}, "rounding_unit", "more than 0"),
        ("upcard_luck_21", {"decks": 4}, "jackpot_columns", "no column for a 4-deck shoe"),
        ("ante_up_21", {"decks": 0}, "decks", "at least 1"),
        ("ante_up_21", {"blackjack_pays": "2:1"}, "blackjack_pays", "not one of"),
        ("poker_or_bust", {"odds_paytable": {"straight": "x"}}, "odds_paytable.straight", "not a number"),
        ("holdem_blackjack", {"final_min_multiple": 5, "final_max_multiple": 3}, "final_max_multiple", "below"),
    ],
)
def test_nonsense_configuration_is_refused_with_the_field_named(manager, game, config, field, words):
    casino = CasinoFactory()
    response = api_as(manager).post(reverse("ruleset-list"), {
        "casino": casino.pk, "game": game, "name": "bad", "config": config, "reason": "try"}, format="json")
    assert response.status_code == 400
    messages = response.data["config"]
    assert any(m.startswith(field) and words in m for m in messages), messages
    assert not Ruleset.objects.filter(name="bad").exists()


def test_table_cannot_run_a_ruleset_of_another_game(manager, table):
    other = RulesetFactory(game="blackjack_tie", casino=table.pit.casino)
    response = api_as(manager).patch(reverse("table-detail", args=[table.pk]),
                                     {"ruleset": other.pk, "reason": "swap"}, format="json")
    assert response.status_code == 400
    assert "ruleset" in response.data


def test_floor_reads_show_the_current_ruleset_version(role_users, table):
    data = api_as(role_users["pit_boss"]).get(reverse("table-list")).json()
    row = next(r for r in data["results"] if r["id"] == table.pk)
    assert row["ruleset"] == table.ruleset.pk and row["ruleset_version"] == 1
    assert row["min_bet"] == "10.00"


def test_api_errors_are_json_for_anonymous(api_client):
    response = api_client.get(reverse("table-list"))
    assert response.status_code in (401, 403)
    assert response["Content-Type"].startswith("application/json")


def _pit_with_a_round():
    from tables.services.rounds import round_record
    from tables.services.sessions import table_session_open
    from tests.factories import DealerFactory, PitFactory, TableFactory, user_with_role
    from tests.tables.rounds_data import ROUNDS

    pitboss = user_with_role("pit_boss")
    pit = PitFactory()
    table = TableFactory(pit=pit, ruleset=RulesetFactory(casino=pit.casino))
    table_session_open(table=table, dealer=DealerFactory(casino=pit.casino), author=pitboss)
    round_record(table=table, data=ROUNDS["ante_up_21"]["correct"][0], author=pitboss)
    return pit, table


def test_a_pit_with_recorded_rounds_cannot_move_to_another_casino(manager):
    from django.core.exceptions import ValidationError

    from tables.models import Pit
    from tables.services.floor import floor_object_save
    from tests.factories import PitFactory

    pit, table = _pit_with_a_round()
    other = CasinoFactory(name="Other Casino")
    from casino.models import CasinoMembership

    CasinoMembership.objects.create(user=manager, casino=other)  # they manage both
    response = api_as(manager).patch(reverse("pit-detail", args=[pit.pk]),
                                     {"casino": other.pk, "reason": "move"}, format="json")
    assert response.status_code == 400 and "casino" in response.json(), response.content
    pit.refresh_from_db()
    assert pit.casino != other
    pit.casino = other
    with pytest.raises(ValidationError) as err:
        floor_object_save(obj=pit, author=manager, reason="admin move")
    assert "casino" in err.value.message_dict
    assert Pit.objects.get(pk=pit.pk).casino_id != other.pk
    # A table with rounds cannot be moved into another casino's pit either.
    elsewhere = PitFactory(casino=other)
    response = api_as(manager).patch(reverse("table-detail", args=[table.pk]), {
        "pit": elsewhere.pk, "ruleset": RulesetFactory(casino=other).pk, "reason": "move"}, format="json")
    assert response.status_code == 400 and "pit" in response.json(), response.content
    # Renaming it, or moving a pit without rounds, is fine.
    assert api_as(manager).patch(reverse("pit-detail", args=[pit.pk]),
                                 {"name": "Renamed", "reason": "rename"}, format="json").status_code == 200
    empty = PitFactory()
    assert api_as(manager).patch(reverse("pit-detail", args=[empty.pk]),
                                 {"casino": other.pk, "reason": "move"}, format="json").status_code == 200


@pytest.mark.parametrize("change", [{"gaming_day_start_hour": 23}, {"time_zone": "Europe/London"}])
def test_a_casino_with_recorded_rounds_keeps_its_gaming_day(manager, change):
    """Issue #14 part 1: every round's gaming day was fixed by the casino's zone and start hour
    when it was recorded; changing either afterwards would make the stored days disagree with
    the report's bounds and refuse every round at a table left open."""
    from django.core.exceptions import ValidationError

    from casino.models import Casino
    from tables.services.floor import floor_object_save

    pit, table = _pit_with_a_round()
    casino = pit.casino
    response = api_as(manager).patch(reverse("casino-detail", args=[casino.pk]), {**change, "reason": "change"},
                                     format="json")
    field = next(iter(change))
    assert response.status_code == 400 and field in response.json(), response.content
    casino.refresh_from_db()
    assert getattr(casino, field) != change[field]
    setattr(casino, field, change[field])
    with pytest.raises(ValidationError) as err:
        floor_object_save(obj=casino, author=manager, reason="admin change")
    assert field in err.value.message_dict
    # Its name may change; a casino with no rounds yet may still set its gaming day.
    assert api_as(manager).patch(reverse("casino-detail", args=[casino.pk]),
                                 {"name": "Renamed Casino", "reason": "rename"}, format="json").status_code == 200
    fresh = CasinoFactory(name="Fresh Casino")
    from casino.models import CasinoMembership

    CasinoMembership.objects.create(user=manager, casino=fresh)
    assert api_as(manager).patch(reverse("casino-detail", args=[fresh.pk]), {**change, "reason": "set up"},
                                 format="json").status_code == 200
    assert Casino.objects.get(pk=fresh.pk).__dict__[field] == change[field]
