"""Blackjack games throughput: parse + audit of simulated 7-seat rounds on one core.

    .venv/bin/python tests/benchmarks/bench_blackjack_games.py [--rounds N] [--pool P]
        [--game KEY] [--seed S] [--workers W] [--profile]

For each of Ante Up 21, Upcard Luck 21 and Blackjack Tie, ``--pool`` distinct rounds are
simulated first (not timed; in ``--workers`` processes, each chunk seeded from ``--seed`` so
a run is reproducible) and sent through JSON, so the engine sees exactly what the REST API
receives. Then, on this one process, ``--rounds`` rounds (the pool over and over) are each
parsed from their JSON form, validated, the dealer replayed, every wager settled and the
recorded pays compared: ``module.audit(module.parse_round(data, rules), rules)``. One line
per game, then the rate of the first pass alone (rounds the engine had never seen); the
exit status is non-zero when a game misses the target of the engine's build
(20,000 rounds a second compiled, 12,000 plain Python).

Simulating is slower than auditing, so the pool (20,000 by default) keeps the run short;
``--pool 0`` simulates every round afresh. The engine's memos (amounts, wager sets, 21-bet
outcomes, dealer hands) make a seen round hardly cheaper: the first-pass line shows by how much.

The first lines say which build of the engine ran (``engine_build()``: "compiled", "python"
or "mixed", i.e. some compiled modules were stale). Time is this process's CPU time (``time.process_time``): the machine is shared, and
wall-clock time would also count the other processes' work. A shared machine is also slower
per CPU second when its other core (often a hyperthread of the same physical core) is busy,
so, as bench_holdem_blackjack does, the script times a pure-Python reference loop,
``sum(range(1000))``, and gives a round's cost in those units too: that figure travels
between machines far better than rounds a second do. Before timing, the simulated
rounds are moved out of the garbage collector's view (``gc.freeze``): they are the
benchmark's test data, not the engine's, and a long-lived service never holds 100,000
rounds at once. The engine's own allocations are collected as usual.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tables.games import GAMES, engine_build  # noqa: E402
from tests.benchmarks import build_target  # noqa: E402

TARGETS = {"compiled": 20_000, "python": 12_000}  # issue #18, per build of the engine
SEATS = 7
GAME_KEYS = ("ante_up_21", "upcard_luck_21", "blackjack_tie")
CHUNK = 2_000


def reference_loop_us(loops: int = 2000, repeat: int = 5) -> float:
    """CPU microseconds of one ``sum(range(1000))``: the machine's pure-Python speed (best of)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(loops):
            sum(range(1000))
        best = min(best, time.process_time() - start)
    return best / loops * 1e6


def _simulate_chunk(key: str, seed: int, chunk: int, count: int) -> str:
    """``count`` rounds as one JSON text (cheap to send back from a worker process)."""
    game = GAMES[key]
    module, rules = game.module, game.default_rules()
    rng = random.Random(f"{seed}:{key}:{chunk}")
    return json.dumps([module.simulate_round(rng, rules, seats=SEATS) for _ in range(count)])


def simulate(key: str, rounds: int, seed: int, workers: int) -> list[dict]:
    chunks = [(i, min(CHUNK, rounds - start)) for i, start in enumerate(range(0, rounds, CHUNK))]
    if workers <= 1 or len(chunks) == 1:
        texts = [_simulate_chunk(key, seed, i, n) for i, n in chunks]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            texts = list(
                pool.map(
                    _simulate_chunk,
                    [key] * len(chunks),
                    [seed] * len(chunks),
                    [i for i, _ in chunks],
                    [n for _, n in chunks],
                )
            )
    data: list[dict] = []
    for text in texts:
        data += json.loads(text)
    return data


def bench(key: str, pool: list[dict], rounds: int, profile: bool) -> float:
    game = GAMES[key]
    module, rules = game.module, game.default_rules()
    parse_round, audit = module.parse_round, module.audit

    def run(data: list[dict]) -> int:
        findings = 0
        for d in data:
            findings += len(audit(parse_round(d, rules), rules).findings)
        return findings

    passes = [pool] * (rounds // len(pool)) + [pool[: rounds % len(pool)]]
    passes = [p for p in passes if p]
    gc.collect()
    gc.freeze()
    ref_before = reference_loop_us()
    profiler = cProfile.Profile() if profile else None
    if profiler:
        profiler.enable()
    findings = 0
    times = []
    for data in passes:
        start = time.process_time()
        findings += run(data)
        times.append(time.process_time() - start)
    elapsed = sum(times)
    ref = min(ref_before, reference_loop_us())
    if profiler:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    gc.unfreeze()
    if findings:
        print(f"{key}: {findings} findings in simulated rounds (expected none)", file=sys.stderr)
    rate = rounds / elapsed
    target = build_target(TARGETS)
    print(
        f"{key}: {rounds} rounds in {elapsed:.2f} s CPU = {rate:,.0f} rounds/s per core "
        f"(target {target:,})",
        flush=True,
    )
    if len(passes) > 1 and times[0] > 0:
        print(
            f"    first pass, {len(passes[0]):,} rounds never seen before: "
            f"{len(passes[0]) / times[0]:,.0f} rounds/s",
            flush=True,
        )
    per_round = elapsed / rounds * 1e6
    print(
        f"    machine: sum(range(1000)) takes {ref:.1f} us of CPU; a round takes "
        f"{per_round:.1f} us = {per_round / ref:.1f} reference loops, so the target holds where "
        f"that loop takes {1e6 / target / (per_round / ref):.1f} us or less",
        flush=True,
    )
    return rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument(
        "--pool", type=int, default=20_000, help="distinct simulated rounds (0: all --rounds)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--game", choices=GAME_KEYS, action="append", help="only this game (repeatable)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=min(4, os.cpu_count() or 1),
        help="processes simulating the rounds (not timed)",
    )
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the timed part")
    args = parser.parse_args(argv)
    pool = min(args.pool or args.rounds, args.rounds)
    print(
        f"time is CPU time of this one process (time.process_time), not wall time: the machine "
        f"may be shared; {args.rounds:,} {SEATS}-seat rounds per game, from {pool:,} distinct "
        f"simulated rounds",
        flush=True,
    )
    keys = args.game or GAME_KEYS
    modules = [GAMES[key].module for key in keys]  # imported now: the line below covers them
    print(
        f"engine build: {engine_build()} (CASINO_ENGINE={os.environ.get('CASINO_ENGINE', 'auto')}; "
        "`make engine` compiles, CASINO_ENGINE=python runs the plain Python reference)",
        flush=True,
    )
    del modules
    ok = True
    for key in keys:
        data = simulate(key, pool, args.seed, args.workers)
        ok &= bench(key, data, args.rounds, args.profile) >= build_target(TARGETS)
        del data
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
