"""``{% load local_time %}``: ``{{ round.recorded_at|local:table }}`` shows a stored UTC time
in the zone of the record's own casino, with the zone named (``casino/local_time.py``)."""

from __future__ import annotations

from django import template

from casino.local_time import local_time_text

register = template.Library()


@register.filter
def local(moment, where):
    """Date and time: ``2026-11-23 14:05 EST``."""
    return local_time_text(moment, where)


@register.filter
def local_hm(moment, where):
    """Time only, for a page that already names the day: ``14:05 EST``."""
    return local_time_text(moment, where, "time")


@register.filter
def local_s(moment, where):
    """With seconds (a ledger, a run's heartbeat): ``2026-11-23 14:05:09 EST``."""
    return local_time_text(moment, where, "seconds")


@register.filter
def local_date(moment, where):
    """The casino's calendar date of a moment (not its gaming day): ``2026-11-23``."""
    return local_time_text(moment, where, "date")
