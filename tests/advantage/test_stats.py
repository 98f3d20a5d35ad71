"""Pearson r and its Fisher-z interval, against figures worked by hand."""

from __future__ import annotations

import math

import pytest

from audit.advantage.stats import NoVariation, correlation_interval


def test_interval_matches_fisher_z_worked_by_hand():
    counts = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    bets = [10.0, 10.0, 25.0, 25.0, 50.0, 50.0, 40.0]
    corr = correlation_interval(counts, bets)
    # r by the textbook formula.
    mx, my = sum(counts) / 7, sum(bets) / 7
    sxy = sum((x - mx) * (y - my) for x, y in zip(counts, bets, strict=True))
    r = sxy / math.sqrt(sum((x - mx) ** 2 for x in counts) * sum((y - my) ** 2 for y in bets))
    assert corr.r == pytest.approx(r)
    # z = atanh(r), se = 1/sqrt(n - 3) = 0.5; 95%: z -/+ 1.959964 * 0.5.
    z = math.atanh(r)
    assert corr.low == pytest.approx(math.tanh(z - 0.979982), abs=1e-6)
    assert corr.high == pytest.approx(math.tanh(z + 0.979982), abs=1e-6)
    assert corr.low < corr.r < corr.high


def test_too_few_rounds_and_no_variation():
    assert correlation_interval([0.0, 1.0, 2.0], [10.0, 20.0, 30.0]) is None
    with pytest.raises(NoVariation) as flat:
        correlation_interval([0.0, 1.0, 2.0, 3.0], [25.0] * 4)
    assert flat.value.which == "bet"
    with pytest.raises(NoVariation) as still:
        correlation_interval([0.0] * 4, [10.0, 20.0, 30.0, 40.0])
    assert still.value.which == "count"


def test_a_perfect_line_closes_the_interval():
    corr = correlation_interval([0.0, 1.0, 2.0, 3.0], [10.0, 20.0, 30.0, 40.0])
    assert corr.r == corr.low == corr.high == pytest.approx(1.0)
