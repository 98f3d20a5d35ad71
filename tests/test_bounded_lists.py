"""Every API list of rows that pile up day by day reads one bounded period (issue #20).

The first test walks the URLconf: each DRF ``list`` route whose model has a gaming day -- its
own ``gaming_day``, or one a forward relation one step away has (a count's box, an adjustment's
ledger posting), or one declared in :data:`DAY_PATHS` -- must be a
:class:`casino.periods.PeriodBoundedListMixin`, or be in :data:`UNBOUNDED` with the reason.
A new list of such rows added without a period fails here.
"""

from __future__ import annotations

import pytest
from django.db import models
from django.urls import URLPattern, URLResolver, get_resolver

from casino.periods import PeriodBoundedListMixin

#: Models whose gaming day the walk cannot find by itself: model label -> the path(s) of its days.
DAY_PATHS: dict[str, tuple[str, ...]] = {
    # An investigation covers a period of gaming days (a day or a month), not one day.
    "fluctuations.Investigation": ("period_start", "period_end"),
}

#: Lists of rows with a gaming day that are not period-bounded, each with its reason. Short on purpose.
UNBOUNDED: dict[str, str] = {
    "jackpot-adjustment-list": (
        "manual requests for a meter or reserve change (a few a month, none written by play); the row "
        "has no gaming day of its own (only its ledger posting once approved), and the requests "
        "awaiting a second gaming manager are a queue that a window of days would hide"),
}


def _list_routes(resolver=None, prefix=""):
    """(url name, viewset class) of every DRF route whose GET is ``list``."""
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield from _list_routes(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            actions = getattr(entry.callback, "actions", None) or {}
            cls = getattr(entry.callback, "cls", None)
            if cls is not None and actions.get("get") == "list":
                yield entry.name, cls


def _day_paths(model) -> tuple[str, ...]:
    """The paths from ``model`` to a gaming day (its own, or one forward relation away)."""
    if model._meta.label in DAY_PATHS:
        return DAY_PATHS[model._meta.label]
    fields = {field.name: field for field in model._meta.get_fields()}
    if "gaming_day" in fields:
        return ("gaming_day",)
    return tuple(f"{field.name}__gaming_day" for field in fields.values()
                 if isinstance(field, (models.ForeignKey, models.OneToOneField))
                 and any(f.name == "gaming_day" for f in field.related_model._meta.get_fields()))


def _dated_lists() -> dict[str, tuple[type, tuple[str, ...]]]:
    found = {}
    for name, cls in _list_routes():
        queryset = getattr(cls, "queryset", None)
        if queryset is not None and (paths := _day_paths(queryset.model)):
            found[name] = (cls, paths)
    return found


def test_the_walk_finds_the_lists_of_dated_rows():
    """The walk itself: it sees the lists it must (a direct day, a day through the box, a declared period)."""
    found = _dated_lists()
    for name in ("round-list", "finding-list", "buyin-list", "softcount-list", "investigation-api-list",
                 "cashout-list", "tablesession-list", "jackpot-adjustment-list"):
        assert name in found, name
    assert found["softcount-list"][1] == ("box__gaming_day",)


def test_every_list_of_dated_rows_is_period_bounded():
    unbounded = sorted(name for name, (cls, _paths) in _dated_lists().items()
                       if not issubclass(cls, PeriodBoundedListMixin) and name not in UNBOUNDED)
    assert unbounded == [], f"API lists of every gaming day ever recorded: {unbounded}"


def test_the_exceptions_are_still_exceptions():
    """An allow-listed list that has since been bounded (or removed) leaves the allow-list."""
    found = _dated_lists()
    stale = sorted(name for name in UNBOUNDED if name not in found or issubclass(found[name][0],
                                                                                 PeriodBoundedListMixin))
    assert stale == []


@pytest.mark.parametrize("name", sorted(_dated_lists()))
def test_a_bounded_list_names_real_paths(name):
    """Each bounded list's ``period_paths`` are its model's (a typo would be a 500 at the first list)."""
    cls, _paths = _dated_lists()[name]
    if not issubclass(cls, PeriodBoundedListMixin) or getattr(cls, "period_filter", None) is not \
            PeriodBoundedListMixin.period_filter:
        return
    model = cls.queryset.model
    for path in cls.period_paths:
        model.objects.filter(**{f"{path}__range": ("2026-01-01", "2026-01-31")}).query.__str__()
