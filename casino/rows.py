"""INSERT statements built once per model and column list, for the hottest write path.

Recording a round writes six tables. The ORM compiles every INSERT afresh, and on the
round-recording path that compilation cost more CPU than PostgreSQL's own work (about a
millisecond a statement on a small server). A :class:`RowInserter` builds the statement
text once per database vendor and row count from the model's own metadata, and converts
every value with the field's own ``get_db_prep_save``, so it writes exactly what
``bulk_create`` would, on SQLite and PostgreSQL alike. It sends no signals: callers write
the history rows they need themselves (see :func:`history_values`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.db import connections

from casino.prepared import PREPARED


class RowInserter:
    """``INSERT INTO <model's table> (<columns>) VALUES ... [RETURNING <pk>]`` (on PostgreSQL,
    many rows come from ``UNNEST`` of one array per column)."""

    def __init__(self, model, columns: Sequence[str], *, returning_pk: bool = True):
        meta = model._meta
        self.fields = [meta.get_field(name) for name in columns]
        self.table = meta.db_table
        self.pk_column = meta.pk.column
        self.returning_pk = returning_pk
        self._sql: dict[tuple[str, int], tuple[str, bool]] = {}

    def _unnest_types(self, connection) -> list[str] | None:
        """PostgreSQL array types to insert many rows from one array per column, as Django's
        own bulk_create does: base types (``varchar``, not ``varchar(40)``), so that a value
        too long is refused, never cut. None where a column cannot be sent as an array."""
        if connection.vendor != "postgresql" or any(hasattr(f, "get_placeholder") for f in self.fields):
            return None
        types = []
        for field in self.fields:
            db_type = field.db_type(connection)
            # A modifier dropped from char(n) would make it char(1): such a column uses VALUES.
            if db_type is None or db_type.endswith("]") or db_type.split("(")[0].strip() in ("char", "character"):
                return None
            types.append(re.sub(r"\([^)]*\)", "", db_type).strip())
        return types

    def _statement(self, connection, rows: int) -> tuple[str, bool]:
        """The statement for ``rows`` rows, and whether it takes one array per column."""
        key = (connection.vendor, rows)
        cached = self._sql.get(key)
        if cached is None:
            quote = connection.ops.quote_name
            columns = ", ".join(quote(f.column) for f in self.fields)
            types = self._unnest_types(connection) if rows > 1 else None
            if types:
                # One statement text for any number of rows: prepared once, its parameters
                # fit psycopg's query cache (a VALUES list of 20 wagers has 240). The types
                # come from the model's metadata.
                source = "SELECT * FROM UNNEST(" + ", ".join(f"(%s)::{t}[]" for t in types) + ")"  # noqa: S608
            else:
                row = "(" + ", ".join(["%s"] * len(self.fields)) + ")"
                source = "VALUES " + ", ".join([row] * rows)
            # Identifiers come from the model's metadata; every value is a parameter.
            sql = f"{PREPARED}INSERT INTO {quote(self.table)} ({columns}) {source}"  # noqa: S608
            if self.returning_pk:
                sql += f" RETURNING {quote(self.pk_column)}"
            cached = self._sql[key] = (sql, bool(types))
        return cached

    def insert(self, rows: Sequence[Sequence], using: str = "default") -> list:
        """Insert ``rows`` (values in column order); the new primary keys, in row order."""
        if not rows:
            return []
        connection = connections[using]
        fields = self.fields
        sql, by_column = self._statement(connection, len(rows))
        if by_column:
            # One array per column; every row must have a value for every column.
            params = [[field.get_db_prep_save(value, connection) for value in column]
                      for field, column in zip(fields, zip(*rows, strict=True), strict=True)]
        else:
            params = [field.get_db_prep_save(value, connection) for row in rows
                      for field, value in zip(fields, row, strict=True)]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return [r[0] for r in cursor.fetchall()] if self.returning_pk else []


class NumberedRowInserter(RowInserter):
    """Insert one row numbered one past the highest ``number`` of its ``group`` (e.g. a
    table's round sequence), in the same statement: ``INSERT ... SELECT ..., MAX + 1``.

    The caller holds a lock that serialises the group (two inserts would otherwise read
    the same maximum; the unique constraint on (group, number) is the backstop).
    """

    def __init__(self, model, columns: Sequence[str], *, number: str, group: str):
        super().__init__(model, columns)
        meta = model._meta
        self.number, self.group = meta.get_field(number), meta.get_field(group)
        self.group_index = list(columns).index(group)
        self._numbered_sql: dict[str, str] = {}

    def _numbered_statement(self, connection) -> str:
        sql = self._numbered_sql.get(connection.vendor)
        if sql is None:
            quote = connection.ops.quote_name
            columns = ", ".join(quote(f.column) for f in [*self.fields, self.number])
            values = ", ".join(["%s"] * len(self.fields))
            number, table = quote(self.number.column), quote(self.table)
            # Identifiers come from the model's metadata; every value is a parameter.
            sql = (f"{PREPARED}INSERT INTO {table} ({columns}) SELECT {values}, COALESCE(MAX({number}), 0) + 1 "  # noqa: S608
                   f"FROM {table} WHERE {quote(self.group.column)} = %s RETURNING {quote(self.pk_column)}, {number}")
            self._numbered_sql[connection.vendor] = sql
        return sql

    def insert_numbered(self, row: Sequence, using: str = "default") -> tuple:
        """Insert ``row``; (its primary key, the number it was given)."""
        connection = connections[using]
        params = [field.get_db_prep_save(value, connection) for field, value in zip(self.fields, row, strict=True)]
        params.append(params[self.group_index])
        with connection.cursor() as cursor:
            cursor.execute(self._numbered_statement(connection), params)
            return tuple(cursor.fetchone())


def history_columns(model) -> list[str]:
    """The columns of ``model``'s django-simple-history table, without its own key."""
    history = model.history.model
    return [f.attname for f in history._meta.concrete_fields if f.attname != "history_id"]


def history_values(instance, columns: Sequence[str], *, history_type: str, user, reason: str, at) -> list:
    """One history row for ``instance`` as simple-history would write it (``+`` created, ``~`` changed)."""
    extra = {"history_date": at, "history_change_reason": reason, "history_type": history_type,
             "history_user_id": getattr(user, "pk", None)}
    return [extra[c] if c in extra else getattr(instance, c) for c in columns]
