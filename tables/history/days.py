"""The gaming days a period holds rows of, with their tables: what the rebuilds of the derived
tables (rollups, rating sessions, count lines) walk, a day at a time."""

from __future__ import annotations

from collections import defaultdict
from datetime import date


def days_with_tables(*models, since: date | None = None, until: date | None = None) -> dict[date, list[int]]:
    """``{gaming day: [table ids]}`` of the days of ``since``..``until`` (open ends: all) on which
    any of ``models`` (each with ``gaming_day`` and ``table``) has a row; days and tables sorted."""
    pairs: set[tuple[date, int]] = set()
    for model in models:
        rows = model.objects.order_by().values_list("gaming_day", "table_id").distinct()
        if since:
            rows = rows.filter(gaming_day__gte=since)
        if until:
            rows = rows.filter(gaming_day__lte=until)
        pairs |= {(date.fromisoformat(d) if isinstance(d, str) else d, t) for d, t in rows}
    by_day: dict[date, list[int]] = defaultdict(list)
    for day, table_id in sorted(pairs):
        by_day[day].append(table_id)
    return dict(by_day)
