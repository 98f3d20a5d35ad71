"""Which cards a recorded round used and which wager is each player's bet, per game.

The bet compared with the count is the player's **initial main wager**, the one a counter
spreads: the base wager every seat must place, before doubles and splits (which follow the
cards of the hand, not the count) and without side wagers (fixed, capped by the main wager,
or settled on the first cards alone).

| game | the bet | why |
|---|---|---|
| Ante Up 21 | ``21`` | the required blackjack bet; Ante/Bet follow the poker decision |
| Upcard Luck 21 | ``21`` | Upcard Luck and the Taxpayer's Fortune marker are side bets |
| Blackjack Tie | ``21`` | the primary wager; the tie bonuses are side bets |
| Poker or Bust | ``ante`` | Ante and Odds are mandatory and equal; the Ante stands for both |
| Hold'em Blackjack | not assessed | player against player: the house has no stake to beat, the |
| | | bets are blinds and fixed-limit betting, so a count does not move them |

A player on two seats in one round bets the sum of both seats' base wagers (spreading to a
second hand is a counter's way of raising the bet). A seat without a player identifier is
left out (its cards still count).
"""

from __future__ import annotations

from decimal import Decimal

from tables.games.vocabulary.cards import parse_card
from tables.games.vocabulary.catalogue import ANTE, W21

BET_WAGER = {
    "ante_up_21": W21,
    "upcard_luck_21": W21,
    "blackjack_tie": W21,
    "poker_or_bust": ANTE,
}
#: The games whose rounds are walked (Hold'em Blackjack is not assessed: see above).
ASSESSED_GAMES = tuple(BET_WAGER)


def round_cards(game: str, data: dict) -> tuple[int, ...]:
    """Every card of the round in its canonical JSON: the dealer's, then each seat's."""
    texts = list(data.get("dealer", {}).get("cards", ()))
    for seat in data.get("seats", ()):
        if game == "poker_or_bust":
            texts.extend(seat.get("cards", ()))
        else:
            for hand in seat.get("hands", ()):
                texts.extend(hand.get("cards", ()))
    return tuple(parse_card(t) for t in texts)


def round_bets(game: str, data: dict) -> tuple[tuple[str, Decimal], ...]:
    """(player, base wager) per player identifier of the round, summed over the player's seats."""
    key = BET_WAGER[game]
    bets: dict[str, Decimal] = {}
    for seat in data.get("seats", ()):
        player = (seat.get("player") or "").strip()
        stake = seat.get("wagers", {}).get(key)
        if not player or stake is None:
            continue
        bets[player] = bets.get(player, Decimal("0")) + Decimal(str(stake))
    return tuple(bets.items())
