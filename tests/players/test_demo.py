"""The demo loader registers a few of its players, once."""

from __future__ import annotations

import pytest

from casino.demo.floor import demo_floor_load
from casino.demo.players import DEMO_PLAYERS
from tables.players.models import Player

pytestmark = pytest.mark.django_db


def test_the_demo_registers_its_players_once():
    demo_floor_load()
    demo_floor_load()
    assert sorted(Player.objects.values_list("identifier", "name")) == sorted((i, n) for i, n, _ in DEMO_PLAYERS)
    assert all(p.history.count() == 1 for p in Player.objects.all())
