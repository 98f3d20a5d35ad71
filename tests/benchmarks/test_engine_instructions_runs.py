"""The instruction counter (tests/benchmarks/engine_instructions.py) counts what it says:
the same rounds give the same count to the instruction, and only the parse + audit loop is
counted (twice the rounds, about twice the count; the memos' warming and the rounds'
simulation are left out). Small runs under valgrind: a minute or so."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from tests.benchmarks.engine_instructions import ROOT

pytestmark = pytest.mark.skipif(
    shutil.which("valgrind") is None or shutil.which("gcc") is None,
    reason="needs valgrind and gcc (Debian's valgrind and gcc packages)",
)


def _count(tmp_path, rounds: int) -> int:
    done = subprocess.run(
        [sys.executable, "tests/benchmarks/engine_instructions.py", "--game", "blackjack_tie",
         "--engine", "python", "--rounds", str(rounds), "--warm", "20", "--data", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    found = re.search(r"blackjack_tie: ([\d,]+) instructions for (\d+) rounds", done.stdout)
    assert found, done.stdout
    assert int(found.group(2)) == rounds
    return int(found.group(1).replace(",", ""))


def test_the_count_repeats_and_covers_the_loop_only(tmp_path):
    ten = _count(tmp_path, 10)
    assert _count(tmp_path, 10) == ten  # the same rounds, read back from --data
    twenty = _count(tmp_path, 20)
    # the first ten rounds are the same (seed 1); the count grows with the loop alone: a
    # counted warm-up (20 rounds) or start-up (millions of instructions) would break this
    assert 1.5 * ten < twenty < 2.5 * ten
