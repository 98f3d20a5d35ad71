"""The flush after each transactional test, on PostgreSQL: DELETE with the triggers off, not TRUNCATE.

Django empties every table after a ``transaction=True`` test with one ``TRUNCATE`` of all 118
tables, which makes and unlinks a file per table and index: 1.2 s a test on an idle 2-core
machine, and about 180 of the suite's tests are transactional. ``DELETE`` of tables that are
nearly all empty takes a few milliseconds. The append-only guards refuse DELETE and the
foreign keys would need the tables in order, so the statements run with
``session_replication_role = replica`` (``SET LOCAL``: this transaction only), which skips
triggers, the foreign keys' among them: the whole database is being emptied. Only a superuser
may set it (the test runs and CI connect as ``postgres``); as any other role Django's
``TRUNCATE`` is kept. Production never flushes: this is the test run's plugin only.
"""

from __future__ import annotations

from django.db.backends.postgresql.operations import DatabaseOperations

_truncate = DatabaseOperations.sql_flush
_superuser: dict[str, bool] = {}


def _is_superuser(connection) -> bool:
    alias = connection.alias
    if alias not in _superuser:
        with connection.cursor() as cursor:
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
            _superuser[alias] = bool(cursor.fetchone()[0])
    return _superuser[alias]


def _sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    if not tables or reset_sequences or not _is_superuser(self.connection):
        return _truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
    quote = self.quote_name
    return ["SET LOCAL session_replication_role = replica",
            *(f"DELETE FROM {quote(table)}" for table in tables),
            "SET LOCAL session_replication_role = DEFAULT"]


DatabaseOperations.sql_flush = _sql_flush
