"""INSERT and UPDATE statements built once per model and column list, for the hottest write path.

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

    def __init__(self, model, columns: Sequence[str], *, returning_pk: bool = True,
                 replace: tuple[Sequence[str], Sequence[str]] | None = None,
                 add: tuple[Sequence[str], Sequence[str]] | None = None):
        """An upsert, given (the unique key's fields, the fields a conflicting row changes):
        ``replace`` takes the new row's values (``SET field = EXCLUDED.field``), ``add`` adds
        them to the stored ones (``SET field = field + EXCLUDED.field``: counters kept by
        increments, which two writers never lose)."""
        if replace and add:
            raise ValueError("an upsert either replaces or adds")
        meta = model._meta
        self.fields = [meta.get_field(name) for name in columns]
        self.table = meta.db_table
        self.pk_column = meta.pk.column
        self.returning_pk = returning_pk
        conflict = replace or add
        self.conflict = None if conflict is None else tuple([meta.get_field(n).column for n in names]
                                                            for names in conflict)
        self.adds = bool(add)
        self._sql: dict[tuple[str, int | str], tuple[str, bool]] = {}

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
        # The UNNEST form is one text for any number of rows: kept once, not once per count.
        cached = self._sql.get(key) or (self._sql.get((connection.vendor, "many")) if rows > 1 else None)
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
            if self.conflict:
                unique, changed = self.conflict
                table = quote(self.table)
                sets = (f"{quote(c)} = {table}.{quote(c)} + EXCLUDED.{quote(c)}" if self.adds
                        else f"{quote(c)} = EXCLUDED.{quote(c)}" for c in changed)
                sql += f" ON CONFLICT ({', '.join(map(quote, unique))}) DO UPDATE SET {', '.join(sets)}"
            if self.returning_pk:
                sql += f" RETURNING {quote(self.pk_column)}"
            cached = self._sql[(connection.vendor, "many") if types else key] = (sql, bool(types))
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


class RowUpdater:
    """``UPDATE <model's table> SET <columns> WHERE <pk> = ...`` for rows given with their keys:
    one statement text, run over every row with ``executemany`` (on PostgreSQL psycopg sends
    them in one pipeline, one round trip), values converted as :class:`RowInserter` does. What
    ``bulk_update`` does without the ``CASE WHEN`` per row and column it compiles every call."""

    def __init__(self, model, columns: Sequence[str]):
        meta = model._meta
        self.fields = [meta.get_field(name) for name in columns]
        self.pk = meta.pk
        self.table = meta.db_table
        self._sql: dict[str, str] = {}

    def update(self, rows: Sequence[tuple], using: str = "default") -> None:
        """``rows``: (primary key, values in column order)."""
        if not rows:
            return
        connection = connections[using]
        sql = self._sql.get(connection.vendor)
        if sql is None:
            quote = connection.ops.quote_name
            sets = ", ".join(f"{quote(f.column)} = %s" for f in self.fields)
            # Identifiers come from the model's metadata; every value is a parameter.
            sql = self._sql[connection.vendor] = (
                f"{PREPARED}UPDATE {quote(self.table)} SET {sets} WHERE {quote(self.pk.column)} = %s")  # noqa: S608
        params = [[*(f.get_db_prep_save(v, connection) for f, v in zip(self.fields, values, strict=True)),
                   self.pk.get_db_prep_save(pk, connection)] for pk, values in rows]
        with connection.cursor() as cursor:
            cursor.executemany(sql, params)


class NumberedRowInserter(RowInserter):
    """Insert one row numbered one past the last ``number`` of its ``group`` (e.g. a table's
    round sequence). The last number is kept on the group's ``counter`` row (its primary key
    is the group's value, its ``last`` the number last given), bumped in the INSERT itself on
    PostgreSQL: ``WITH n AS (UPDATE counter ... RETURNING last) INSERT ... SELECT ..., n.last``.

    Why a counter and not ``MAX(number) + 1``: the numbered table may be partitioned by
    another column (rounds by gaming day), where the MAX of a group probes every partition
    and numbering grew with the history; the counter is one key lookup whatever the history.

    The caller holds a lock that serialises the group (the counter's row lock does too).
    A group without a counter row gets one from ``MAX(number)`` of its rows, once (a group
    never numbered before, or rows loaded around the inserter).
    """

    def __init__(self, model, columns: Sequence[str], *, number: str, group: str, counter):
        super().__init__(model, columns)
        meta = model._meta
        self.number, self.group = meta.get_field(number), meta.get_field(group)
        self.group_index = list(columns).index(group)
        self.counter = counter
        self._numbered_sql: dict[str, tuple[str, str, str | None]] = {}

    def _numbered_statements(self, connection) -> tuple[str, str, str | None]:
        """(the numbered INSERT, or on SQLite the bump; the statement that makes a missing
        counter from the rows; on SQLite the INSERT given the number)."""
        sql = self._numbered_sql.get(connection.vendor)
        if sql is None:
            quote = connection.ops.quote_name
            columns = ", ".join(quote(f.column) for f in [*self.fields, self.number])
            values = ", ".join(["%s"] * len(self.fields))
            number, table, pk = quote(self.number.column), quote(self.table), quote(self.pk_column)
            counter, key = quote(self.counter._meta.db_table), quote(self.counter._meta.pk.column)
            last = quote(self.counter._meta.get_field("last").column)
            # Identifiers come from the models' metadata; every value is a parameter.
            bump = f"UPDATE {counter} SET {last} = {last} + 1 WHERE {key} = %s"  # noqa: S608
            make = (f"INSERT INTO {counter} ({key}, {last}) SELECT %s, COALESCE(MAX({number}), 0) "  # noqa: S608
                    f"FROM {table} WHERE {quote(self.group.column)} = %s ON CONFLICT ({key}) DO NOTHING")
            if connection.vendor == "postgresql":
                sql = (f"{PREPARED}WITH n AS ({bump} RETURNING {last}) INSERT INTO {table} ({columns}) "  # noqa: S608
                       f"SELECT {values}, n.{last} FROM n RETURNING {pk}, {number}", make, None)
            else:  # SQLite has no data-modifying WITH: the bump is a statement of its own
                sql = (f"{bump} RETURNING {last}", make,
                       f"INSERT INTO {table} ({columns}) VALUES ({values}, %s) RETURNING {pk}")  # noqa: S608
            self._numbered_sql[connection.vendor] = sql
        return sql

    def insert_numbered(self, row: Sequence, using: str = "default") -> tuple:
        """Insert ``row``; (its primary key, the number it was given)."""
        connection = connections[using]
        params = [field.get_db_prep_save(value, connection) for field, value in zip(self.fields, row, strict=True)]
        group = params[self.group_index]
        numbered, make, insert = self._numbered_statements(connection)
        with connection.cursor() as cursor:
            for first in (True, False):
                cursor.execute(numbered, [group] if insert else [group, *params])
                got = cursor.fetchone()
                if got is not None:
                    break
                if not first:
                    raise RuntimeError(f"{self.counter._meta.db_table}: no counter for {group} after making it")
                cursor.execute(make, [group, group])  # the group's first number since counters were kept
            if insert is None:
                return tuple(got)
            cursor.execute(insert, [*params, got[0]])
            return cursor.fetchone()[0], got[0]


def history_columns(model) -> list[str]:
    """The columns of ``model``'s django-simple-history table, without its own key."""
    history = model.history.model
    return [f.attname for f in history._meta.concrete_fields if f.attname != "history_id"]


def history_values(instance, columns: Sequence[str], *, history_type: str, user, reason: str, at) -> list:
    """One history row for ``instance`` as simple-history would write it (``+`` created, ``~`` changed)."""
    extra = {"history_date": at, "history_change_reason": reason, "history_type": history_type,
             "history_user_id": getattr(user, "pk", None)}
    return [extra[c] if c in extra else getattr(instance, c) for c in columns]
