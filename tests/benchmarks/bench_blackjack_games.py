"""Blackjack games throughput: parse + audit of simulated 7-seat rounds on one core.

    .venv/bin/python tests/benchmarks/bench_blackjack_games.py [--rounds N] [--game KEY]
        [--seed S] [--workers W] [--profile]

For each of Ante Up 21, Upcard Luck 21 and Blackjack Tie, ``--rounds`` fresh rounds are
simulated first (not timed; in ``--workers`` processes, every round distinct, each chunk
seeded from ``--seed`` so a run is reproducible) and sent through JSON, so the engine sees
exactly what the REST API receives. Then, on this one process, every round is parsed from
its JSON form, validated, the dealer replayed, every wager settled and the recorded pays
compared: ``module.audit(module.parse_round(data, rules), rules)``. One line per game;
the exit status is non-zero when a game misses the target (20,000 rounds a second).

Time is this process's CPU time (``time.process_time``): the machine is shared, and
wall-clock time would also count the other processes' work. Before timing, the simulated
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

from tables.games import GAMES  # noqa: E402

TARGET = 20_000
SEATS = 7
GAME_KEYS = ("ante_up_21", "upcard_luck_21", "blackjack_tie")
CHUNK = 2_000


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


def bench(key: str, data: list[dict], profile: bool) -> float:
    game = GAMES[key]
    module, rules = game.module, game.default_rules()
    parse_round, audit = module.parse_round, module.audit

    def run() -> int:
        findings = 0
        for d in data:
            findings += len(audit(parse_round(d, rules), rules).findings)
        return findings

    gc.collect()
    gc.freeze()
    profiler = cProfile.Profile() if profile else None
    if profiler:
        profiler.enable()
    start = time.process_time()
    findings = run()
    elapsed = time.process_time() - start
    if profiler:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    gc.unfreeze()
    if findings:
        print(f"{key}: {findings} findings in simulated rounds (expected none)", file=sys.stderr)
    rate = len(data) / elapsed
    print(
        f"{key}: {len(data)} rounds in {elapsed:.2f} s CPU = {rate:,.0f} rounds/s per core "
        f"(target {TARGET:,})",
        flush=True,
    )
    return rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
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
    print(
        f"time is CPU time of this one process (time.process_time), not wall time: the machine "
        f"may be shared; {args.rounds:,} fresh simulated {SEATS}-seat rounds per game",
        flush=True,
    )
    ok = True
    for key in args.game or GAME_KEYS:
        data = simulate(key, args.rounds, args.seed, args.workers)
        ok &= bench(key, data, args.profile) >= TARGET
        del data
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
