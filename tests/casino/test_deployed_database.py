"""The database a server the tests start (tests/deployed.py) is given on SQLite: a file copy
of what another process would see of the in-memory test database, made without waiting on
the test's own open transaction."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from django.db import connection, connections
from django.db.migrations.recorder import MigrationRecorder

from tests.deployed import database_url
from tests.factories import CasinoFactory

pytestmark = pytest.mark.skipif(
    connection.vendor != "sqlite",
    reason="the SQLite copy only: on PostgreSQL the server is given the test database itself",
)


def _copied(tmp_path) -> sqlite3.Connection:
    """database_url's copy, opened; a copy that does not come within the minute fails the test
    rather than stalling the run (SQLite's backup waits, without end, for a writer to finish)."""
    made: list[str] = []
    shared = connections["default"]

    def copy() -> None:
        connections["default"] = shared  # the test's own connection, as live_server's thread has it
        made.append(database_url(tmp_path))

    shared.inc_thread_sharing()
    try:
        copying = threading.Thread(target=copy, daemon=True)
        copying.start()
        copying.join(timeout=60)
    finally:
        shared.dec_thread_sharing()
    assert made, "the copy of the test database did not finish within 60 s"
    assert made[0].startswith("sqlite:///")
    return sqlite3.connect(made[0].removeprefix("sqlite:///"))


def _casinos(copy: sqlite3.Connection) -> set[str]:
    return {name for (name,) in copy.execute("SELECT name FROM tables_casino")}


@pytest.mark.django_db
def test_inside_the_tests_transaction_the_copy_is_the_migrated_database_without_its_writes(tmp_path):
    CasinoFactory(name="Written in the test's transaction")  # the transaction now holds a write
    copy = _copied(tmp_path)
    try:
        applied = {(app, name) for app, name in copy.execute("SELECT app, name FROM django_migrations")}
        assert applied == set(MigrationRecorder(connection).applied_migrations())
        # Uncommitted, as a server on PostgreSQL would not see it either.
        assert "Written in the test's transaction" not in _casinos(copy)
    finally:
        copy.close()


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_copy_has_what_the_test_committed(tmp_path):
    CasinoFactory(name="Committed by the test")
    copy = _copied(tmp_path)
    try:
        assert "Committed by the test" in _casinos(copy)
    finally:
        copy.close()
