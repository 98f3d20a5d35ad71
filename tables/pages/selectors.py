"""Reads for the tablet: the pit's live view and a table's day. Aggregated in SQL."""

from __future__ import annotations

from datetime import date, timedelta

from django.db.models import (
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from casino.gaming_day import gaming_day_of
from casino.models import Casino
from casino.periods import DEFAULT_DAYS
from casino.scoping import narrow
from tables.closing.models import DayClose
from tables.models import DealerAssignment, Finding, Round, Table, TableSession


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


# --- corrections asked for -------------------------------------------------------------------


def corrections_requested(*, today: date, recorded_by=None, table=None) -> QuerySet[Finding]:
    """Findings dismissed as a recording mistake whose round has not been corrected since.

    Dismissing a finding is surveillance's way of asking the recorder for a correction; the
    request stands while the dismissed finding still belongs to the round's current revision.
    Only the requests the pit can still act on are listed: rounds of the last ``DEFAULT_DAYS``
    gaming days up to ``today`` whose day is not closed (a closed day refuses corrections; a
    gaming manager reopens it first). So the tablet's list reads one period, not the years of
    history: an unanswered request on a closed day is the close's business, not the pit's.
    """
    since = today - timedelta(days=DEFAULT_DAYS - 1)
    closed = DayClose.objects.filter(casino_id=OuterRef("round__table__pit__casino_id"),
                                     gaming_day=OuterRef("gaming_day"), reopen__isnull=True)
    qs = Finding.objects.select_related("round__table", "reviewed_by").filter(
        status=Finding.DISMISSED, round__status=Round.ACTIVE, revision__number=F("round__revision"),
        # The round's day too, so PostgreSQL reads the period's partitions of rounds as well.
        gaming_day__range=(since, today), round__gaming_day__range=(since, today),
    ).exclude(Exists(closed))
    if recorded_by is not None:
        qs = qs.filter(round__recorded_by=recorded_by)
    if table is not None:
        qs = qs.filter(round__table=table)
    return qs.order_by("-reviewed_at")
