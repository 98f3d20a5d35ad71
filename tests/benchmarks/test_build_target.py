"""The engine benches hold each build of the engine to its own target (issue #18): before,
a plain-Python run was held to the compiled figure and the plain targets went unchecked."""

from unittest import mock

import pytest

from tests.benchmarks import bench_blackjack_games, bench_poker_or_bust, build_target


def test_each_build_is_held_to_its_own_target_and_a_mixed_build_to_the_compiled_one():
    targets = {"compiled": 20_000, "python": 12_000}
    with mock.patch("tables.games.engine_build", return_value="python"):
        assert build_target(targets) == 12_000
    with mock.patch("tables.games.engine_build", return_value="compiled"):
        assert build_target(targets) == 20_000
    with mock.patch("tables.games.engine_build", return_value="mixed"):
        assert build_target(targets) == 20_000


@pytest.mark.parametrize(
    ("build", "rate", "exit_status"),
    [
        ("python", 15_000, 0),  # above the plain 12,000
        ("python", 11_000, 1),
        ("compiled", 15_000, 1),  # below the compiled 20,000
        ("compiled", 21_000, 0),
    ],
)
def test_a_bench_passes_or_fails_by_the_target_of_the_build_that_ran(build, rate, exit_status):
    """The benches' own pass/fail, with the measured rate and the build stood in for."""
    with mock.patch("tables.games.engine_build", return_value=build):
        with mock.patch.object(bench_poker_or_bust, "bench", return_value=rate):
            assert bench_poker_or_bust.main(["--rounds", "1"]) == exit_status
        with (
            mock.patch.object(bench_blackjack_games, "simulate", return_value=[]),
            mock.patch.object(bench_blackjack_games, "bench", return_value=rate),
        ):
            assert bench_blackjack_games.main(["--rounds", "1", "--game", "ante_up_21"]) == exit_status
