"""Opening and closing tables, and who deals them.

A session belongs to one gaming day. A table left open across the gaming-day start rolls
over: the first round, dealer change or close after the start hour closes the old session
at the end of its day and opens a continuation for the new day at the day's start, with the
same dealer on duty, in the same transaction (:func:`table_session_roll_over`).
"""

from __future__ import annotations

from datetime import date, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from casino.audit_guard import allow_audit_write
from casino.gaming_day import gaming_day_bounds, gaming_day_of
from casino.local_time import local_time_text
from tables.closed_days import refuse_closed_day
from tables.models import Dealer, DealerAssignment, Table, TableSession
from tables.round_effects import round_ledgers

_JUST_BEFORE = timedelta(microseconds=1)

#: Sent inside the roll-over's transaction, under the table's lock, with ``old`` (closed at
#: its day's end), ``new`` (its continuation), ``at`` (the new day's start) and ``author``:
#: table accounting closes and reopens the table's chip inventory on paper there.
session_rolled_over = Signal()


def _save_table_state(table: Table, *, is_open: bool, author, reason: str) -> None:
    table.is_open = is_open
    table._change_reason = reason
    table._history_user = author
    table.save(update_fields=["is_open"])


#: How long a slip-less open or close may say why (the session's history reason holds it).
SLIPLESS_REASON_MAX = 200


def slipless_reason(reason: str | None, *, closing: bool) -> str:
    """Why a table opens without its opener or closes without its closer, checked.

    The slip is the way a table opens and closes (its chips counted and signed, the table's
    book moved); the slip-less path stays for a table that opens without chips on it or an
    emergency, and says why, on the tablet and over the API alike."""
    text = (reason or "").strip()
    if not text:
        raise ValidationError({"reason": [
            "Say why the table closes without a closer slip (or close it with a closer)" if closing else
            "Say why the table opens without an opener slip (or open it with an opener)"]})
    if len(text) > SLIPLESS_REASON_MAX:
        raise ValidationError({"reason": [f"At most {SLIPLESS_REASON_MAX} characters ({len(text)} given)"]})
    return text


def _check_dealer(dealer: Dealer, table: Table) -> None:
    if not dealer.active:
        raise ValidationError({"dealer": [f"{dealer} is not an active dealer"]})
    if dealer.casino_id != table.pit.casino_id:
        raise ValidationError({"dealer": [f"{dealer} works at another casino"]})


@transaction.atomic
def table_session_open(*, table: Table, dealer: Dealer, author, at=None, reason: str = "") -> TableSession:
    """Open ``table`` for the current gaming day with ``dealer`` on duty. ``reason``: why it
    opens without an opener slip, kept as the session's history reason."""
    at = at or timezone.now()
    table = Table.objects.select_for_update(of=("self",)).select_related("pit__casino").get(pk=table.pk)
    if TableSession.objects.filter(table=table, closed_at__isnull=True).exists():
        raise ValidationError({"table": [f"Table {table.label} is already open"]})
    _check_dealer(dealer, table)
    for ledger in round_ledgers():
        ledger.bank_required(table)
    casino = table.pit.casino
    session = TableSession(table=table, opened_at=at, opened_by=author,
                           gaming_day=gaming_day_of(at, casino.time_zone, casino.gaming_day_start_hour))
    refuse_closed_day(casino.pk, session.gaming_day)
    session._history_user = author
    session._change_reason = f"table opened without an opener: {reason}" if reason else "table opened"
    session.save()
    DealerAssignment.objects.create(session=session, dealer=dealer, started_at=at, assigned_by=author)
    _save_table_state(table, is_open=True, author=author, reason="table opened")
    return session


