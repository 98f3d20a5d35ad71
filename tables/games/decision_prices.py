"""Which games' recorded decisions the engine prices, and how: the one registry the stored
prices (``audit.decisions``) read, as ``edges.EDGE`` is the one of the wagers' edges.

Each entry takes a parsed round and the game's rules and gives a
:class:`~tables.games.vocabulary.prices.RoundPrices`. The three blackjack games price every
hit, stand, double, split, insurance and even money against the optimal composition-dependent
play of the 21 bet's exact edge, and Ante Up 21 its fold decision too. Poker or Bust prices every
draw and stand of up to five cards from the whole-game solve the long solve stores with the
settings' edges (:mod:`.poker_or_bust.draw_prices`); until it is stored, each decision is left
unpriced saying so. Hold'em Blackjack is player against player: the house has no stake in a
decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .blackjack.decisions import round_prices, warm
from .poker_or_bust import draw_prices
from .vocabulary.catalogue import (
    ANTE_UP_21,
    BLACKJACK_TIE,
    HOLDEM_BLACKJACK,
    POKER_OR_BUST,
    UPCARD_LUCK_21,
)
from .vocabulary.prices import RoundPrices

#: game -> (parsed round, rules) -> RoundPrices.
ROUND_PRICES: dict[str, Callable[[Any, Any], RoundPrices]] = {
    ANTE_UP_21: round_prices,
    UPCARD_LUCK_21: round_prices,
    BLACKJACK_TIE: round_prices,
    POKER_OR_BUST: draw_prices.round_prices,
}

#: game -> (rules, game) -> states priced: fills a process's tables before its first round.
WARM: dict[str, Callable[[Any, str], int]] = {ANTE_UP_21: warm, UPCARD_LUCK_21: warm, BLACKJACK_TIE: warm}

#: Why a game's decisions are not priced, in the pages' words.
NOT_PRICED = {
    HOLDEM_BLACKJACK: "the players play against each other: the house has no stake in a decision",
}

#: Bumped whenever a price the engine gives may change: rows priced with another version are
#: priced again by the rebuild.
PRICING_VERSION = "3"
