"""Worked examples of each game's round for the OpenAPI schema, dealt by the engine's simulator.

They are dealt from a fixed seed, so they are stable, and by the engine itself, so they are
always valid and settle without findings.
"""

from __future__ import annotations

import random

from drf_spectacular.utils import OpenApiExample

from tables.games import GAMES


def _example(game_key: str) -> OpenApiExample:
    game = GAMES[game_key]
    seats = 2
    data = game.module.simulate_round(random.Random(21), game.default_rules(), seats=seats)
    return OpenApiExample(
        f"{game.name} round",
        summary=f"A round of {game.name} with {seats} players, as dealt and paid",
        value={"table": 1, "round": data},
        request_only=True,
    )


ROUND_EXAMPLES = [_example(key) for key in GAMES]
