import pytest
from django.core.exceptions import ValidationError

from tables.players.models import Player
from tables.players.selectors import players_by_identifier
from tables.players.services.register import player_change, player_register
from tests.factories import CasinoFactory, UserFactory, player_for

pytestmark = pytest.mark.django_db


def test_a_registered_player_keeps_who_registered_and_changed_them_and_why():
    casino, pit_boss = CasinoFactory(), UserFactory()
    player = player_register(casino=casino, identifier=" C-1001 ", name="Ada Lovelace", author=pit_boss)
    assert player.identifier == "C-1001"
    player_change(player=player, author=pit_boss, reason="enrolled in the loyalty club", loyalty_number="L-77")
    history = list(Player.history.filter(id=player.pk).order_by("history_date"))
    assert [(h.history_change_reason, h.history_user_id, h.loyalty_number) for h in history] == [
        ("registered", pit_boss.pk, ""), ("enrolled in the loyalty club", pit_boss.pk, "L-77")]


def test_an_identifier_is_registered_once_per_casino_and_never_changes():
    casino = CasinoFactory()
    player = player_for(casino, "C-1")
    with pytest.raises(ValidationError) as err:
        player_register(casino=casino, identifier="C-1", author=UserFactory())
    assert "identifier" in err.value.message_dict
    player_for(CasinoFactory(name="Other Casino"), "C-1")  # another casino's card of the same number is another player
    with pytest.raises(ValidationError) as err:
        player_change(player=player, author=UserFactory(), reason="typo", identifier="C-2")
    assert "identifier" in err.value.message_dict
    assert Player.objects.get(pk=player.pk).identifier == "C-1"


@pytest.mark.parametrize(("fields", "error"), [
    ({"identifier": ""}, "identifier"), ({"identifier": "x" * 41}, "identifier"),
    ({"identifier": "C-9", "name": "n" * 121}, "name"), ({"identifier": "C-9", "name": 5}, "name"),
])
def test_bad_input_is_a_field_error_and_nothing_is_stored(fields, error):
    with pytest.raises(ValidationError) as err:
        player_register(casino=CasinoFactory(), author=UserFactory(), **fields)
    assert error in err.value.message_dict
    assert not Player.objects.exists()


def test_a_change_needs_a_reason_and_a_loyalty_number_is_one_players():
    casino = CasinoFactory()
    player_for(casino, "C-1", loyalty_number="L-1")
    other = player_for(casino, "C-2")
    with pytest.raises(ValidationError) as err:
        player_change(player=other, author=UserFactory(), reason="", name="Bo")
    assert "reason" in err.value.message_dict
    with pytest.raises(ValidationError) as err:
        player_change(player=other, author=UserFactory(), reason="enrolled", loyalty_number="L-1")
    assert "loyalty_number" in err.value.message_dict


def test_identifiers_recorded_at_seats_link_to_their_players():
    casino = CasinoFactory()
    ada = player_for(casino, "C-1", name="Ada")
    assert players_by_identifier(casino.pk, ["C-1", "C-404", ""]) == {"C-1": ada}
