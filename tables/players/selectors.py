"""Which player an identifier recorded at a seat belongs to."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F

from casino.lookups import AnyOf
from tables.players.models import Player


def players_by_identifier(casino_id: int, identifiers: Iterable[str]) -> dict[str, Player]:
    """``{identifier: Player}`` for the registered ones among ``identifiers`` (one query)."""
    wanted = {i for i in identifiers if i}
    if not wanted:
        return {}
    return {p.identifier: p for p in Player.objects.filter(AnyOf(F("identifier"), sorted(wanted)), casino_id=casino_id)}
