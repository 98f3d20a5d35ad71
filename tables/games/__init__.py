"""The rules of the five games, in pure Python: no Django, no database, no I/O.

Every game module provides the same entry points (``parse_round``, ``audit``,
``round_to_dict``, ``recorded_nets``, ``simulate_round``), so the recording service, the
``settle`` command and the simulator treat every game alike: their contract is the Protocol
:class:`~tables.games.game_module.GameModule`, and a simulator's is
:class:`~tables.games.game_module.SimulatorModule`. :data:`GAMES` names each game's module
and simulator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from . import accel

# Before any engine module is imported, which every import below does: the finder loads a
# compiled module only where it matches its source, and Python's own import system would
# load a stale compiled one.
accel.install()

from .blackjack import ante_up_21, blackjack_tie, upcard_luck_21  # noqa: E402
from .blackjack import simulate as blackjack_simulate  # noqa: E402
from .game_module import GameModule, SimulatorModule  # noqa: E402
from .holdem import game as holdem_game  # noqa: E402
from .holdem import simulate as holdem_simulate  # noqa: E402
from .poker_or_bust import game as poker_or_bust_game  # noqa: E402
from .poker_or_bust import simulate as poker_or_bust_simulate  # noqa: E402
from .settings import rulesets  # noqa: E402
from .settings.config import config_from_dict, config_to_dict  # noqa: E402
from .vocabulary.catalogue import (  # noqa: E402
    ANTE_UP_21,
    BLACKJACK_TIE,
    HOLDEM_BLACKJACK,
    POKER_OR_BUST,
    UPCARD_LUCK_21,
)


@dataclass(frozen=True)
class Game:
    key: str
    name: str
    module: GameModule
    rules_class: type
    # Imported with the game: the game's ``simulate_round`` reaches it through
    # ``base.SIMULATORS``, which the simulator fills when imported (a game never imports
    # its simulator, which plays through the game's own rules).
    simulator: SimulatorModule

    @property
    def inject_kinds(self) -> tuple[str, ...]:
        """The dealer errors the simulator can put into a round (tests, demo data)."""
        return tuple(sorted(self.simulator.INJECT_KINDS))

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


GAMES: dict[str, Game] = {
    g.key: g
    for g in (
        Game(ANTE_UP_21, "Ante Up 21", ante_up_21, rulesets.AnteUp21Rules, blackjack_simulate),
        Game(UPCARD_LUCK_21, "Upcard Luck 21", upcard_luck_21, rulesets.UpcardLuck21Rules, blackjack_simulate),
        Game(POKER_OR_BUST, "Poker or Bust", poker_or_bust_game, rulesets.PokerOrBustRules, poker_or_bust_simulate),
        Game(HOLDEM_BLACKJACK, "Hold'em Blackjack", holdem_game, rulesets.HoldemBlackjackRules, holdem_simulate),
        Game(BLACKJACK_TIE, "Blackjack Tie", blackjack_tie, rulesets.BlackjackTieRules, blackjack_simulate),
    )
}
GAME_CHOICES = [(g.key, g.name) for g in GAMES.values()]
