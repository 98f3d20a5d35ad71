"""Machine instructions the engine spends per round: parse + audit, counted by valgrind.

    .venv/bin/python tests/benchmarks/engine_instructions.py --game holdem_blackjack
        [--rounds 500] [--engine compiled|python] [--data DIR] [--tree PATH]

Why it exists: the shared VMs the engine is benched on drift by a third within minutes, so
rounds a second taken at different times do not compare, and the engine's targets (issue
#18) are relative to the code they were set on. ``callgrind`` counts the instructions a
run executes instead of timing it: the same binary, inputs and environment give the same
count to the instruction, whatever else the machine is doing, so two trees measured on the
same rounds compare exactly. Instructions are not time (a cache miss costs more than an
add), but the ratio between two builds of the same Python code follows their time ratio.

What is counted: ``audit(parse_round(data))`` over ``--rounds`` rounds, after the
ruleset's memos were warmed on 2,000 other rounds (seed 2; ``--warm``), as a long bench or a worker
has them. Only that loop is counted: a 20-line C helper, compiled with gcc on first use
into ``var/``, issues callgrind's client requests around it.

The rounds are made by this checkout's simulators before valgrind starts and read back as
JSON text by the counted process. ``--data DIR`` keeps them (``DIR/<game>_<seed>_<n>.json``),
so another tree (``--tree``, e.g. a worktree of an older commit with its engine built)
replays the very same rounds through its own engine. Needs
valgrind (Debian's ``valgrind`` package) and gcc.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a script; counted() puts the tree measured before it
WARM_ROUNDS = 2_000
_HELPER_C = """#include <valgrind/callgrind.h>
void count_start(void) { CALLGRIND_TOGGLE_COLLECT; }
void count_stop(void) { CALLGRIND_TOGGLE_COLLECT; }
"""


def _helper() -> Path:
    """The shared object whose two functions switch callgrind's counting on and off."""
    out = ROOT / "var" / "callgrind_toggle.so"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "toggle.c"
            src.write_text(_HELPER_C)
            subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(out), str(src)], check=True)
    return out


def _round_file(data: Path, game: str, seed: int, count: int) -> Path:
    """The file of ``count`` rounds of ``game`` dealt from ``seed``, made by this checkout's
    simulator (outside valgrind) unless ``data`` holds it already."""
    path = data / f"{game}_{seed}_{count}.json"
    if not path.exists():
        from tables.games import GAMES
        from tests.benchmarks import (
            bench_blackjack_games,
            bench_holdem_blackjack,
            bench_poker_or_bust,
        )

        # as many seats as the game's engine bench deals
        bench = {"holdem_blackjack": bench_holdem_blackjack, "poker_or_bust": bench_poker_or_bust}
        g = GAMES[game]
        rules = g.default_rules()
        rng = random.Random(seed)
        seats = bench.get(game, bench_blackjack_games).SEATS
        rounds = [g.module.simulate_round(rng, rules, seats=seats) for _ in range(count)]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rounds))
    return path


def counted(args: argparse.Namespace) -> None:
    """Run under callgrind: warm the memos, then count the parse + audit loop only."""
    tree = Path(args.tree).resolve()
    sys.path.insert(0, str(tree))
    from tables.games import GAMES

    g = GAMES[args.game]
    module, rules = g.module, g.default_rules()
    parse, audit = module.parse_round, module.audit
    # Read from JSON text, as the API receives a round: the counted process does the same
    # steps before the loop every time (rounds simulated in it would leave its memory and
    # the memo keys' string objects otherwise, and the count would move).
    data = Path(args.data)
    rounds = json.loads(_round_file(data, args.game, 1, args.rounds).read_text())
    for d in json.loads(_round_file(data, args.game, 2, args.warm).read_text()):
        audit(parse(d, rules), rules)
    gc.collect()
    gc.freeze()  # the rounds are test data, not the engine's (as in the engine benches)
    toggle = ctypes.CDLL(str(_helper()))
    toggle.count_start()
    for d in rounds:
        audit(parse(d, rules), rules)
    toggle.count_stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem_blackjack")
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--warm", type=int, default=WARM_ROUNDS, help="rounds that warm the memos first")
    parser.add_argument("--engine", choices=("compiled", "python"), default="compiled")
    parser.add_argument("--data", help="directory keeping the rounds, so other trees replay the same")
    parser.add_argument("--tree", default=str(ROOT), help="the checkout whose engine is counted")
    parser.add_argument("--counted", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.counted:
        counted(args)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    _helper()
    tree = Path(args.tree).resolve()
    python = tree / ".venv" / "bin" / "python"
    env = {**os.environ, "CASINO_ENGINE": args.engine, "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(args.data).resolve() if args.data else Path(tmp)
        _round_file(data, args.game, 1, args.rounds)
        _round_file(data, args.game, 2, args.warm)
        cmd = [
            "valgrind", "--tool=callgrind", "--collect-atstart=no",
            f"--callgrind-out-file={tmp}/callgrind.out",
            str(python if python.exists() else sys.executable), __file__, "--counted",
            "--game", args.game, "--rounds", str(args.rounds), "--warm", str(args.warm),
            "--tree", str(tree), "--data", str(data),
        ]  # fmt: skip
        run = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        print(run.stderr[-3000:], file=sys.stderr)
        return 1
    total = int(found.group(1))
    print(  # the figure's form is read back by tests/benchmarks/test_engine_instructions_runs.py
        f"{args.game}: {total:,} instructions for {args.rounds} rounds = "
        f"{total / args.rounds:,.0f} a round ({args.engine} engine, {tree})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
