"""Dates and times in a query string (``?gaming_day=``, ``?day=``, ``?from=``, ``?at=``): one
reader for the API and the pages.

Django's ``parse_date`` and ``parse_datetime`` answer None for text that is not shaped like a
date but raise ValueError for a well-formed impossible one (2026-02-30); read here, both are
"not a date": a field error on the API, the page's default on a page.
"""

from __future__ import annotations

from datetime import date, datetime

from django.utils.dateparse import parse_date, parse_datetime
from rest_framework import serializers


def date_or_none(raw: str | None) -> date | None:
    """``raw`` as a date when it is one written YYYY-MM-DD, else None."""
    if not raw or len(raw) != 10:
        return None
    try:
        return parse_date(raw)
    except ValueError:
        return None


#: A date as people type it into a form: ISO (2026-03-14) or the US order (03/14/2026, 3/14/2026).
TYPED_DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%Y")


def typed_date_or_none(raw: str | None) -> date | None:
    """A date typed into a form, in either of :data:`TYPED_DATE_FORMATS`, else None. Query
    strings keep :func:`date_or_none` (the pages write them ISO)."""
    text = (raw or "").strip()
    for fmt in TYPED_DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def aware_datetime_or_none(raw: str | None) -> datetime | None:
    """``raw`` as an ISO time with its zone (2025-03-14T18:00:00Z), else None."""
    try:
        value = parse_datetime(raw) if raw else None
    except ValueError:
        return None
    return value if value is not None and value.tzinfo is not None else None


def query_date(params, name: str = "gaming_day") -> date | None:
    """The date ``name`` of an API query (None when absent); a field error when it is no date,
    an empty value included: ``?gaming_day=`` is not "no day given" (leave it out for that), as
    for every filter of the API (casino/api_filters.py)."""
    if name not in params:
        return None
    raw = params.get(name) or ""
    day = date_or_none(raw)
    if day is None:
        raise serializers.ValidationError({name: [f'"{raw}" is not a date (YYYY-MM-DD)' if raw.strip()
                                                  else "Must not be empty: leave the parameter out for the default."]})
    return day
