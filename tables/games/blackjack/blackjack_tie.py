"""Blackjack Tie (rules/blackjack-tie.txt): blackjack with bonus wagers on a tie with the dealer.

Wagers (keys of a seat's ``wagers``): ``21`` (the primary wager, required), ``insurance``,
and the tie bonuses ``tie_LS`` (17, 18, 19), ``tie_RS`` (20, 21, blackjack), ``tie_17``,
``tie_18``, ``tie_19``, ``tie_20``, ``tie_21`` (non-natural 21) and ``tie_blackjack``.
The round's JSON form is the shared blackjack form of :mod:`tables.games.blackjack.audit`.

A tie is an exact final match between the player's FIRST hand and the dealer: a natural
ties only a natural, a non-natural 21 (split Aces + ten included) only a non-natural 21, a
busted hand never ties. On a tie the primary wager pushes (the shared 21 settlement).

Ruling made here: a tie bonus keeps the dealer drawing only while it can still win, i.e.
the first hand stands on 17 to 21 (not a natural) and a bonus covering that total is on the
layout. A first hand of 16 or less cannot tie a dealer who follows the rules.
"""

from __future__ import annotations

from decimal import Decimal

from ..settings.paytables import TIE_BETS
from ..vocabulary.base import LOSE, RULE_VIOLATION, WIN, AuditContext, Finding, Settlement
from ..vocabulary.base import recorded_nets as recorded_nets
from ..vocabulary.catalogue import (
    BLACKJACK_TIE,
    RULE_BONUS_TOTAL,
    TIE_BONUSES_ABOVE_PRIMARY,
    TIE_WAGERS,
)
from ..vocabulary.money import ZERO, money_text, odds_text
from . import audit as bj

make_settlement = bj.make_settlement

WAGERS = tuple(TIE_WAGERS[b] for b in TIE_BETS)
BONUS_OF_WAGER = {TIE_WAGERS[b]: b for b in TIE_BETS}

FINDING_CODES = (TIE_BONUSES_ABOVE_PRIMARY,)

#: Which tie (by its name) each bonus wins on.
WINS_ON = {
    "LS": frozenset({"17", "18", "19"}),
    "RS": frozenset({"20", "21", "blackjack"}),
    **{b: frozenset({b}) for b in ("17", "18", "19", "20", "21", "blackjack")},
}
_TIE_NAMES = {"17": "17", "18": "18", "19": "19", "20": "20", "21": "21", "blackjack": "blackjack"}


def tie_of(hand: bj.Hand, dealer: bj.Dealer) -> str | None:
    """The tie's name ("17".."21", "blackjack") between a first hand and the dealer, or None."""
    if hand.busted or dealer.busted:
        return None
    if hand.natural or dealer.natural:
        return "blackjack" if hand.natural and dealer.natural else None
    if hand.total == dealer.total and hand.total >= 17:
        return str(hand.total)
    return None


def _rule_findings(seat: bj.Seat, rules) -> list[Finding]:
    total = ZERO
    for key, amount in seat.wagers.items():
        if key in BONUS_OF_WAGER:
            total += amount
    primary = seat.wagers[bj.W21]
    if total > primary:
        return [
            Finding(
                TIE_BONUSES_ABOVE_PRIMARY,
                RULE_VIOLATION,
                f"Seat {seat.seat} tie bonuses total {money_text(total)}, above the primary wager "
                f"{money_text(primary)}.",
                f"seats[{seat.index}].wagers",
                RULE_BONUS_TOTAL,
                f"at most {money_text(primary)}",
                money_text(total),
                total - primary,
                seat.seat,
            )
        ]
    return []


def _side_live(seat: bj.Seat, upcard: int, rules) -> Decimal:
    h = seat.hands[0]
    if h.busted or h.natural or h.total < 17:
        return ZERO
    name = str(h.total)
    live = ZERO
    for key, amount in seat.wagers.items():
        bonus = BONUS_OF_WAGER.get(key)
        if bonus is not None and name in WINS_ON[bonus]:
            live += amount
    return live


def _settle(
    seat: bj.Seat, dealer: bj.Dealer, rules, context: AuditContext | None, out: list[Settlement]
) -> None:
    """This game's tie bonuses settled, in the card's order: the one definition (the audit
    reaches it through the game's hooks)."""
    h = seat.hands[0]
    tie = tie_of(h, dealer)
    # A losing bonus names both hands when there is no tie.
    mine = None if tie is not None else "bust" if h.busted else "blackjack" if h.natural else str(h.total)
    dealer_text = None if tie is not None else dealer.text
    w = seat.wagers
    for key in WAGERS:
        amount = w.get(key)
        if amount is not None:
            out.append(_settle_bonus(seat.seat, key, amount, tie, mine, dealer_text, rules))


def _settle_bonus(
    number: int,
    key: str,
    amount: Decimal,
    tie: str | None,
    mine: str | None,
    dealer_text: str | None,
    rules,
) -> Settlement:
    bonus = BONUS_OF_WAGER[key]
    if tie is not None and tie in WINS_ON[bonus]:
        odds = rules.tie_paytable[bonus]
        return make_settlement(
            number,
            key,
            amount,
            bj.pay_odds(amount, odds, rules),
            WIN,
            f"player and dealer tie on {_TIE_NAMES[tie]}; {bonus} bonus pays {odds_text(odds)}",
        )
    why = (f"tie on {_TIE_NAMES[tie]} is not covered by the {bonus} bonus; loses" if tie is not None
           else f"no tie (first hand {mine}, dealer {dealer_text}); {bonus} bonus loses")
    return make_settlement(number, key, amount, -amount, LOSE, why)


SPEC = bj.GameSpec(key=BLACKJACK_TIE, wagers=WAGERS, rule_findings=_rule_findings, side_live=_side_live,
                   settle=_settle)


parse_round, audit, round_to_dict, simulate_round = bj.contract(SPEC)
