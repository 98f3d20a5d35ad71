"""Serializer fields every API input of a kind shares.

A JSON value is taken as the type it is, never coerced: DRF's own CharField stores ``0`` as
the text ``"0"`` and its BooleanField reads ``"yes"``, ``1`` or ``"on"`` as true, so a client
that sends the wrong type would have its mistake recorded as if someone had meant it (a
reason "0", a loyalty number "12.5", a dealer deactivated by ``"false "``). Every serializer
of the API takes text and truth values through :class:`StrictCharField` and
:class:`StrictBooleanField`: those it declares, and those ModelSerializer builds from a
model's fields (:func:`use_strict_model_fields`, called once at start-up).
"""

from __future__ import annotations

from django.db import models
from rest_framework import serializers

from tables.games.vocabulary.money import MoneyError, to_money


class MoneyField(serializers.DecimalField):
    """An amount: the engine's rule for money in a round (``tables.games.vocabulary.money.to_money``:
    plain decimals, no exponent, NaN or float, whole cents, within the books' 14 digits),
    then the column's own size (``max_digits``: a table's limits have 12)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        try:
            amount = to_money(data)
        except MoneyError as exc:
            raise serializers.ValidationError(str(exc)) from None
        return super().to_internal_value(amount)


class StrictCharField(serializers.CharField):
    """Text only from a JSON string; a number, a boolean, a list or an object is a field error."""

    default_error_messages = {"invalid": "Not a valid string; send text in double quotes."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A truth value only from JSON ``true`` or ``false`` (``null`` where the field allows it)."""

    default_error_messages = {"invalid": "Must be true or false (JSON booleans, not text or numbers)."}

    def to_internal_value(self, data):
        # ``1 == True`` in Python, so DRF's ``data in TRUE_VALUES`` cannot tell them apart.
        if isinstance(data, bool):
            return data
        self.fail("invalid")


#: Model fields whose DRF default coerces other JSON types -> the strict field to build instead.
_STRICT_MODEL_FIELDS = {
    models.CharField: StrictCharField,
    models.TextField: StrictCharField,
    models.BooleanField: StrictBooleanField,
}


def use_strict_model_fields() -> None:
    """Make every ModelSerializer build the strict fields for text and booleans.

    ``serializer_field_mapping`` is DRF's documented table of model field -> serializer
    field; it is updated in place so that each ModelSerializer of every app, not only those
    deriving from a project base class, reads its input the API's one way."""
    serializers.ModelSerializer.serializer_field_mapping.update(_STRICT_MODEL_FIELDS)
