"""Money computed by the database, read back as exact cents on every backend.

SQLite has no decimal type: a ``DecimalField`` column holds a REAL, and ``SUM``, ``+`` and
``COALESCE`` over it are float arithmetic (0.10 + 0.20 - 0.30 is 5.55e-17). Django rounds a
*plain column* back to its ``decimal_places`` (the SQLite backend's decimal converter quantises a
``Col``), but on purpose not any other expression (Django ticket #23941: an aggregate, a
``Subquery``, a ``Coalesce`` or a ``Case`` comes back as the float's first 15 significant digits,
``Decimal('5.55111512312578E-17')``, ``Decimal('80.4000000000001')``), and an explicit
``DecimalField`` ``output_field`` does not change that. PostgreSQL's ``numeric`` is exact.

So every read of a money figure the database computed goes through :func:`money` (any
expression) or :func:`money_sum` (``Sum``): their converter gives the value to the cent, as
Django gives a column. Float error in a sum stays far below half a cent for any amount the
models hold (14 digits, 2 places; a float carries 15 to 17).
"""

from __future__ import annotations

from decimal import Decimal

from django.db.models import DecimalField, Func, Sum

CENT = Decimal("0.01")
#: The output field of a computed money figure: wider than the columns (a sum outgrows them).
MONEY_OUTPUT = DecimalField(max_digits=20, decimal_places=2)
#: A column that holds a sum of money columns (a rollup's day and running sums): wide enough for
#: any sum a ledger can reach. A money column holds less than 10**12 (14 digits, 2 places) and a
#: table fewer than 2**63 rows (bigint ids), so no sum reaches 10**31: 31 digits before the point.
MONEY_SUM = {"max_digits": 33, "decimal_places": 2}


class Money(Func):
    """``expression`` (an aggregate, a subquery, arithmetic of money columns) read back as a
    ``Decimal`` to the cent on every database. The SQL is the expression's own."""

    template = "%(expressions)s"
    arity = 1
    output_field = MONEY_OUTPUT

    def __init__(self, expression, quantum: Decimal = CENT, **extra):
        super().__init__(expression, **extra)
        self.quantum = quantum

    def convert_value(self, value, expression, connection):
        # After the backend's converter: SQLite's gave Decimal(float to 15 digits); PostgreSQL
        # gives the exact numeric.
        return None if value is None else Decimal(value).quantize(self.quantum)


def cents(value) -> Decimal:
    """A money column read with a plain cursor (no model field to convert it), to the cent:
    PostgreSQL hands back the exact numeric, SQLite a float or an int."""
    return (value if isinstance(value, Decimal) else Decimal(str(value))).quantize(CENT)


def money(expression) -> Money:
    return Money(expression)


def money_sum(expression, **kwargs) -> Money:
    """``Sum(expression, **kwargs)`` (``filter``, ``default``, ``distinct``) to the cent."""
    return Money(Sum(expression, **kwargs))


def decimal_sum(expression, quantum: Decimal, **kwargs) -> Money:
    """A sum of figures with ``quantum``'s places (a product of money columns: 0.0001), read back
    to those places as :func:`money_sum` reads money back to the cent."""
    places = -quantum.as_tuple().exponent
    return Money(Sum(expression, output_field=DecimalField(max_digits=30, decimal_places=places), **kwargs),
                 quantum=quantum)