def table_session_roll_over(*, session_id: int, day: date, time_zone: str, start_hour: int, author) -> TableSession:
    """Close a session left open past its gaming day at that day's end, and open its
    continuation for ``day`` at that day's start, with the dealer on duty dealing on.

    The caller holds the table's row lock (rounds, dealer changes and closes all take it
    first), so the table's rounds before and after the start hour stay numbered in order.
    """
    allow_audit_write()  # the old session's and its assignment's end times are set once
    old = TableSession.objects.select_for_update(of=("self",)).get(pk=session_id)
    if old.closed_at is not None:
        raise ValidationError({"table": ["The table was closed meanwhile; open it before recording rounds"]})
    ended = gaming_day_bounds(old.gaming_day, time_zone, start_hour)[1]
    started = gaming_day_bounds(day, time_zone, start_hour)[0]
    old.closed_at, old.closed_by = ended, None
    old._history_user = author
    old._change_reason = f"rolled over: gaming day {old.gaming_day} ended with the table open; continued on {day}"
    old.save(update_fields=["closed_at", "closed_by"])
    on_duty = DealerAssignment.objects.filter(session=old, ended_at__isnull=True).first()
    new = TableSession(table_id=old.table_id, gaming_day=day, opened_at=started, opened_by_id=old.opened_by_id,
                       continues=old)
    new._history_user = author
    new._change_reason = f"continues session {old.pk} of gaming day {old.gaming_day}: the table stayed open"
    new.save()
    if on_duty is not None:
        on_duty.ended_at = ended
        on_duty.save(update_fields=["ended_at"])
        DealerAssignment.objects.create(session=new, dealer_id=on_duty.dealer_id, started_at=started,
                                        assigned_by_id=on_duty.assigned_by_id)
    session_rolled_over.send(sender=TableSession, old=old, new=new, at=started, author=author)
    return new


def table_session_for_moment(*, session_id: int, session_day: date, at, time_zone: str, start_hour: int,
                             label: str, author) -> tuple[int, date]:
    """The open session for the gaming day of ``at``, and that day: the open one, or its
    continuation after a roll-over when ``at`` falls on a later gaming day. A moment before
    the session's day is refused. The caller holds the table's row lock."""
    day = gaming_day_of(at, time_zone, start_hour)
    if day == session_day:
        return session_id, day
    if day < session_day:
        raise ValidationError({"table": [f"Table {label} is open for gaming day {session_day}; "
                                         f"{local_time_text(at, time_zone)} belongs to gaming day {day}"]})
    session = table_session_roll_over(session_id=session_id, day=day, time_zone=time_zone,
                                      start_hour=start_hour, author=author)
    return session.pk, day


def _open_session_now(session: TableSession, *, at, author, closing: bool = False) -> TableSession:
    """Lock the table, then its session (the recorder's order: no deadlock), follow a session
    that was rolled over to its continuation, and roll it over if ``at`` is a later gaming day
    (``closing``: the table is open until just before ``at``, so a close at the start hour
    itself ends the old day)."""
    table = Table.objects.select_for_update(of=("self",)).select_related("pit__casino").get(pk=session.table_id)
    session = TableSession.objects.select_for_update(of=("self",)).get(pk=session.pk)
    while session.closed_at is not None:
        continuation = TableSession.objects.select_for_update(of=("self",)).filter(continues=session).first()
        if continuation is None:
            break
        session = continuation
    if session.closed_at is None:
        casino = table.pit.casino
        session_id, _ = table_session_for_moment(
            session_id=session.pk, session_day=session.gaming_day, at=at - _JUST_BEFORE if closing else at,
            time_zone=casino.time_zone, start_hour=casino.gaming_day_start_hour, label=table.label, author=author)
        if session_id != session.pk:
            session = TableSession.objects.get(pk=session_id)
    session.table = table
    return session


@transaction.atomic
def table_session_close(*, session: TableSession, author, at=None, reason: str = "") -> TableSession:
    """Close the table's session. ``reason``: why it closes without a closer slip, kept as the
    session's history reason."""
    at = at or timezone.now()
    allow_audit_write()  # the session's and the assignment's end times are set once
    session = _open_session_now(session, at=at, author=author, closing=True)
    if session.closed_at is not None:
        raise ValidationError({"session": [f"Table {session.table.label} is already closed"]})
    refuse_closed_day(session.table.pit.casino_id, session.gaming_day)
    session.closed_at, session.closed_by = at, author
    session._history_user = author
    session._change_reason = f"table closed without a closer: {reason}" if reason else "table closed"
    session.save(update_fields=["closed_at", "closed_by"])
    DealerAssignment.objects.filter(session=session, ended_at__isnull=True).update(ended_at=at)
    _save_table_state(session.table, is_open=False, author=author, reason="table closed")
    return session


@transaction.atomic
def table_session_dealer_change(*, session: TableSession, dealer: Dealer, author, at=None) -> DealerAssignment:
    """Relieve the dealer on duty and put ``dealer`` in; both times are kept."""
    at = at or timezone.now()
    session = _open_session_now(session, at=at, author=author)
    if session.closed_at is not None:
        raise ValidationError({"session": [f"Table {session.table.label} is closed"]})
    refuse_closed_day(session.table.pit.casino_id, session.gaming_day)
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
