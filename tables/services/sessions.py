"""Opening and closing tables, and who deals them."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from casino.audit_guard import allow_audit_write
from casino.gaming_day import gaming_day_of
from tables.models import Dealer, DealerAssignment, Table, TableSession


def _save_table_state(table: Table, *, is_open: bool, author, reason: str) -> None:
    table.is_open = is_open
    table._change_reason = reason
    table._history_user = author
    table.save(update_fields=["is_open"])


def _check_dealer(dealer: Dealer, table: Table) -> None:
    if not dealer.active:
        raise ValidationError({"dealer": [f"{dealer} is not an active dealer"]})
    if dealer.casino_id != table.pit.casino_id:
        raise ValidationError({"dealer": [f"{dealer} works at another casino"]})


@transaction.atomic
def table_session_open(*, table: Table, dealer: Dealer, author, at=None) -> TableSession:
    """Open ``table`` for the current gaming day with ``dealer`` on duty."""
    at = at or timezone.now()
    table = Table.objects.select_for_update(of=("self",)).select_related("pit__casino").get(pk=table.pk)
    if TableSession.objects.filter(table=table, closed_at__isnull=True).exists():
        raise ValidationError({"table": [f"Table {table.label} is already open"]})
    _check_dealer(dealer, table)
    casino = table.pit.casino
    session = TableSession(table=table, opened_at=at, opened_by=author,
                           gaming_day=gaming_day_of(at, casino.time_zone, casino.gaming_day_start_hour))
    session._history_user = author
    session._change_reason = "table opened"
    session.save()
    DealerAssignment.objects.create(session=session, dealer=dealer, started_at=at, assigned_by=author)
    _save_table_state(table, is_open=True, author=author, reason="table opened")
    return session


@transaction.atomic
def table_session_close(*, session: TableSession, author, at=None) -> TableSession:
    at = at or timezone.now()
    allow_audit_write()  # the session's and the assignment's end times are set once
    session = TableSession.objects.select_for_update(of=("self",)).select_related("table").get(pk=session.pk)
    if session.closed_at is not None:
        raise ValidationError({"session": [f"Table {session.table.label} is already closed"]})
    session.closed_at, session.closed_by = at, author
    session._history_user, session._change_reason = author, "table closed"
    session.save(update_fields=["closed_at", "closed_by"])
    DealerAssignment.objects.filter(session=session, ended_at__isnull=True).update(ended_at=at)
    _save_table_state(session.table, is_open=False, author=author, reason="table closed")
    return session


@transaction.atomic
def table_session_dealer_change(*, session: TableSession, dealer: Dealer, author, at=None) -> DealerAssignment:
    """Relieve the dealer on duty and put ``dealer`` in; both times are kept."""
    at = at or timezone.now()
    session = TableSession.objects.select_for_update(of=("self",)).select_related("table__pit").get(pk=session.pk)
    if session.closed_at is not None:
        raise ValidationError({"session": [f"Table {session.table.label} is closed"]})
    _check_dealer(dealer, session.table)
    current = session.assignments.filter(ended_at__isnull=True).first()
    if current is not None and current.dealer_id == dealer.pk:
        raise ValidationError({"dealer": [f"{dealer} is already dealing this table"]})
    if current is not None:
        allow_audit_write()  # the assignment's end time is set once
        current.ended_at = at
        current.save(update_fields=["ended_at"])
    return DealerAssignment.objects.create(session=session, dealer=dealer, started_at=at, assigned_by=author)


def table_session_current(table: Table) -> TableSession | None:
    return TableSession.objects.filter(table=table, closed_at__isnull=True).first()


def dealer_on_duty(session: TableSession) -> Dealer | None:
    assignment = session.assignments.filter(ended_at__isnull=True).select_related("dealer").first()
    return assignment.dealer if assignment else None
