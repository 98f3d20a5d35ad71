"""Pages: a table's chips on the tablet (opener, fills and credits, closer), the cage, and the
day's slips and exceptions (page, CSV, XLSX). They parse the form and call the services."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from casino.flash import flash_errors
from casino.gaming_day import current_gaming_day
from casino.models import Casino
from casino.permissions import role_required
from casino.roles import CAGE, COMPLIANCE, FINANCE, GAMING_MANAGER, PIT_BOSS, SURVEILLANCE
from casino.scoping import scope, user_casino_ids
from tables.accounting.api import VOIDERS
from tables.accounting.exports import download
from tables.accounting.models import ChipSlip
from tables.accounting.selectors import (
    EXCEPTION_COLUMNS,
    SLIP_COLUMNS,
    active_denominations,
    chip_slips,
    day_slip_rows,
    exception_rows,
    inventory_slips,
)
from tables.accounting.services.inventory import inventory_close, inventory_open
from tables.accounting.services.transfers import (
    chip_slip_issue,
    chip_slip_receive,
    chip_slip_request,
    chip_slip_void_confirm,
    chip_slip_void_request,
)
from tables.models import Dealer, Table
from tables.services.sessions import dealer_on_duty, table_session_current

#: Who reads the day's slips and the exception report.
REPORT_READERS = (FINANCE, GAMING_MANAGER, SURVEILLANCE, COMPLIANCE, CAGE)


def table_in_scope(request, pk: int) -> Table:
    return get_object_or_404(scope(Table.objects.select_related("pit__casino"), request.user, "pit__casino"), pk=pk)


def _slip(request, pk: int) -> ChipSlip:
    return get_object_or_404(chip_slips(user_casino_ids(request.user)), pk=pk)


def _counts(request, casino) -> list[dict]:
    """The form's chip fields (``count-<denomination id>``), blanks left out, as the services
    take them; what is typed is passed on for the one rule to judge."""
    return [{"denomination": str(d.value), "count": request.POST[f"count-{d.pk}"].strip()}
            for d in active_denominations(casino) if request.POST.get(f"count-{d.pk}", "").strip()]


def _attempt(request, success: str, call) -> bool:
    try:
        call()
    except ValidationError as exc:
        flash_errors(request, exc)
        return False
    messages.success(request, success)
    return True


@role_required(PIT_BOSS)
def table_chips(request, pk: int):
    return _chips_page(request, table_in_scope(request, pk))


def _chips_page(request, table: Table, *, refused: str = "", status: int = 200):
    """The chips page; after a refusal (``refused``: the form's prefix) at status 400 with what
    was typed in that form kept: each chip count and the dealer chosen. The badge is not sent
    back: it was the wrong one, or another field was, and a badge is never echoed in a page."""
    casino = table.pit.casino
    session = table_session_current(table)
    day = current_gaming_day(casino, timezone.now())
    denominations = list(active_denominations(casino))
    typed_dealer = None
    if refused:
        for d in denominations:
            d.typed = request.POST.get(f"count-{d.pk}", "").strip()
        typed_dealer = request.POST.get("dealer", "")
        typed_dealer = int(typed_dealer) if typed_dealer.isdigit() else None
    return render(request, "tablet/chips.html", {
        "table": table, "session": session, "day": day,
        "dealer": dealer_on_duty(session) if session else None,
        "dealers": Dealer.objects.filter(casino=casino, active=True),
        "denominations": denominations, "refused": refused, "typed_dealer": typed_dealer,
        "slips": chip_slips(None, table=table).filter(gaming_day__gte=day).order_by("-requested_at")[:40],
        "open_slips": chip_slips(None, table=table, status__in=ChipSlip.OPEN).filter(gaming_day__lt=day),
        "inventory": inventory_slips(None, table=table).order_by("-recorded_at", "-id")[:4],
    }, status=status)


@require_POST
@role_required(PIT_BOSS)
def table_chips_inventory(request, pk: int, kind: str):
    table = table_in_scope(request, pk)
    service = inventory_open if kind == "opener" else inventory_close
    if not _attempt(request, f"{kind.capitalize()} of {table.label} recorded.", lambda: service(
            table=table, dealer=request.POST.get("dealer", ""), dealer_badge=request.POST.get("dealer_badge", ""),
            counts=_counts(request, table.pit.casino), author=request.user)):
        return _chips_page(request, table, refused=kind, status=400)
    return redirect("tablet-chips", pk=table.pk)


@require_POST
@role_required(PIT_BOSS)
def table_chips_request(request, pk: int, kind: str):
    table = table_in_scope(request, pk)
    if not _attempt(request, f"{kind.capitalize()} requested: the cage has it.", lambda: chip_slip_request(
            table=table, kind=kind, counts=_counts(request, table.pit.casino), author=request.user)):
        return _chips_page(request, table, refused=kind, status=400)
    return redirect("tablet-chips", pk=table.pk)


@require_POST
@role_required(PIT_BOSS)
def slip_receive(request, pk: int):
    slip = _slip(request, pk)
    if not _attempt(request, f"{slip.label} received.", lambda: chip_slip_receive(
            slip=slip, author=request.user, dealer=request.POST.get("dealer") or None,
            dealer_badge=request.POST.get("dealer_badge", ""))):
        return _chips_page(request, table_in_scope(request, slip.table_id), refused=f"receive-{slip.label}",
                           status=400)
    return redirect("tablet-chips", pk=slip.table_id)


def _back(request, fallback: str):
    target = request.POST.get("next", "")
    return redirect(target if target in ("/cage/",) or target.startswith("/tablet/") else fallback)


@require_POST
@role_required(*VOIDERS)
def slip_void(request, pk: int):
    slip = _slip(request, pk)
    _attempt(request, f"Void of {slip.label} asked: a second person confirms it.", lambda: chip_slip_void_request(
        slip=slip, reason=request.POST.get("reason", ""), author=request.user))
    return _back(request, "cage")


@require_POST
@role_required(*VOIDERS)
def slip_void_confirm(request, pk: int):
    slip = _slip(request, pk)
    _attempt(request, f"{slip.label} voided.", lambda: chip_slip_void_confirm(slip=slip, author=request.user))
    return _back(request, "cage")


@role_required(CAGE)
def cage(request):
    ids = user_casino_ids(request.user)
    return render(request, "accounting/cage.html", {
        "waiting": chip_slips(ids, status__in=ChipSlip.OPEN).order_by("requested_at"),
        "done": chip_slips(ids).exclude(status__in=ChipSlip.OPEN).order_by("-requested_at")[:30],
    })


@require_POST
@role_required(CAGE)
def cage_issue(request, pk: int):
    slip = _slip(request, pk)
    _attempt(request, f"{slip.label} issued to {slip.table.label}.", lambda: chip_slip_issue(
        slip=slip, author=request.user))
    return redirect("cage")


def _day(request) -> date:
    raw = request.GET.get("day", "")
    if raw:
        try:
            return date.fromisoformat(raw)
        except ValueError:
            raise Http404("day is YYYY-MM-DD") from None
    casino = scope(Casino.objects.all(), request.user, "pk").first()
    return current_gaming_day(casino, timezone.now()) if casino else timezone.now().date()


def _format(fmt: str) -> str:
    if fmt not in ("csv", "xlsx"):
        raise Http404("csv or xlsx")
    return fmt


@role_required(*REPORT_READERS)
def day_slips(request, fmt: str = "html"):
    if fmt != "html":
        _format(fmt)
    day, ids = _day(request), user_casino_ids(request.user)
    slips, exceptions = day_slip_rows(ids, day), exception_rows(ids, day)
    if fmt == "html":
        return render(request, "accounting/day.html", {"day": day, "slips": slips, "exceptions": exceptions,
                                                       "slip_columns": SLIP_COLUMNS,
                                                       "exception_columns": EXCEPTION_COLUMNS})
    return download(fmt, f"slips-{day}", f"Slips {day}", SLIP_COLUMNS, slips)


@role_required(*REPORT_READERS)
def day_exceptions(request, fmt: str):
    day, fmt = _day(request), _format(fmt)
    return download(fmt, f"slip-exceptions-{day}", f"Exceptions {day}", EXCEPTION_COLUMNS,
                    exception_rows(user_casino_ids(request.user), day))
