"""What the round-entry page needs to know about a table: its game's layout, the wagers it
takes, quick amounts from the table's limits and fixed amounts from the ruleset.

Display configuration only; the engine decides everything about the round.
"""

from __future__ import annotations

from decimal import Decimal

from casino.field_words import wager_label
from tables.games import BLACKJACK_TIE, GAMES, HOLDEM_BLACKJACK, POKER_OR_BUST, UPCARD_LUCK_21
from tables.games.blackjack import ante_up_21 as aup
from tables.games.vocabulary.catalogue import (
    ANTE,
    INSURANCE,
    ODDS,
    TAXPAYERS_FORTUNE,
    TIE_WAGERS,
    UPCARD_LUCK,
    W21,
)

_STEPS = (Decimal("1"), Decimal("2"), Decimal("5"), Decimal("10"), Decimal("20"), Decimal("50"))


def quick_amounts(low: Decimal, high: Decimal, most: int = 6) -> list[str]:
    """The table minimum, round multiples of it below the maximum, and the maximum."""
    amounts = sorted({low, high} | {low * step for step in _STEPS if low * step < high})
    if len(amounts) > most:
        amounts = [*amounts[: most - 1], high]
    return [f"{a:.2f}" for a in amounts]


def _wager(
    key: str,
    amounts: list[str],
    *,
    required: bool = False,
    mirror: str | None = None,
    fixed: str | None = None,
) -> dict:
    return {
        "key": key,
        "label": wager_label(key),
        "amounts": [fixed] if fixed else amounts,
        "required": required,
        "mirror": mirror,
    }


def entry_config(table, version) -> dict:
    """The JSON the page's script starts from (``json_script`` in the template)."""
    game = table.game
    rules = version.rules()
    main = quick_amounts(table.min_bet, table.max_bet)
    side = quick_amounts(Decimal("1.00"), max(Decimal("1.00"), table.max_bet / 5))
    config = {
        "game": game,
        "game_name": GAMES[game].name,
        "table": table.label,
        "seats": table.seats,
        "min_bet": f"{table.min_bet:.2f}",
        "max_bet": f"{table.max_bet:.2f}",
    }
    if game == HOLDEM_BLACKJACK:
        bb = rules.big_blind
        config.update(
            family="holdem",
            seats=min(table.seats, rules.max_seats),
            stacks=quick_amounts(bb * 10, max(bb * 10, table.max_bet)),
            big_blind=f"{bb:.2f}",
        )
        return config
    if game == POKER_OR_BUST:
        config.update(
            family="poker_or_bust",
            wagers=[
                _wager(ANTE, main, required=True),
                _wager(ODDS, main, required=True, mirror=ANTE),
            ],
        )
        return config
    wagers = [_wager(W21, main, required=True)]
    if game == BLACKJACK_TIE:
        wagers += [
            _wager(TIE_WAGERS[b], side)
            for b in ("LS", "RS", "17", "18", "19", "20", "21", "blackjack")
        ]
    elif game == UPCARD_LUCK_21:
        wagers.append(_wager(UPCARD_LUCK, main))
        if rules.taxpayers_fortune:
            wagers.append(
                _wager(TAXPAYERS_FORTUNE, [], fixed=f"{rules.taxpayers_fortune_marker:.2f}")
            )
    else:  # Ante Up 21
        wagers += [
            _wager(aup.ANTE, main),
            _wager(aup.BET, main, mirror=aup.ANTE),
            _wager(aup.POKER_BONUS, [], fixed=f"{rules.poker_bonus_amount:.2f}"),
        ]
    if rules.insurance:
        wagers.append(_wager(INSURANCE, side))
    config.update(family="blackjack", wagers=wagers)
    return config
