"""Pearson's r between the true count and a player's bet, with its 95% interval (Fisher z).

Standard library only; floats for the statistic, Decimal for the money it is computed from.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from statistics import NormalDist

#: The two-sided 95% normal quantile (1.959963...).
Z95 = NormalDist().inv_cdf(0.975)
#: Fisher's interval needs n - 3 >= 1.
MIN_ROUNDS_FOR_INTERVAL = 4


@dataclass(frozen=True, slots=True)
class Correlation:
    r: float
    low: float
    high: float


class NoVariation(ValueError):
    """One of the two series never moved: r does not exist."""

    def __init__(self, which: str):
        super().__init__(which)
        self.which = which  # "bet" or "count"


def correlation_interval(counts: list[float], bets: list[float]) -> Correlation | None:
    """r with its 95% interval; None below :data:`MIN_ROUNDS_FOR_INTERVAL` pairs.

    Raises :class:`NoVariation` when the bets (a flat bettor) or the counts never changed.
    """
    n = len(counts)
    if n < MIN_ROUNDS_FOR_INTERVAL:
        return None
    if len(set(bets)) == 1:
        raise NoVariation("bet")
    if len(set(counts)) == 1:
        raise NoVariation("count")
    r = max(-1.0, min(1.0, statistics.correlation(counts, bets)))
    if abs(r) == 1.0:
        return Correlation(r, r, r)  # a perfect line: the interval closes on it
    z, half = math.atanh(r), Z95 / math.sqrt(n - 3)
    return Correlation(r, math.tanh(z - half), math.tanh(z + half))
