"""The demo's players: a few of the identifiers the demo records at the seats get a record, so
the player pages show registered players beside "not registered" ones."""

from __future__ import annotations

from tables.players.models import Player
from tables.players.services.register import player_register

#: (identifier, name, loyalty number). P-4471 is the overpay pattern's player and P-2050 the jackpot
#: winner (casino/demo/story.py); P-001 and P-002 sit at the Hold'em table (its simulator
#: names seat n "P-00n"). The other Hold'em seats stay unregistered.
DEMO_PLAYERS = (
    ("P-4471", "Morgan Reyes", "L-104471"),
    ("P-2050", "Dana Whitfield", "L-102050"),
    ("P-001", "Sam Okafor", "L-100001"),
    ("P-002", "Lee Park", ""),
)


def demo_players_load(*, casino, author) -> int:
    """Register the demo players not registered yet; the number registered."""
    made = 0
    for identifier, name, loyalty_number in DEMO_PLAYERS:
        if not Player.objects.filter(casino=casino, identifier=identifier).exists():
            player_register(casino=casino, identifier=identifier, name=name, loyalty_number=loyalty_number,
                            author=author)
            made += 1
    return made
