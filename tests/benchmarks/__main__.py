"""`make bench`: run every benchmark in this folder; non-zero exit if any misses its target."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    only = set(argv)
    failed = []
    for info in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda m: m.name):
        if not info.name.startswith("bench_") or (only and info.name not in only):
            continue
        module = importlib.import_module(f"tests.benchmarks.{info.name}")
        print(f"\n== {info.name}", flush=True)
        started = time.perf_counter()
        code = module.main([])
        print(f"   ({time.perf_counter() - started:.1f} s)", flush=True)
        if code:
            failed.append(info.name)
    if failed:
        print(f"\nMissed their targets: {', '.join(failed)}")
        return 1
    print("\nAll benchmarks met their targets.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
