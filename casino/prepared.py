"""Prepared statements for the round recorder's statements, and for nothing else.

Django binds query parameters on the client and prepares nothing. On the recording path
PostgreSQL then parsed and planned every statement on every request: planning the table's
context query (six joined tables) cost three times what running it did. The database
settings (casino/settings.py) therefore bind parameters on the server and give Django
:class:`PreparingCursor`, which prepares a statement at its first run on a connection when
its text starts with :data:`PREPARED` and never otherwise (psycopg's ``executemany``, which
runs one statement over many rows, prepares it as before).

Only statements marked that way are prepared: key lookups and INSERTs, for which a plan
made once is the plan for any value. A statement over a range whose best plan depends on
its values (a reconciliation slice, a desk filter) is planned afresh every time, as
before: PostgreSQL may switch a prepared statement to a generic plan, and for the
reconciliation's slices that plan read the whole day's index on every slice.
"""

from __future__ import annotations

import psycopg

# A comment, so the marked text is the same statement on every database.
PREPARED = "/* prepared */ "


class PreparingCursor(psycopg.Cursor):
    """Server-side binding; prepares the statements marked with :data:`PREPARED`."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        if prepare is None:
            prepare = isinstance(query, str) and query.startswith(PREPARED)
        return super().execute(query, params, prepare=prepare, binary=binary)
