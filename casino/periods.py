"""The bounded default period of every page and list that reads history (issue #20).

A page's cost must not grow with the years of rounds the database keeps: a list reads one
period of gaming days, by default the last :data:`DEFAULT_DAYS` up to today's, shown and
changeable; where raw rows are read a period is at most :data:`MAX_DAYS` long (a longer one is
a field error). Periods longer than that are the rollups' and the daily report's
(docs/architecture.md, "Every list reads a bounded period").

The API lists of rows that pile up day by day are :class:`PeriodBoundedListMixin`: rounds, findings,
table sessions, buy-ins, drop boxes, soft counts (their box's day), inventory slips, chip slips,
accounting findings, gaming-day closes, cash-outs, jackpot awards, daily reports (whose period is
``?since=&until=``, the names they had) and investigations (those whose own period, a day or a
month, shares a day with the one asked). Each reads ``?from=&to=`` or one ``?gaming_day=``, by
default the last ``DEFAULT_DAYS`` gaming days to the caller's casino's today; a reversed period or
one over ``MAX_DAYS`` is a 400 on ``to`` (``until``); a single record (retrieve, actions) is found
whatever its day. ``tests/test_bounded_lists.py`` walks the URLconf and fails for a new list of
dated rows that is not bounded; its allow-list (with the reasons) has jackpot adjustments only: a
few manual requests a month, no gaming day of their own, and the ones awaiting approval a queue a
window of days would hide. Pages: the desk's queue and the investigations page default to the same
period, shown in their form; the other pages of these rows show one gaming day
(``?day=``/``?gaming_day=``) or the latest few.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.core.exceptions import ValidationError
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from casino.gaming_day import current_gaming_day
from casino.query_dates import date_or_none, query_date
from casino.scoping import user_casino

#: Gaming days up to today's shown by default: a month is what surveillance compares over.
DEFAULT_DAYS = 30
#: The longest period a list of raw rows (findings, rounds) reads: a year of a casino's days.
MAX_DAYS = 366


def today_of(user) -> date:
    """The user's casino's current gaming day (the server's date for a user of no casino)."""
    casino = user_casino(user)
    return current_gaming_day(casino) if casino is not None else timezone.localdate()


def default_period(since: date | None, until: date | None, today: date) -> tuple[date, date]:
    """``since``..``until`` with a missing end filled: ``DEFAULT_DAYS`` days from the other, or up to today."""
    if until is None:
        until = since + timedelta(days=DEFAULT_DAYS - 1) if since else today
    if since is None:
        since = until - timedelta(days=DEFAULT_DAYS - 1)
    return since, until


def period_error(since: date, until: date, *, until_field: str = "until") -> dict | None:
    """The field error of a period that is reversed or longer than ``MAX_DAYS`` (else None)."""
    if until < since:
        return {until_field: ["Must not be before the period's first day."]}
    if (until - since).days + 1 > MAX_DAYS:
        return {until_field: [f"A period of at most {MAX_DAYS} gaming days."]}
    return None


def page_period(params, today: date, names: tuple[str, str] = ("from", "to")) -> tuple[date, date, dict]:
    """A page's ``?from=&to=`` (``names``): the period shown, by default the last ``DEFAULT_DAYS``
    gaming days to ``today``, and its field errors; a reversed or over-long period shows the default
    one, and the errors say why (a date that does not parse is left out, as the form's empty field)."""
    since, until = default_period(date_or_none(params.get(names[0])), date_or_none(params.get(names[1])), today)
    errors = period_error(since, until, until_field=names[1]) or {}
    if errors:
        since, until = default_period(None, None, today)
    return since, until, errors


def api_period(request, names: tuple[str, str] = ("from", "to")) -> tuple[date, date]:
    """An API list's ``?from=&to=`` (or one ``?gaming_day=``); by default the last ``DEFAULT_DAYS``
    gaming days to the caller's today. A bad date or a period over ``MAX_DAYS``: a field 400.
    ``names``: the two parameters, where a list already called them otherwise (``since``/``until``)."""
    params = request.query_params
    since, until = query_date(params, names[0]), query_date(params, names[1])
    day = query_date(params)
    if day is not None and since is None and until is None:
        return day, day
    since, until = default_period(since, until, today_of(request.user))
    error = period_error(since, until, until_field=names[1])
    if error:
        raise serializers.ValidationError(error)
    return since, until


def period_parameters(first: str = "from", last: str = "to") -> list[OpenApiParameter]:
    """The period parameters of an API list, for its schema."""
    return [
        OpenApiParameter(first, str, description=f"YYYY-MM-DD, the period's first gaming day (default: {DEFAULT_DAYS} "
                                                 f"days to `{last}`); a period of at most {MAX_DAYS} days"),
        OpenApiParameter(last, str, description="YYYY-MM-DD, the period's last gaming day (default: today's, or "
                                                f"{DEFAULT_DAYS} days from `{first}`)"),
    ]


#: The API lists' period parameters, for their schema.
PERIOD_PARAMETERS = period_parameters()
#: ``?gaming_day=``, the one-day period, for a list whose filters do not already name it.
PERIOD_DAY_PARAMETER = OpenApiParameter(
    "gaming_day", str, description="YYYY-MM-DD: the period of this one gaming day (instead of `from` and `to`)")


class PeriodBoundedListMixin:
    """For DRF list views: the list reads one period of gaming days (:func:`api_period`) through
    ``period_paths`` (each path the same day, said of every partitioned table the list joins, so
    PostgreSQL prunes each to the period's months); a single object (retrieve, actions) is found
    whatever its day."""

    period_paths: tuple[str, ...] = ("gaming_day",)
    #: The query parameters of the period's first and last day.
    period_params: tuple[str, str] = ("from", "to")
    #: A partitioned table's view: a single object's query also names the object's own gaming day
    #: through every path, read first from the row by its key (one index probe a month kept), so
    #: the query that joins the other partitioned tables plans one month, not every month kept.
    object_day: bool = False

    def get_queryset(self):
        queryset = super().get_queryset()
        kwarg = self.lookup_url_kwarg or self.lookup_field
        if not self.object_day or getattr(self, "action", None) == "list" or kwarg not in self.kwargs:
            return queryset
        try:
            day = (queryset.model._default_manager.filter(**{self.lookup_field: self.kwargs[kwarg]})
                   .order_by().values_list("gaming_day", flat=True).first())
        except (TypeError, ValueError, ValidationError):
            return queryset  # get_object answers 404 for a key of the wrong type
        if day is None:
            return queryset
        return self.period_filter(queryset, day, day)

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        if getattr(self, "action", None) == "list":
            since, until = api_period(self.request, self.period_params)
            queryset = self.period_filter(queryset, since, until)
        return queryset

    def period_filter(self, queryset, since: date, until: date):
        """The rows of gaming days ``since``..``until``; a list whose rows cover a span of days
        (an investigation's period) says here what "in the period" means. One day is said as an
        equality: an index (gaming_day, x) then gives the rows in x's order (a range would not)."""
        if since == until:
            return queryset.filter(**dict.fromkeys(self.period_paths, since))
        return queryset.filter(**{f"{path}__range": (since, until) for path in self.period_paths})
