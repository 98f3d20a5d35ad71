"""Every exactly priced wager of a game under a ruleset: the one registry of the engine's edges.

``gamemath edge`` prints it; the theoretical win of the reports and ratings stores it per
ruleset version (``audit.reports.odds``). Each entry is ``{"house_edge", "variance", "method",
"strategy", "exact": {...}}`` per unit of the wager (``method`` says how it was computed,
``strategy`` the play it assumes). A game whose shoe is beyond exact enumeration raises
:class:`NotExact` with the reason; nothing here simulates.
"""

from __future__ import annotations

from collections.abc import Callable

from .blackjack import ante_up_math, strategy_math, tie_math
from .poker_or_bust import exact as poker_or_bust_exact
from .vocabulary.catalogue import ANTE_UP_21, BLACKJACK_TIE, POKER_OR_BUST, UPCARD_LUCK_21


class NotExact(ValueError):
    """The engine cannot price this game's wagers exactly under these rules (yet)."""


#: game -> edge(rules) -> {wager: {...}}. Ante Up 21's ANTE/BET and Blackjack Tie's bonuses ride
#: on the 21 bet's optimal play (RULINGS.md), so their games join the 21 bet's entries.
#: Options (``long_solve``, ``jobs``, ``progress``) reach the games whose solve can take hours.
EDGE: dict[str, Callable[..., dict[str, dict]]] = {
    ANTE_UP_21: lambda rules, **_: {**strategy_math.edge_wagers(rules), **ante_up_math.edge_wagers(rules)},
    UPCARD_LUCK_21: lambda rules, **_: strategy_math.edge_wagers(rules),
    BLACKJACK_TIE: lambda rules, **_: {**strategy_math.edge_wagers(rules), **tie_math.edge_wagers(rules)},
    POKER_OR_BUST: poker_or_bust_exact.edge_wagers,
}


def wager_edges(game: str, rules, **options) -> dict[str, dict]:
    """The exact edge of every wager ``game`` deals under ``rules`` (a rules object).

    Raises :class:`NotExact` for a game with no exact math or a shoe too large to enumerate
    (Poker or Bust's whole decks unless ``long_solve=True``: hours of CPU, ``jobs`` processes).
    """
    edge = EDGE.get(game)
    if edge is None:
        raise NotExact(f"{game}: the house risks nothing at this game (rake), or it has no exact math")
    try:
        return edge(rules, **options)
    except poker_or_bust_exact.TooLarge as exc:
        raise NotExact(str(exc)) from exc
