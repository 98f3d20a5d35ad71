"""Serializer fields every API input of a kind shares."""

from __future__ import annotations

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
