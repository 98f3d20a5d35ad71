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
ruleset's memos were warmed on 2,000 other rounds (seed 2), as a long bench or a worker
has them. Only that loop is counted: a 20-line C helper, compiled with gcc on first use
into ``var/``, issues callgrind's client requests around it.

``--data DIR`` keeps the rounds as JSON (``DIR/<game>_<seed>.json``): made by the first
tree measured, read by the next, so another tree (``--tree``, e.g. a worktree of an older
commit with its engine built) replays the very same rounds through its own engine. Needs
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


def _rounds(game: str, seed: int, count: int, data: Path | None) -> list[dict]:
    """``count`` simulated rounds of ``game``; kept in / read from ``data`` when given."""
    path = data / f"{game}_{seed}_{count}.json" if data else None
    if path is not None and path.exists():
        return json.loads(path.read_text())
    from tables.games import GAMES

    g = GAMES[game]
    rules = g.default_rules()
    rng = random.Random(seed)
    seats = 6 if game == "holdem_blackjack" else 7  # as the engine benches deal them
    rounds = [g.module.simulate_round(rng, rules, seats=seats) for _ in range(count)]
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rounds))
    return rounds


def counted(args: argparse.Namespace) -> None:
    """Run under callgrind: warm the memos, then count the parse + audit loop only."""
    tree = Path(args.tree).resolve()
    sys.path.insert(0, str(tree))
    from tables.games import GAMES

    g = GAMES[args.game]
    module, rules = g.module, g.default_rules()
    parse, audit = module.parse_round, module.audit
    data = Path(args.data).resolve() if args.data else None
    rounds = _rounds(args.game, 1, args.rounds, data)
    for d in _rounds(args.game, 2, WARM_ROUNDS, data):
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
        cmd = [
            "valgrind", "--tool=callgrind", "--collect-atstart=no",
            f"--callgrind-out-file={tmp}/callgrind.out",
            str(python if python.exists() else sys.executable), __file__, "--counted",
            "--game", args.game, "--rounds", str(args.rounds), "--tree", str(tree),
        ]  # fmt: skip
        if args.data:
            cmd += ["--data", str(Path(args.data).resolve())]
        run = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        print(run.stderr[-3000:], file=sys.stderr)
        return 1
    total = int(found.group(1))
    print(
        f"{args.game}: {total:,} instructions for {args.rounds} rounds = "
        f"{total / args.rounds:,.0f} a round ({args.engine} engine, {tree})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
