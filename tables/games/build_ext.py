"""Compile the engine with Cython: ``python -m tables.games.build_ext [--force]``.

The compiled modules are the same source files, built in place beside them
(``blackjack/audit.cpython-311-*.so``), plus ``compiled.json``, the manifest that records the
SHA-256 of each source so ``tables.games.accel`` never loads a build older than its
source. Only changed modules are rebuilt. Without a C compiler the build says why and
exits 0: the engine then runs as plain Python, correct but about half as fast.
Intermediate C files go to ``var/build/``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path

from .accel import (
    HERE,
    MANIFEST,
    PACKAGE,
    engine_modules,
    extension_path,
    read_manifest,
    source_digest,
    source_path,
)

ROOT = HERE.parents[1]
BUILD_DIR = ROOT / "var" / "build"
# Cython's default type inference turns some tuple expressions into C tuples that then
# clash (``(9, 10, 11) if x else (10, 11)``); Python semantics everywhere is the point. The
# sources' annotations are for readers and type checkers: the types Cython compiles with are
# all in the ``.pxd`` beside a module, so ``annotation_typing`` is off.
DIRECTIVES = {"language_level": 3, "infer_types": False, "binding": True, "annotation_typing": False}


def stale_modules(force: bool = False) -> list[str]:
    manifest = read_manifest()
    recorded = manifest.get("modules", {})
    # Other compiler directives make another build of every module.
    force = force or manifest.get("directives") != DIRECTIVES
    stale = []
    for name in engine_modules():
        entry = recorded.get(name, {})
        if (force or entry.get("source_sha256") != source_digest(source_path(name))
                or entry.get("file") != extension_path(name).name or not extension_path(name).exists()):
            stale.append(name)
    return stale


def compiler_missing() -> str | None:
    try:
        import Cython  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as exc:
        return f"{exc.name} is not installed"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").exists():
        return f"no Python headers in {include}"
    return None


def build(names: list[str], jobs: int) -> None:
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    # Python's own CFLAGS ask for -g -O3. On Cython's large C files debug info and -O3 are most
    # of the compiler's time, and -O3 buys the engine nothing: the 32 modules build in 68 s with
    # -g0 -O2 against 125 s (two cores), and bench_blackjack_games runs as fast or faster.
    extensions = [Extension(f"{PACKAGE}.{name}", [str(source_path(name).relative_to(ROOT))],
                            extra_compile_args=["-g0", "-O2"])
                  for name in names]
    modules = cythonize(extensions, compiler_directives=DIRECTIVES, build_dir=str(BUILD_DIR / "c"),
                        nthreads=jobs, quiet=True, force=True)
    distribution = Distribution({"ext_modules": modules, "script_name": "build_ext"})
    command = distribution.get_command_obj("build_ext")
    command.inplace = True
    command.build_temp = str(BUILD_DIR / "temp")
    command.build_lib = str(BUILD_DIR / "lib")
    command.parallel = jobs
    command.ensure_finalized()
    command.run()


def write_manifest() -> int:
    modules = {}
    for name in engine_modules():
        extension = extension_path(name)
        if extension.exists():
            modules[name] = {"file": extension.name, "source_sha256": source_digest(source_path(name))}
    import Cython

    MANIFEST.write_text(json.dumps({"cython": Cython.__version__, "python": sys.version.split()[0],
                                    "directives": DIRECTIVES, "modules": modules}, indent=1, sort_keys=True) + "\n")
    return len(modules)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="rebuild every module")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    missing = compiler_missing()
    if missing:
        print(f"engine build skipped: {missing}; the engine runs as plain Python")
        return 0
    names = stale_modules(args.force)
    if not names:
        print("engine build: every compiled module is up to date")
        return 0
    started = time.monotonic()
    # The manifest is rewritten after the build: a half-finished build leaves the old
    # manifest, whose digests no longer match, so the loader falls back to the sources.
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        build(names, args.jobs)
    finally:
        os.chdir(cwd)
    count = write_manifest()
    print(f"engine build: compiled {len(names)} module(s) with Cython in {time.monotonic() - started:.0f} s; "
          f"{count} compiled modules in {MANIFEST.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
