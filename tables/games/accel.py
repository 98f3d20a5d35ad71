"""Load the compiled (Cython) build of an engine module only when it matches its source.

The engine is written and reviewed as plain Python; ``python -m tables.games.build_ext``
(run by ``make install``) compiles the same files with Cython for about twice the speed.
Python's own import system would load a compiled ``blackjack.*.so`` in preference to
``blackjack.py`` even after the ``.py`` had been edited, so an engine module is never
imported through it: this finder loads the compiled file only when the build manifest
records the SHA-256 of the very source that is on disk, and the source otherwise.

``CASINO_ENGINE`` chooses: ``auto`` (default: compiled where fresh), ``python`` (never
compiled: the reference build), ``compiled`` (refuse to import a stale or missing build,
so CI knows it is testing what production runs).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import sys
from pathlib import Path

PACKAGE = __name__.rpartition(".")[0]
HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "compiled.json"
#: Modules that are never compiled: this loader and the build script (and every package's
#: ``__init__``, which Python's own finder imports).
NOT_COMPILED = frozenset({"accel", "build_ext"})
MODES = ("auto", "python", "compiled")


class StaleBuild(ImportError):
    pass


def source_digest(path: Path) -> str:
    """SHA-256 of a module's source and of its ``.pxd`` when it has one, and of the ``.pxd`` of
    each engine module it cimports: the types Cython compiles it with are part of what the
    build was made from."""
    digest = hashlib.sha256(path.read_bytes())
    declarations = path.with_suffix(".pxd")
    if declarations.exists():
        digest.update(b"\0.pxd\0" + declarations.read_bytes())
        for name in cimports(path):
            digest.update(b"\0cimport\0" + source_path(name).with_suffix(".pxd").read_bytes())
    return digest.hexdigest()


def cimports(path: Path) -> list[str]:
    """The engine modules whose compiled types the module at ``path`` uses (``from
    tables.games.X cimport ...`` in its ``.pxd``), named relative to the engine: its build
    works only beside theirs."""
    declarations = path.with_suffix(".pxd")
    if not declarations.exists():
        return []
    found = (re.match(rf"\s*from\s+{re.escape(PACKAGE)}\.([\w.]+)\s+cimport\b", line)
             for line in declarations.read_text().splitlines())
    return [m.group(1) for m in found if m]


def source_path(name: str) -> Path:
    """The source of an engine module named relative to the engine (``"blackjack.audit"``)."""
    return HERE.joinpath(*name.split(".")).with_suffix(".py")


def extension_path(name: str) -> Path:
    return source_path(name).with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0])


def engine_modules() -> list[str]:
    """Every module of the engine the build compiles, named relative to the engine
    (``"vocabulary.cards"``): all ``.py`` files of its packages but the packages' own
    ``__init__`` and the build tooling."""
    names = (".".join(p.relative_to(HERE).with_suffix("").parts) for p in HERE.rglob("*.py"))
    return sorted(n for n in names if n not in NOT_COMPILED and n.rpartition(".")[2] != "__init__")


def mode() -> str:
    value = os.environ.get("CASINO_ENGINE", "auto").strip().lower() or "auto"
    if value not in MODES:
        raise ValueError(f"CASINO_ENGINE must be one of {', '.join(MODES)}, not {value!r}")
    return value


def read_manifest() -> dict:
    try:
        return json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}


class EngineFinder:
    """A ``sys.meta_path`` finder for the engine's modules, ``tables.games.<package>.<module>``
    (see the module docstring). Packages themselves are left to Python's own finder."""

    def __init__(self) -> None:
        self.mode = mode()
        self.manifest = read_manifest() if self.mode != "python" else {}
        self.loaded: dict[str, str] = {}  # module -> "compiled" | "python"

    def fresh(self, name: str) -> bool:
        """Whether the build of ``name`` is of the source on disk, and so is every build it
        cimports (a compiled module beside the plain source of one it cimports fails to import)."""
        source = source_path(name)
        extension = extension_path(name)
        entry = self.manifest.get("modules", {}).get(name)
        return (entry is not None and extension.exists() and entry.get("file") == extension.name
                and entry.get("source_sha256") == source_digest(source)
                and all(self.fresh(other) for other in cimports(source)))

    def compiled_spec(self, fullname: str, name: str, source: Path):
        extension = extension_path(name)
        if self.fresh(name):
            loader = importlib.machinery.ExtensionFileLoader(fullname, str(extension))
            return importlib.util.spec_from_file_location(fullname, extension, loader=loader)
        if self.mode == "compiled":
            raise StaleBuild(f"{fullname}: no compiled build matches {source.name} "
                             "(run `make engine`, or unset CASINO_ENGINE=compiled)")
        return None

    def find_spec(self, fullname: str, path=None, target=None):
        if not fullname.startswith(PACKAGE + "."):
            return None
        name = fullname[len(PACKAGE) + 1:]
        if name in NOT_COMPILED or name.rpartition(".")[2] == "__init__":
            return None
        source = source_path(name)
        if not source.is_file():
            return None
        spec = self.compiled_spec(fullname, name, source) if self.mode != "python" else None
        self.loaded[name] = "compiled" if spec is not None else "python"
        if spec is None:
            loader = importlib.machinery.SourceFileLoader(fullname, str(source))
            spec = importlib.util.spec_from_file_location(fullname, source, loader=loader)
        return spec


def install() -> EngineFinder:
    for finder in sys.meta_path:
        if isinstance(finder, EngineFinder):
            return finder
    finder = EngineFinder()
    sys.meta_path.insert(0, finder)
    return finder


def build_description() -> str:
    """"compiled" when every engine module imported so far is the compiled build, else "python"."""
    finder = install()
    kinds = set(finder.loaded.values())
    return "compiled" if kinds == {"compiled"} else ("python" if kinds <= {"python"} else "mixed")
