"""On PostgreSQL a player's identifier never changes and a player is never deleted; their
history is append-only. Name and loyalty number change through the service."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from tables.players.models import Player
from tables.players.services.register import player_change
from tests.factories import CasinoFactory, player_for

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(connection.vendor != "postgresql", reason="the guards are PostgreSQL triggers")]


def _refused(fn) -> bool:
    try:
        with transaction.atomic():
            fn()
    except DatabaseError:
        return True
    return False


def test_guards():
    player = player_for(CasinoFactory(), "P-7", name="Ada")
    assert _refused(lambda: Player.objects.filter(pk=player.pk).update(identifier="P-8"))
    assert _refused(lambda: Player.objects.filter(pk=player.pk).delete())
    assert _refused(lambda: Player.history.filter(id=player.pk).update(name="Eve"))
    assert _refused(lambda: Player.objects.filter(pk=player.pk).update(name="Eve"))  # not through the service
    player_change(player=player, author=player.registered_by, reason="typo", name="Ada King")
    player.refresh_from_db()
    assert (player.identifier, player.name) == ("P-7", "Ada King")
