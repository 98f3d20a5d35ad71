"""Times as people on the floor read them: in the casino's own zone, with the zone named.

Stored times are UTC and the API gives them as UTC ISO-8601; pages, exports and messages
show them through :func:`local_time_text`, the one format of the project:
``2026-11-23 14:05 EST`` (a zone without a letter abbreviation: ``14:05 UTC+03:00``).
A page that lists records of several casinos shows each in its own casino's zone.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

#: What to show: the date and the time (default), the time only (a page already says which
#: day), or with seconds (a ledger, a heartbeat).
FORMATS = {"datetime": "%Y-%m-%d %H:%M", "time": "%H:%M", "seconds": "%Y-%m-%d %H:%M:%S", "date": "%Y-%m-%d"}


def zone_of(where) -> str:
    """A zone name from a zone name, a Casino, or anything that leads to one (a table, a
    report, a bank): the record's own casino decides how its times are shown."""
    if isinstance(where, str):
        return where
    for attr in ("time_zone", "casino", "pit", "table", "bank", "round"):
        value = getattr(where, attr, None)
        if value is not None and value != "":
            return zone_of(value)
    raise ValueError(f"no time zone for {where!r}")


def zone_label(local: datetime) -> str:
    """``EST``, ``CET``, ``UTC``; ``UTC+03:00`` where the zone has no letter abbreviation."""
    name = local.tzname() or ""
    if name[:1].isalpha():
        return name
    offset = local.utcoffset() or timedelta(0)
    sign = "-" if offset < timedelta(0) else "+"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def local_time(moment: datetime, where) -> datetime:
    """``moment`` (aware) in the zone of ``where`` (see :func:`zone_of`)."""
    if moment.tzinfo is None:
        raise ValueError("local_time needs an aware datetime")
    return moment.astimezone(ZoneInfo(zone_of(where)))


def local_time_text(moment: datetime | None, where, style: str = "datetime") -> str:
    """``2026-11-23 14:05 EST``; ``style`` is one of :data:`FORMATS`. None gives ""."""
    if moment is None:
        return ""
    local = local_time(moment, where)
    if style == "date":
        return local.strftime(FORMATS["date"])
    return f"{local.strftime(FORMATS[style])} {zone_label(local)}"
