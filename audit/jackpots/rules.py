"""The posting rules, written once: the services post with them, the recomputation
(reconcile.py) replays with them. Pure functions of balances: no query, no write.

Legs are ``{(account kind, line): debit-positive amount}``; balances are natural-sign
(a liability's balance is what it owes). See README.md, "Postings" and "Voids and
corrections".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import ROUND_DOWN, Decimal

from audit.jackpots.models import LedgerAccount

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
METER, RESERVE, HOUSE = LedgerAccount.METER, LedgerAccount.RESERVE, LedgerAccount.HOUSE_FUNDING
PAYABLE, TAX_REVENUE = LedgerAccount.PAYABLE, LedgerAccount.TAX_REVENUE
Key = tuple[str, str]


def apply(balance: dict[Key, Decimal], legs) -> None:
    """Move natural-sign ``balance`` by debit-positive ``legs``."""
    for key, amount in legs:
        balance[key] += -amount if key[0] in LedgerAccount.CREDIT_NORMAL else amount


def cents(amount: Decimal) -> Decimal:
    """Shares of a tax are cut down to the cent; the fraction stays with the house."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_DOWN)


def floor_of(config) -> Decimal:
    """What a line's meter may never go below: its reset value, 0 for a fixed line."""
    return config.reset if config is not None and config.progressive else ZERO


def contribution_legs(tax: Decimal, line: str, config, meter: Decimal) -> list[tuple[Key, Decimal]]:
    """A progressive line's share of a round's tax: the increment goes to the meter up to the
    cap, the hidden share and any increment above the cap to the line's reserve (still
    players' money; it funds the next reset)."""
    increment, hidden = cents(tax * config.increment_rate), cents(tax * config.hidden_rate)
    to_meter = increment
    if config.cap is not None:
        to_meter = min(increment, max(config.cap - meter, ZERO))
    return [
        ((TAX_REVENUE, ""), increment + hidden),
        ((METER, line), -to_meter),
        ((RESERVE, line), -(hidden + increment - to_meter)),
    ]


def top_up_legs(line: str, floor: Decimal, meter: Decimal, reserve: Decimal) -> list[tuple[Key, Decimal]]:
    """Bring a meter up to ``floor``: from the line's hidden reserve first, the house pays
    the rest. Nothing when the meter is already there."""
    short = floor - meter
    if short <= 0:
        return []
    from_reserve = min(short, max(reserve, ZERO))
    return [((RESERVE, line), from_reserve), ((HOUSE, ""), short - from_reserve), ((METER, line), -short)]


def hit_legs(line: str, amount: Decimal, meter: Decimal, *, first: bool, progressive: bool) -> list[tuple[Key, Decimal]]:
    """An award moves to the payable: the first winner of a progressive line in a round is
    paid from the meter (the house covers a shortfall); everyone else by the house."""
    from_meter = min(amount, max(meter, ZERO)) if progressive and first else ZERO
    return [((METER, line), from_meter), ((HOUSE, ""), amount - from_meter), ((PAYABLE, ""), -amount)]


def reversal_legs(
    legs: Mapping[Key, Decimal],
    *,
    balance: Mapping[Key, Decimal],
    floor: Callable[[str], Decimal],
    paid_out: Callable[[str], bool],
) -> list[tuple[Key, Decimal]]:
    """Undo a posting without taking money a meter or reserve no longer holds.

    Every leg is negated, except that taking money back out of a meter or a reserve is
    limited to what it holds above its floor (a meter's reset, a reserve's zero), and to
    nothing from a meter whose line has since been won (``paid_out(line)``: a hit posted
    after the original and still standing paid that money out with the award). The house
    funding account bears whatever the meter or reserve cannot give back.
    """
    out: list[tuple[Key, Decimal]] = []
    house = ZERO
    for (kind, line), amount in legs.items():
        back = -amount
        if back > 0 and kind in (METER, RESERVE):
            if kind == METER and paid_out(line):
                available = ZERO
            else:
                available = max(balance[(kind, line)] - (floor(line) if kind == METER else ZERO), ZERO)
            taken = min(back, available)
            house += back - taken
            back = taken
        out.append(((kind, line), back))
    out.append(((HOUSE, ""), house))
    return out


def tax_legs(tax: Decimal) -> list[tuple[Key, Decimal]]:
    return [((LedgerAccount.CASH, ""), tax), ((TAX_REVENUE, ""), -tax)]


def payment_legs(amount: Decimal) -> list[tuple[Key, Decimal]]:
    """Withholding is cash the cage keeps for the IRS: the full award leaves the payable."""
    return [((PAYABLE, ""), amount), ((LedgerAccount.CASH, ""), -amount)]


def adjustment_legs(target: str, line: str, amount: Decimal) -> list[tuple[Key, Decimal]]:
    """A reduction (negative) releases liability to the house; an increase is house money."""
    other = LedgerAccount.RELEASED if amount < 0 else HOUSE
    return [((target, line), -amount), ((other, ""), amount)]
