"""The casino's fluctuation bounds as rules: does a period's hold fall outside them?

Each rule answers ``Breach`` (the hold, the bound it crossed, why) or ``None`` (inside, or
nothing to compare with: a rule never opens an investigation on a figure that is unknown).

- prior-year interval (Maryland COMAR 36.05.03.25): the month's hold outside
  prior year's hold +/- z x 100 x sd / drop, where sd is the month's win standard deviation
  (square root of the summed variances of the final reports' table days) and drop the month's
  drop: the spread of a hold % that luck alone gives a month of this much play;
- monthly swing (Kansas K.A.R. 112-108-51): |hold - previous month's hold| > the swing points;
- band (Ohio OAC 3772-11-43 review, or a house policy): hold < band min or hold > band max.

A hold exactly on a bound is inside. Maryland's interval needs the month's spread: without a
final report's theoretical sd for the month it is not applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from .models import RULE_BAND, RULE_PRIOR_YEAR, RULE_SWING

_PCT = Decimal("0.0001")


@dataclass(frozen=True)
class Breach:
    rule: str
    drop_hold_pct: Decimal
    low: Decimal | None
    high: Decimal | None
    compared_with: Decimal | None
    why: str


def _q(value: Decimal) -> Decimal:
    return value.quantize(_PCT, rounding=ROUND_HALF_UP)


def prior_year_interval(hold: Decimal | None, prior_hold: Decimal | None, sd: Decimal, drop: Decimal | None,
                        z: Decimal) -> Breach | None:
    # No spread (no final report's theoretical sd for the month) leaves no interval to be outside
    # of: a zero width would call every hold that differs by a cent a fluctuation.
    if hold is None or prior_hold is None or not drop or drop <= 0 or sd <= 0:
        return None
    half = _q(z * 100 * sd / drop)
    low, high = prior_hold - half, prior_hold + half
    if low <= hold <= high:
        return None
    return Breach(RULE_PRIOR_YEAR, hold, low, high, prior_hold,
                  f"hold {hold:.2f}% is outside {low:.2f}% to {high:.2f}% (prior year's {prior_hold:.2f}% "
                  f"+/- {z} x sd {sd:,.2f} / drop {drop:,.2f})")


def monthly_swing(hold: Decimal | None, previous_hold: Decimal | None, points: Decimal) -> Breach | None:
    if hold is None or previous_hold is None:
        return None
    if abs(hold - previous_hold) <= points:
        return None
    return Breach(RULE_SWING, hold, previous_hold - points, previous_hold + points, previous_hold,
                  f"hold {hold:.2f}% moved {hold - previous_hold:+.2f} points from the previous month's "
                  f"{previous_hold:.2f}% (more than {points} points)")


def band(hold: Decimal | None, low: Decimal | None, high: Decimal | None) -> Breach | None:
    if hold is None or low is None or high is None or low <= hold <= high:
        return None
    return Breach(RULE_BAND, hold, low, high, None, f"hold {hold:.2f}% is outside the band {low:.2f}% to {high:.2f}%")
