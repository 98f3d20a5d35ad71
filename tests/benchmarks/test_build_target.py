"""The engine benches hold each build of the engine to its own target (issue #18)."""

from unittest import mock

from tests.benchmarks import (
    bench_blackjack_games,
    bench_holdem_blackjack,
    bench_poker_or_bust,
    build_target,
)


def test_each_build_is_held_to_its_own_target_and_a_mixed_build_to_the_compiled_one():
    targets = {"compiled": 20_000, "python": 12_000}
    with mock.patch("tables.games.engine_build", return_value="python"):
        assert build_target(targets) == 12_000
    with mock.patch("tables.games.engine_build", return_value="compiled"):
        assert build_target(targets) == 20_000
    with mock.patch("tables.games.engine_build", return_value="mixed"):
        assert build_target(targets) == 20_000


def test_the_engine_benches_carry_the_issues_targets():
    assert bench_blackjack_games.TARGETS == {"compiled": 20_000, "python": 12_000}
    assert bench_poker_or_bust.TARGETS == {"compiled": 20_000, "python": 12_000}
    assert bench_holdem_blackjack.TARGETS == {"compiled": 10_000, "python": 9_000}
