"""``{% load words %}``: codes as people read them, money and rates in one format.

``{{ table.game|label }}`` -> ``Ante Up 21``; ``{{ w.wager|label:"wager" }}`` -> ``Tie LS (17-19)``
(the glossary, ``casino/field_words.py``); ``{{ amount|money }}`` -> ``1,099.50``;
``{{ rate|percent }}`` -> ``30%`` (a share, 0.300000). See docs/floor/words.md.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import template

from casino.field_words import change_words, field_label
from casino.field_words import label as glossary_label

register = template.Library()

DASH = "–"


def _decimal(value) -> Decimal | None:
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


@register.filter
def label(code, kind=None):
    """The glossary's label of a code; a code it does not know as it is."""
    return glossary_label(code, kind or None)


@register.filter
def field(name):
    """A form field's name as people read it, for an error list: ``Date of birth``."""
    return field_label(str(name))


@register.filter
def about(message, name):
    """An error said of its field: ``Date of birth: must be in the past``; an error of no one
    field (``__all__``) on its own, sentence-cased."""
    where = field_label(str(name))
    text = str(message)
    return f"{where}: {text}" if where else text[:1].upper() + text[1:]


@register.filter
def change(path):
    """A revision's changed field in words: ``Seat 3, hand 1, cards``."""
    return change_words(str(path))


@register.filter
def zone(name):
    """A time zone as people read it: ``America/New_York`` -> ``America/New York``."""
    return str(name).replace("_", " ")


@register.filter
def money(value):
    """An amount with thousands separators and two decimals: ``-1,099.50``; none: ``–``.
    Text that is not an amount ("count pending") is shown as it is."""
    amount = _decimal(value)
    if amount is None:
        return DASH if value in (None, "") else value
    return f"{amount:,.2f}"


def percent_text(share: Decimal, places: int = 2) -> str:
    """A share as a percentage, to at most ``places`` decimals, trailing zeros dropped:
    0.3 -> ``30%``, 0.0125 -> ``1.25%``, 0.00333 -> ``0.33%``."""
    text = f"{share * 100:,.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text}%"


@register.filter
def percent(value, places=2):
    """A share (0.30) as ``30%``; none: ``–``."""
    share = _decimal(value)
    return DASH if share is None else percent_text(share, int(places))


@register.filter
def pct(value, places=2):
    """A figure already in percent (hold % 59.9012) to ``places`` decimals: ``59.90``; none: ``–``."""
    figure = _decimal(value)
    return DASH if figure is None else f"{figure:,.{int(places)}f}"
