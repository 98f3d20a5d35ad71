"""Which games' recorded decisions the engine prices, and how: the one registry the stored
prices (``audit.decisions``) read, as ``edges.EDGE`` is the one of the wagers' edges.

Each entry takes a parsed round and the game's rules and gives a
:class:`~tables.games.blackjack.decisions.RoundPrices`. The three blackjack games price every
hit, stand, double, split, insurance and even money against the optimal composition-dependent
play of the 21 bet's exact edge, and Ante Up 21 its fold decision too. Poker or Bust's draws are
priced one at a time (``gamemath decision``: at six decks from the dealer's tables for the
upcard, built in 2 s with a King up to 106 s with an Ace, then microseconds a stand; a decision
whose own tree holds more than 1,000,000 player hands, as from three cards at 12 or less, is
``poker_or_bust.exact.TooLarge``) but not per round. Hold'em Blackjack is player against
player: the house has no stake in a decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .blackjack.decisions import RoundPrices, round_prices, warm
from .vocabulary.catalogue import (
    ANTE_UP_21,
    BLACKJACK_TIE,
    HOLDEM_BLACKJACK,
    POKER_OR_BUST,
    UPCARD_LUCK_21,
)

#: game -> (parsed round, rules) -> RoundPrices.
ROUND_PRICES: dict[str, Callable[[Any, Any], RoundPrices]] = {
    ANTE_UP_21: round_prices,
    UPCARD_LUCK_21: round_prices,
    BLACKJACK_TIE: round_prices,
}

#: game -> (rules, game) -> states priced: fills a process's tables before its first round.
WARM: dict[str, Callable[[Any, str], int]] = {ANTE_UP_21: warm, UPCARD_LUCK_21: warm, BLACKJACK_TIE: warm}

#: Why a game's decisions are not priced, in the pages' words.
NOT_PRICED = {
    POKER_OR_BUST: "a six-deck shoe's draw is priced one at a time, in seconds to over a minute (and a "
                   "decision on a low total is still beyond the engine): too slow for every round",
    HOLDEM_BLACKJACK: "the players play against each other: the house has no stake in a decision",
}

#: Bumped whenever a price the engine gives may change: rows priced with another version are
#: priced again by the rebuild.
PRICING_VERSION = "2"
