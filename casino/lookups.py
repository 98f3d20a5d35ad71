"""``AnyOf(F("field"), values)``: a field equal to one of many values, for filter().

On PostgreSQL it is ``field = ANY(%s)`` with ONE array parameter. ``field__in=`` writes a
placeholder per value, and psycopg parses a statement's placeholders in Python: with the ~2,000
identifiers of a busy day's players that parsing took longer than the query itself. Elsewhere
(SQLite) it is the same ``IN (...)`` as ``__in``.
"""

from __future__ import annotations

from django.core.exceptions import EmptyResultSet
from django.db.models import Lookup


class AnyOf(Lookup):
    lookup_name = "any_of"
    prepare_rhs = False  # the values are a list, not one value of the field

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        values = list(self.rhs)
        if not values:
            raise EmptyResultSet
        if connection.vendor == "postgresql":
            if all(type(v) is int for v in values):
                # Identifiers by the ten thousand (a report's slice): the array's text made here,
                # where psycopg's list dumper took a quarter of a second per 20,000.
                return f"{lhs} = ANY(%s::bigint[])", [*lhs_params, "{" + ",".join(map(str, values)) + "}"]
            return f"{lhs} = ANY(%s)", [*lhs_params, values]
        return f"{lhs} IN ({', '.join(['%s'] * len(values))})", [*lhs_params, *values]
