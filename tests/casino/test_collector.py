"""The cycle collector paused around batch work and the long-lived tables frozen out of its reach
(casino/collector.py), and the pricing task that pauses it (the report's slice:
tests/reports/test_slice_collector.py)."""

from __future__ import annotations

import gc

import pytest

from casino.collector import collector_paused, freeze_long_lived


@pytest.fixture(autouse=True)
def _collector_restored():
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    (gc.enable if enabled else gc.disable)()


def test_the_collector_is_paused_inside_and_restored_after_also_on_error_and_when_nested():
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled(), "the inner block does not switch it on under the outer one"
    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("a batch that fails")
    assert gc.isenabled()
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled(), "a collector paused before stays paused"


def test_freezing_moves_what_lives_now_out_of_the_collectors_generations():
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    tables = [{"state": i} for i in range(1000)]
    assert freeze_long_lived() == gc.get_freeze_count() >= len(tables)


def test_the_pricing_task_prices_each_batch_with_the_collector_paused(monkeypatch):
    from audit.decisions import tasks

    seen = []
    batches = iter([3, 0])
    monkeypatch.setattr(tasks, "price_pending", lambda: seen.append(gc.isenabled()) or next(batches))
    gc.enable()
    assert tasks.price_pending_task() == 3
    assert seen == [False, False] and gc.isenabled()
