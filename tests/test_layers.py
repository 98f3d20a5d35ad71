"""The house's layers (pyproject.toml's first import-linter contract; docs/architecture.md).

import-linter checks the imports between the modules the layers name. A layer that lists
modules one by one would let a new module slip past it unchecked, so these tests hold that
every module of the three packages sits in exactly one layer, and that every package says
in its first docstring what it holds and what it may import.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("casino", "tables", "audit")


def _layers() -> list[list[str]]:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (house,) = [c for c in contracts if c["type"] == "layers" and "containers" not in c]
    return [[m.strip() for m in layer.replace("|", ":").split(":")] for layer in house["layers"]]


def _children(package: str) -> set[str]:
    out = set()
    for path in (ROOT / package).iterdir():
        if path.name.startswith(("_", ".")):
            continue
        if path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists()):
            out.add(f"{package}.{path.stem}")
    return out


def test_every_module_of_the_three_packages_sits_in_exactly_one_layer():
    listed = [m for layer in _layers() for m in layer]
    assert len(listed) == len(set(listed)), "a module is listed in two layers"
    covered = set(listed)
    missing = []
    for package in PACKAGES:
        if package in covered:
            continue
        for child in sorted(_children(package)):
            # A listed package covers its descendants (tables.games, a child of tables, is a layer).
            if child not in covered:
                missing.append(child)
    assert not missing, f"not in any layer of the house's contract (pyproject.toml): {missing}"


def test_the_layers_run_from_the_root_wiring_down_to_the_engine():
    layers = _layers()
    assert layers[0] == ["casino.urls", "casino.wsgi"]
    assert layers[-1] == ["tables.games"]
    order = [next(i for i, layer in enumerate(layers) if any(m == p or m.startswith(p + ".") for m in layer))
             for p in ("audit", "tables.models", "casino.models", "tables.games")]
    assert order == sorted(order), "audit, then the floor, then the core, then the engine"


def _packages() -> list[Path]:
    """The three packages and the apps and packages directly inside them (the engine,
    ``tables.games``, documents its own packages in its README)."""
    inside = [p for package in PACKAGES for p in (ROOT / package).iterdir()
              if (p / "__init__.py").exists() and p.name not in ("migrations", "management", "templatetags", "games")]
    return sorted([ROOT / package for package in PACKAGES] + inside)


@pytest.mark.parametrize("package", _packages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_package_says_what_it_holds_and_what_it_may_import(package):
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
    assert len(doc) > 40, f"{package.relative_to(ROOT)}/__init__.py has no docstring saying what it holds"
    assert "Imports:" in doc, f"{package.relative_to(ROOT)}/__init__.py: say what it may import (a line 'Imports: ...')"
