"""What a round may hold beyond its game's rules: what the books can store, and the table's limits.

Two kinds of trouble, as RULINGS.md separates them:

* **Refused** (nothing stored): a player identifier longer than its column; a wager above
  :data:`LARGEST_TABLE_LIMIT`, the most any table can be set to take (its ``max_bet``
  column), which no table could have taken; a computed pay or a finding's amount beyond
  what a money column holds (``tables.games.vocabulary.money.MAX_AMOUNT``).
* **Stored as recorded and flagged**: a wager above this table's maximum
  (``WAGER_ABOVE_TABLE_MAX``, any wager) or a main wager below its minimum
  (``WAGER_BELOW_TABLE_MIN``; side bets such as a $1 Poker Bonus have their own sizes).
  Hold'em Blackjack is player against player at the ruleset's stakes, which the engine
  already checks, so the table's limits are not applied to it.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import NamedTuple

from tables.games import ANTE_UP_21, BLACKJACK_TIE, POKER_OR_BUST, UPCARD_LUCK_21
from tables.games.vocabulary.base import RULE_VIOLATION, FieldError, Finding
from tables.games.vocabulary.catalogue import (
    ANTE,
    ODDS,
    RULE_TABLE_LIMITS,
    W21,
    WAGER_ABOVE_TABLE_MAX,
    WAGER_BELOW_TABLE_MIN,
)
from tables.games.vocabulary.money import CENT, MAX_AMOUNT, money_text
from tables.models import Table, Wager

PLAYER_LENGTH = Wager._meta.get_field("player").max_length
_MAX_BET = Table._meta.get_field("max_bet")
LARGEST_TABLE_LIMIT = Decimal(10 ** (_MAX_BET.max_digits - _MAX_BET.decimal_places)) - CENT
#: The wagers a table's minimum applies to, by game; its maximum applies to every wager.
MAIN_WAGERS = {ANTE_UP_21: (W21,), UPCARD_LUCK_21: (W21,), BLACKJACK_TIE: (W21,), POKER_OR_BUST: (ANTE, ODDS)}
LIMITS_RULE = RULE_TABLE_LIMITS  # the catalogue's text (tables.games.vocabulary.catalogue.FINDINGS)


class TableLimits(NamedTuple):
    min_bet: Decimal
    max_bet: Decimal


class _Paths:
    """Seat number -> the seat's path in the posted round ("seats[2]"), so errors name what was
    sent; worked out on the first use only: a round that breaks nothing names no path."""

    __slots__ = ("_data", "_paths")

    def __init__(self, data: dict):
        self._data, self._paths = data, None

    def __getitem__(self, seat: object) -> str:
        if self._paths is None:
            seats = self._data.get("seats") if isinstance(self._data, dict) else None
            self._paths = {}
            if isinstance(seats, list):
                self._paths = {s.get("seat"): f"seats[{i}]" for i, s in enumerate(seats) if isinstance(s, dict)}
        return self._paths.get(seat, "seats")


def _stakes(canonical: dict) -> Iterable[tuple[int, str, Decimal]]:
    """(seat, wager, stake) of every wager placed (the seats' ``wagers``)."""
    for seat in canonical.get("seats", ()):
        for wager, text in (seat.get("wagers") or {}).items():
            yield seat["seat"], wager, Decimal(text)


def round_refusals(*, canonical: dict, data: dict, audit) -> list[FieldError]:
    """What in a parsed and audited round cannot be stored (paths as in the posted round)."""
    errors: list[FieldError] = []
    paths = _Paths(data)
    for seat in canonical.get("seats", ()):
        player = seat.get("player") or ""
        if len(player) > PLAYER_LENGTH:
            errors.append(FieldError(f"{paths[seat['seat']]}.player",
                                     f"must be at most {PLAYER_LENGTH} characters, got {len(player):,}"))
    for seat, wager, stake in _stakes(canonical):
        if stake > LARGEST_TABLE_LIMIT:
            errors.append(FieldError(f"{paths[seat]}.wagers.{wager}", f"{stake:,} is more than any table takes "
                                                                      f"(at most {LARGEST_TABLE_LIMIT:,})"))
    if errors:
        return errors
    for s in audit.settlements:
        # Stakes were held to LARGEST_TABLE_LIMIT above; a pay can still be any size.
        if abs(s.net) > MAX_AMOUNT:
            errors.append(FieldError(f"{paths[s.seat]}.wagers.{s.wager}",
                                     f"its pay of {s.net:,} is more than the books hold ({MAX_AMOUNT:,})"))
    for f in audit.findings:
        if abs(f.amount) > MAX_AMOUNT:
            errors.append(FieldError(f.path, f"{f.amount:,} at stake is more than the books hold ({MAX_AMOUNT:,})"))
    return errors


def limit_findings(*, game: str, canonical: dict, data: dict, limits: TableLimits) -> list[Finding]:
    """Wagers outside the table's limits: stored as recorded, flagged for surveillance."""
    if game not in MAIN_WAGERS:
        return []
    findings = []
    paths = _Paths(data)
    for seat, wager, stake in _stakes(canonical):
        if stake > limits.max_bet:
            path = f"{paths[seat]}.wagers.{wager}"
            findings.append(Finding(
                code=WAGER_ABOVE_TABLE_MAX, kind=RULE_VIOLATION, path=path, rule=LIMITS_RULE, seat=seat,
                message=f"Seat {seat}'s {wager} of {money_text(stake)} is above the table's maximum of "
                        f"{money_text(limits.max_bet)}.",
                expected=money_text(limits.max_bet), recorded=money_text(stake), amount=stake - limits.max_bet))
        elif wager in MAIN_WAGERS[game] and stake < limits.min_bet:
            path = f"{paths[seat]}.wagers.{wager}"
            findings.append(Finding(
                code=WAGER_BELOW_TABLE_MIN, kind=RULE_VIOLATION, path=path, rule=LIMITS_RULE, seat=seat,
                message=f"Seat {seat}'s {wager} of {money_text(stake)} is below the table's minimum of "
                        f"{money_text(limits.min_bet)}.",
                expected=money_text(limits.min_bet), recorded=money_text(stake), amount=limits.min_bet - stake))
    return findings
