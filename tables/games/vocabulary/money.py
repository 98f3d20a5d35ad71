"""Exact money for the engine: Decimal only, never float."""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0")

ROUNDING_DOWN = "down"
ROUNDING_NEAREST = "nearest"
ROUNDING_DIRECTIONS = (ROUNDING_DOWN, ROUNDING_NEAREST)


class MoneyError(ValueError):
    pass


#: The largest amount the books hold: 12 digits before the point and 2 after, the size of
#: every money column (a wager, a pay, a ledger leg). Anything larger is not an amount.
MAX_AMOUNT = Decimal("999999999999.99")
# Plain decimal text: no exponent ("1e3"), no NaN or Infinity, no spaces or underscores inside.
_AMOUNT_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def to_money(value: object) -> Decimal:
    """Parse an amount from JSON (string, int or Decimal) into cents-exact Decimal.

    Floats are refused: ``0.1 + 0.2`` is how casinos lose pennies by the million. So are
    exponents, NaN and infinities, fractions of a cent, and amounts beyond
    :data:`MAX_AMOUNT`: each is a field error, never an arithmetic or database failure.
    """
    if isinstance(value, bool) or value is None:
        raise MoneyError(f"{value!r} is not an amount")
    if isinstance(value, float):
        raise MoneyError(f"{value!r} is a float; send amounts as strings such as \"12.50\"")
    if isinstance(value, Decimal):
        amount = value
    elif isinstance(value, int):
        amount = Decimal(value)
    else:
        text = str(value).strip()
        if not _AMOUNT_TEXT.fullmatch(text):
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise MoneyError(f'"{shown}" is not an amount; write it as plain decimals such as "12.50"')
        amount = Decimal(text)
    if not amount.is_finite():
        raise MoneyError(f'"{value}" is not an amount')
    if abs(amount) > MAX_AMOUNT:
        raise MoneyError(f"is more than {MAX_AMOUNT:,}, the largest amount the books hold")
    if amount != amount.quantize(CENT, rounding=ROUND_DOWN):
        raise MoneyError(f'"{value}" has fractions of a cent')
    return amount.quantize(CENT)


def money_text(amount: Decimal) -> str:
    """Canonical text of an amount: ``"12.50"``, ``"-5.00"``."""
    return str(amount.quantize(CENT))


def round_pay(amount: Decimal, unit: Decimal = CENT, direction: str = ROUNDING_DOWN) -> Decimal:
    """Round a computed pay (e.g. 3:2 on an odd bet) to the ruleset's unit.

    ``down`` never pays more than the exact amount; ``nearest`` rounds half up.
    The result is always a whole number of cents.
    """
    if unit <= 0:
        raise ValueError("rounding unit must be positive")
    steps = amount / unit
    mode = ROUND_DOWN if direction == ROUNDING_DOWN else ROUND_HALF_UP
    return (steps.quantize(Decimal(1), rounding=mode) * unit).quantize(CENT, rounding=ROUND_DOWN)


def pays(stake: Decimal, odds: Decimal, unit: Decimal = CENT, direction: str = ROUNDING_DOWN) -> Decimal:
    """What "pays ``odds`` to 1" gives on ``stake`` (the stake itself is kept, not counted)."""
    return round_pay(stake * odds, unit, direction)


def odds_text(odds: Decimal) -> str:
    """``Decimal("1.5")`` -> ``"3 to 2"``; ``Decimal(25)`` -> ``"25 to 1"``."""
    if odds == odds.to_integral_value():
        return f"{int(odds)} to 1"
    num, den = odds.as_integer_ratio()
    return f"{num} to {den}"
