"""Small builders for hand-worked blackjack rounds in the tests."""

from __future__ import annotations

from decimal import Decimal

D = Decimal


def seat(number: int, wagers: dict, *hands, **extra) -> dict:
    """``seat(1, {"21": "10"}, ("TS 9H", "stand"))``: hands as (cards, actions) strings."""
    out = {"seat": number, "wagers": wagers, "hands": []}
    for h in hands:
        cards, actions = h if isinstance(h, tuple) else (h, "")
        out["hands"].append({"cards": cards.split(), "actions": actions.split()})
    out.update(extra)
    return out


def round_(dealer: str, *seats: dict, game: str | None = None) -> dict:
    data = {"dealer": {"cards": dealer.split()}, "seats": list(seats)}
    if game:
        data["game"] = game
    return data


def by_key(audit) -> dict:
    return {(s.seat, s.wager, s.hand): s for s in audit.settlements}


def codes(audit) -> list[str]:
    return sorted(f.code for f in audit.findings)
