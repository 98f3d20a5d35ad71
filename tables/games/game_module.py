"""What a game module provides, and what a simulator module declares, as typing Protocols.

``tables.games.GAMES`` holds each game's module typed as :class:`GameModule` and its
simulator module as :class:`SimulatorModule`, so the recording service, the ``settle``
command, the demo data and the tests treat every game alike and call its members directly.
A game module satisfies the Protocol by having the members, not by deriving from it;
``tests/games/test_game_module.py`` checks every game in ``GAMES`` against both, member
names and parameter names alike.

A round is each game's own immutable object (``blackjack.rounds.Round``,
``poker_or_bust.rounds.Round``, ``holdem.game.Round``), so it is typed ``Any`` here: what a
game's ``audit`` and ``round_to_dict`` take is what its own ``parse_round`` returned.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from decimal import Decimal
from typing import Any, Protocol, runtime_checkable

from .vocabulary.base import Audit, AuditContext


@runtime_checkable
class GameModule(Protocol):
    """The entry points of one game (``blackjack.ante_up_21``, ``holdem.game``, ...)."""

    def parse_round(self, data: Mapping, rules: Any) -> Any:
        """The round's JSON form (what the API and the tablet send) -> the game's immutable
        round. Refuses only what cannot be stored: raises
        :class:`~tables.games.vocabulary.base.InvalidInput` naming every impossible field;
        anything that happened at the table but broke a rule is parsed and becomes a finding
        of :meth:`audit`."""
        ...

    def audit(self, rnd: Any, rules: Any, context: AuditContext | None = None) -> Audit:
        """The settlement of every wager under ``rules``, the dealer-procedure and rule
        findings, and the overpays and underpays of the recorded pays. ``context`` brings
        what lies outside the round (the jackpot's amounts, the previous hand)."""
        ...

    def round_to_dict(self, rnd: Any) -> dict:
        """The canonical JSON form of a round: ``parse_round`` of it gives an equal round."""
        ...

    def recorded_nets(self, canonical: Mapping) -> dict[tuple[int, str, int | None], Decimal]:
        """What the dealer did with each wager, from the canonical JSON:
        ``{(seat, wager, hand): net}``. Most games share
        :func:`tables.games.vocabulary.base.recorded_nets` (``seats[].paid``) and re-export it."""
        ...

    def simulate_round(
        self, rng: random.Random, rules: Any, *, seats: int, inject: frozenset[str] = frozenset()
    ) -> dict:
        """A realistic round in JSON form, with the dealer errors named in ``inject`` (kinds
        from the simulator's ``INJECT_KINDS``) made where the round offers the chance."""
        ...


@runtime_checkable
class SimulatorModule(Protocol):
    """The module that plays a game's rounds (``blackjack.simulate``, ...). It plays through
    the game's own rules, so a game never imports it: the game's ``simulate_round`` reaches it
    through :data:`~tables.games.vocabulary.base.SIMULATORS`, which it fills when imported."""

    #: The dealer errors the simulator can put into a round (tests, demo data).
    INJECT_KINDS: Collection[str]
