"""The tablet's floor: the pit's live view, a table's page, open/close and dealer change."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from casino.field_words import page_errors
from casino.gaming_day import current_gaming_day
from casino.local_time import local_time_text
from casino.periods import today_of
from casino.permissions import role_required
from casino.roles import PIT_BOSS
from casino.scoping import scope, user_casino_ids
from tables.models import Table
from tables.pages.forms import DealerForm
from tables.pages.selectors import corrections_requested, pit_live_view, table_rounds_today
from tables.services.sessions import (
    dealer_on_duty,
    slipless_reason,
    table_session_close,
    table_session_current,
    table_session_dealer_change,
    table_session_open,
)


def _errors(request, exc: ValidationError) -> None:
    for sentence in page_errors(exc):
        messages.error(request, sentence)


@role_required(PIT_BOSS)
def floor(request):
    return render(
        request,
        "tablet/floor.html",
        {
            "pits": pit_live_view(casinos=user_casino_ids(request.user)),
            "asked": corrections_requested(recorded_by=request.user, today=today_of(request.user))[:20],
        },
    )


def _table(request, pk: int) -> Table:
    return get_object_or_404(
        scope(Table.objects.select_related("pit__casino", "ruleset"), request.user, "pit__casino"), pk=pk)


@role_required(PIT_BOSS)
def table_page(request, pk: int):
    table = _table(request, pk)
    session = table_session_current(table)
    day, rounds = table_rounds_today(table)
    return render(
        request,
        "tablet/table.html",
        {
            "table": table,
            "session": session,
            "dealer": dealer_on_duty(session) if session else None,
            "form": DealerForm(table=table),
            "day": day,
            "rounds": rounds[:50],
            "asked": corrections_requested(table=table, today=current_gaming_day(table.pit.casino)),
        },
    )


@require_POST
@role_required(PIT_BOSS)
def table_open(request, pk: int):
    table = _table(request, pk)
    form = DealerForm(request.POST, table=table)
    # The opener slip is the way to open (the chips page); opening without one says why.
    try:
        reason = slipless_reason(request.POST.get("reason"), closing=False)
    except ValidationError as exc:
        _errors(request, exc)
    else:
        if form.is_valid():
            try:
                table_session_open(table=table, dealer=form.cleaned_data["dealer"], author=request.user,
                                   reason=reason)
                messages.success(
                    request, f"Table {table.label} is open with {form.cleaned_data['dealer'].name}."
                )
            except ValidationError as exc:
                _errors(request, exc)
        else:
            messages.error(request, "Dealer: choose the dealer who opens the table")
    return redirect("tablet-table", pk=table.pk)


@require_http_methods(["GET", "POST"])
@role_required(PIT_BOSS)
def table_close(request, pk: int):
    """Close in two steps: this page says what closing ends, then a confirmed POST closes.

    A POST without ``confirm`` changes nothing (it shows the same page); a confirmation for a
    session that is no longer the open one (closed and opened again meanwhile) is refused."""
    table = _table(request, pk)
    session = table_session_current(table)
    if session is None:
        messages.error(request, f"Table {table.label} is already closed.")
        return redirect("tablet-table", pk=table.pk)
    dealer = dealer_on_duty(session)
    day, rounds = table_rounds_today(table)
    reason = request.POST.get("reason", "").strip()
    confirmed = request.method == "POST" and request.POST.get("confirm") == "yes"
    refused = None
    if confirmed:
        try:
            reason = slipless_reason(reason, closing=True)
        except ValidationError as exc:
            refused = exc
    if refused is not None:
        _errors(request, refused)
    elif confirmed:
        if request.POST.get("session") != str(session.pk):
            messages.error(request, f"Table {table.label} changed since you confirmed; nothing was "
                                    "closed. Check it and confirm again.")
            return redirect("tablet-table-close", pk=table.pk)
        try:
            closed = table_session_close(session=session, author=request.user, reason=reason)
        except ValidationError as exc:
            _errors(request, exc)
        else:
            ended = f"session of {dealer.name} ended" if dealer else "session ended (no dealer on duty)"
            messages.success(request, f"Table {table.label} closed at {local_time_text(closed.closed_at, table.pit.casino, 'time')}: "
                                      f"{ended}, {_rounds(rounds.count())} today.")
        return redirect("tablet-table", pk=table.pk)
    return render(request, "tablet/table_close.html", {
        "table": table, "session": session, "dealer": dealer, "day": day, "rounds": rounds.count(), "reason": reason,
        "opened": local_time_text(session.opened_at, table.pit.casino, 'time')})


def _rounds(n: int) -> str:
    return f"{n} round{'' if n == 1 else 's'}"


@require_POST
@role_required(PIT_BOSS)
def table_dealer(request, pk: int):
    table = _table(request, pk)
    session = table_session_current(table)
    form = DealerForm(request.POST, table=table)
    if session is None:
        messages.error(request, f"Table {table.label} is closed; open it first.")
    elif form.is_valid():
        try:
            table_session_dealer_change(
                session=session, dealer=form.cleaned_data["dealer"], author=request.user
            )
            messages.success(
                request, f"{form.cleaned_data['dealer'].name} is now dealing {table.label}."
            )
        except ValidationError as exc:
            _errors(request, exc)
    else:
        messages.error(request, "Dealer: choose the new dealer")
    return redirect("tablet-table", pk=table.pk)
