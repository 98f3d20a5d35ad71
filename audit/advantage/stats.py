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


# --- the play signals (plays.py) ----------------------------------------------------------------


def one_sided_z(alpha: float) -> float:
    """The z a one-sided test at level ``alpha`` flags above (3.719 at 0.0001)."""
    return NormalDist().inv_cdf(1.0 - alpha)


#: Beyond this many trials the Poisson-binomial tail is taken from the normal curve (the exact
#: sum is O(n^2)); a player's day has tens of deviations, a heavy one a few hundred.
EXACT_TAIL_LIMIT = 400


def poisson_binomial_tail(chances: list[float], observed: int) -> float:
    """P(S >= ``observed``), S the number of successes of independent trials of ``chances``:
    exact up to :data:`EXACT_TAIL_LIMIT` trials, beyond that the normal curve with a continuity
    correction."""
    if observed <= 0:
        return 1.0
    n = len(chances)
    if observed > n:
        return 0.0
    if n > EXACT_TAIL_LIMIT:
        mean = sum(chances)
        var = sum(p * (1 - p) for p in chances)
        if var <= 0:
            return 1.0 if observed <= mean else 0.0
        return 1.0 - NormalDist(mean, math.sqrt(var)).cdf(observed - 0.5)
    dist = [1.0] + [0.0] * n  # dist[k] = P(k successes so far)
    for i, p in enumerate(chances, start=1):
        q = 1.0 - p
        for k in range(i, 0, -1):
            dist[k] = dist[k] * q + dist[k - 1] * p
        dist[0] *= q
    return min(1.0, max(0.0, sum(dist[observed:])))


@dataclass(frozen=True, slots=True)
class StratifiedCorrelation:
    """Within-stratum association of x and y: ``t`` = sum over strata of sum (x - mean_x) y,
    ``var`` its variance when y is shuffled among the items of each stratum (the permutation
    null), ``z`` = t / sqrt(var), ``r`` the pooled within-stratum correlation, ``items`` the
    items of strata where both x and y vary (the ones that carry information)."""

    t: float
    var: float
    z: float | None
    r: float | None
    items: int


def stratified_correlation(strata: list[list[tuple[float, float]]]) -> StratifiedCorrelation:
    """x against y within each stratum (lists of (x, y)), pooled; a stratum where x or y never
    moves adds nothing (a player who plays one situation always alike is never flagged by it)."""
    t = var = ssx_all = ssy_all = 0.0
    items = 0
    for pairs in strata:
        n = len(pairs)
        if n < 2:
            continue
        mx = sum(x for x, _ in pairs) / n
        my = sum(y for _, y in pairs) / n
        ssx = sum((x - mx) ** 2 for x, _ in pairs)
        ssy = sum((y - my) ** 2 for _, y in pairs)
        if ssx <= 1e-12 or ssy <= 1e-12:
            continue
        t += sum((x - mx) * y for x, y in pairs)
        var += ssx * ssy / (n - 1)
        ssx_all += ssx
        ssy_all += ssy
        items += n
    if var <= 0:
        return StratifiedCorrelation(0.0, 0.0, None, None, 0)
    return StratifiedCorrelation(t, var, t / math.sqrt(var), t / math.sqrt(ssx_all * ssy_all), items)
