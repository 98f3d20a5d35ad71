"""The rules of the five games, in pure Python: no Django, no database, no I/O.

Each game module exposes the same four entry points, so the recording service, the
``settle`` command and the simulator treat every game alike:

* ``parse_round(data: Mapping, rules) -> Round`` — JSON form -> immutable round; raises
  :class:`~tables.games.vocabulary.base.InvalidInput` naming every impossible field;
* ``audit(round, rules, context: AuditContext | None = None) -> Audit`` — settlement of every
  wager, dealer-procedure and rule findings, and overpay/underpay against recorded pays;
* ``round_to_dict(round) -> dict`` — the canonical JSON form (``parse_round`` round-trips it);
* ``simulate_round(rng: random.Random, rules, *, seats: int, inject: frozenset[str] = frozenset()) -> dict``
  — a realistic round in JSON form, optionally with dealer errors of the named kinds.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType

from . import accel

accel.install()  # before any engine module is imported: compiled only where it matches its source

from .settings import rulesets  # noqa: E402
from .settings.config import config_from_dict, config_to_dict  # noqa: E402


@dataclass(frozen=True)
class Game:
    key: str
    name: str
    module_name: str
    rules_class: type
    simulator_name: str  # the module that simulates rounds and lists the errors it can inject

    @cached_property  # read for every round recorded or replayed: importing it again costs a lookup chain
    def module(self) -> ModuleType:
        module = importlib.import_module(f"{__name__}.{self.module_name}")
        # The simulator too: a game may reach its simulator through a registry the
        # simulator fills on import (Hold'em), so that neither imports the other.
        importlib.import_module(f"{__name__}.{self.simulator_name}")
        return module

    @property
    def inject_kinds(self) -> tuple[str, ...]:
        """The dealer errors the simulator can put into a round (tests, demo data)."""
        simulator = importlib.import_module(f"{__name__}.{self.simulator_name}")
        kinds = getattr(simulator, "INJECT_KINDS", None) or getattr(simulator, "INJECTIONS", ())
        return tuple(sorted(kinds))

    def rules_from_dict(self, data: Mapping | None):
        return config_from_dict(self.rules_class, data)

    def rules_to_dict(self, rules) -> dict:
        return config_to_dict(rules)

    def default_rules(self):
        return self.rules_class()


#: Stored with every audit, so a re-audit can tell which engine produced a result.
ENGINE_VERSION = "2026.11.1"


def engine_build() -> str:
    """Which build of the engine this process runs: "compiled", "python" or "mixed"."""
    return accel.build_description()

from .vocabulary.catalogue import (  # noqa: E402
    ANTE_UP_21,
    BLACKJACK_TIE,
    HOLDEM_BLACKJACK,
    POKER_OR_BUST,
    UPCARD_LUCK_21,
)

GAMES: dict[str, Game] = {
    g.key: g
    for g in (
        Game(ANTE_UP_21, "Ante Up 21", "blackjack.ante_up_21", rulesets.AnteUp21Rules, "blackjack.simulate"),
        Game(UPCARD_LUCK_21, "Upcard Luck 21", "blackjack.upcard_luck_21", rulesets.UpcardLuck21Rules,
             "blackjack.simulate"),
        Game(POKER_OR_BUST, "Poker or Bust", "poker_or_bust.game", rulesets.PokerOrBustRules,
             "poker_or_bust.simulate"),
        Game(HOLDEM_BLACKJACK, "Hold'em Blackjack", "holdem.game", rulesets.HoldemBlackjackRules,
             "holdem.simulate"),
        Game(BLACKJACK_TIE, "Blackjack Tie", "blackjack.blackjack_tie", rulesets.BlackjackTieRules, "blackjack.simulate"),
    )
}
GAME_CHOICES = [(g.key, g.name) for g in GAMES.values()]
