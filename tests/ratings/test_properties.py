"""Properties of the day's time on game: play at two tables at once is counted once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from audit.ratings.writer import covered_seconds as _covered_seconds

T0 = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
intervals = st.lists(st.tuples(st.integers(0, 600), st.integers(0, 120)), max_size=8).map(
    lambda pairs: [(T0 + timedelta(minutes=a), T0 + timedelta(minutes=a + n)) for a, n in pairs])


@given(intervals)
def test_union_is_between_the_longest_and_the_sum(spans):
    covered = _covered_seconds(spans)
    lengths = [int((end - start).total_seconds()) for start, end in spans]
    assert max(lengths, default=0) <= covered <= sum(lengths)
    # Minute by minute: a minute counts when some interval holds it.
    minutes = {m for start, end in spans for m in range(int((start - T0).total_seconds() // 60),
                                                        int((end - T0).total_seconds() // 60))}
    assert covered == 60 * len(minutes)


@given(intervals)
def test_order_does_not_matter(spans):
    assert _covered_seconds(spans) == _covered_seconds(list(reversed(spans)))
