"""A closed gaming day for the role matrix (written directly: the matrix checks roles, the
close rule has its own tests)."""

from __future__ import annotations

from datetime import date


def closing_matrix_objects(casino) -> dict:
    from tests.closing.closed_today import close_directly

    return {"dayclose": close_directly(casino, date(2026, 3, 10))}
