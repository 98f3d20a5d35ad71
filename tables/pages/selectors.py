"""Reads for the tablet: the pit's live view and a table's day. Aggregated in SQL."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from casino.gaming_day import gaming_day_of
from casino.models import Casino
from casino.scoping import narrow
from tables.models import DealerAssignment, Round, Table, TableSession


def current_gaming_days(now=None, casinos=None) -> dict[int, object]:
    """Each casino's gaming day now (from its own time zone and start hour); of the casinos
    with ids ``casinos``, or every casino when ``None``."""
    now = now or timezone.now()
    return {
        c.pk: gaming_day_of(now, c.time_zone, c.gaming_day_start_hour)
        for c in narrow(Casino.objects.all(), casinos, "pk")
    }


def pit_live_view(now=None, casinos=None) -> list[dict]:
    """Every table by pit: open or closed, game, dealer on duty, rounds today, open findings."""
    days = current_gaming_days(now, casinos)
    on_duty = DealerAssignment.objects.filter(
        session__table=OuterRef("pk"), session__closed_at__isnull=True, ended_at__isnull=True
    )
    session = TableSession.objects.filter(table=OuterRef("pk"), closed_at__isnull=True)
    tables = []
    for casino_id, day in days.items():
        # Today's rounds of each table, read through the (gaming_day, table) index: a join of
        # every round the table ever had, filtered afterwards, grew with the years of history.
        today = (Round.objects.filter(table=OuterRef("pk"), gaming_day=day, status=Round.ACTIVE)
                 .order_by().values("table"))
        tables += list(
            Table.objects.filter(pit__casino_id=casino_id)
            .select_related("pit", "ruleset")
            .annotate(
                session_id=Subquery(session.values("pk")[:1]),
                dealer_name=Subquery(on_duty.values("dealer__name")[:1]),
                rounds_today=Coalesce(Subquery(today.annotate(n=Count("pk")).values("n")), Value(0),
                                      output_field=IntegerField()),
                open_findings_today=Coalesce(Subquery(today.annotate(n=Sum("open_findings")).values("n")),
                                             Value(0), output_field=IntegerField()),
            )
            .order_by("pit__name", "label")
        )
    pits: dict[int, dict] = {}
    for t in tables:
        pits.setdefault(t.pit_id, {"pit": t.pit, "tables": []})["tables"].append(t)
    return sorted(pits.values(), key=lambda p: p["pit"].name)


def table_rounds_today(table: Table, now=None):
    casino = table.pit.casino
    day = gaming_day_of(now or timezone.now(), casino.time_zone, casino.gaming_day_start_hour)
    return day, (
        Round.objects.filter(table=table, gaming_day=day)
        .select_related("dealer", "recorded_by")
        .order_by("-sequence")
    )
