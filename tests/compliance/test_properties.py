"""Properties of the aggregation, over any day of transactions: a patron is on the MTL exactly
when one direction's total is strictly over the threshold; a split flag exactly when the total is
over a threshold, no place-and-shift alone is, and there is more than one."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from decimal import Decimal as D

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.compliance.models import CASH_IN, CASH_OUT, ComplianceSettings
from audit.compliance.selectors import Txn, mtl, structuring_flags
from tests.compliance.helpers import DAY
from tests.examples import examples
from tests.factories import CasinoFactory

START = datetime(2026, 3, 10, 11, 0, tzinfo=UTC)
TXN = st.tuples(st.sampled_from(["A", "B"]), st.sampled_from([CASH_IN, CASH_OUT]),
                st.integers(min_value=1, max_value=700_000).map(lambda cents: D(cents) / 100),
                st.sampled_from(["BJ-1", "BJ-2", "cage"]), st.integers(min_value=1, max_value=3))


def _txns(rows) -> list[Txn]:
    return [Txn("buy-in" if d == CASH_IN else "cash-out", i, d, amount, who, place, None,
                START + timedelta(hours=8 * (shift - 1), minutes=i), shift)
            for i, (who, d, amount, place, shift) in enumerate(rows)]


@pytest.mark.django_db
@settings(max_examples=examples(240, 20), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(TXN, max_size=8))
def test_on_the_mtl_exactly_when_one_direction_is_over(rows):
    casino, rules = CasinoFactory(), ComplianceSettings()
    txns = _txns(rows)
    totals = defaultdict(D)
    for who, d, amount, _p, _s in rows:
        totals[(who, d)] += amount
    expected = sorted({who for (who, _d), total in totals.items() if total > rules.mtl_threshold})
    logged = mtl(casino, DAY, txns=txns, rules=rules)
    assert [p.identifier for p in logged] == expected
    for patron in logged:
        assert patron.cash_in == totals[(patron.identifier, CASH_IN)]
        assert patron.cash_out == totals[(patron.identifier, CASH_OUT)]
        assert len(patron.transactions) == sum(1 for r in rows if r[0] == patron.identifier)


@settings(max_examples=100, deadline=None)
@given(rows=st.lists(TXN, max_size=8))
def test_split_exactly_when_only_the_sum_passes(rows):
    rules = ComplianceSettings()
    flags = {(f.identifier, f.direction, f.threshold) for f in structuring_flags(None, DAY, txns=_txns(rows), rules=rules)
             if f.kind == "split"}
    groups = defaultdict(lambda: defaultdict(D))
    for who, d, amount, place, shift in rows:
        groups[(who, d)][(place, shift)] += amount
    for (who, d), by_place in groups.items():
        for name, limit in (("MTL", rules.mtl_threshold), ("CTR", rules.ctr_threshold)):
            split = sum(by_place.values()) > limit and len(by_place) > 1 and max(by_place.values()) <= limit
            assert ((who, d, name) in flags) is split
