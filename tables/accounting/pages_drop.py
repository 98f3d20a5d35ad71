"""Pages: the tablet's buy-ins at a table, and the count room's page (the day's boxes: drop,
enter a count, sign, revise). Posts call the services; a refusal is shown with its field."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from casino.flash import flash_errors
from casino.gaming_day import current_gaming_day
from casino.models import Casino
from casino.permissions import role_required
from casino.query_dates import date_or_none
from casino.roles import PIT_BOSS
from casino.scoping import scope, user_casino_ids
from tables.accounting.api_drop import COUNT_READERS, COUNTERS
from tables.accounting.models import BuyIn, ChipSet, DropBox, SoftCount
from tables.accounting.pages import table_in_scope
from tables.accounting.selectors_drop import boxes_of_day, estimated_drop
from tables.accounting.services.buyins import buy_in_record
from tables.accounting.services.drop_boxes import drop_box_drop, may_count
from tables.accounting.services.soft_count import CURRENCY_NOTES, soft_count_enter, soft_count_sign
from tables.models import Table
from tables.services.sessions import table_session_current


def _money(raw: str, field: str) -> Decimal:
    try:
        return Decimal((raw or "").strip() or "0")
    except InvalidOperation:
        raise ValidationError({field: [f"{raw!r} is not an amount"]}) from None


@role_required(PIT_BOSS)
def buy_ins(request, pk: int):
    table = table_in_scope(request, pk)
    casino = table.pit.casino
    if request.method == "POST":
        try:
            seat = request.POST.get("seat", "")
            buy_in_record(table=table, author=request.user, kind=request.POST.get("kind", ""),
                          seat=int(seat) if seat.isdigit() else -1,
                          amount=_money(request.POST.get("amount", ""), "amount"),
                          player_identifier=request.POST.get("player_identifier"))
        except ValidationError as exc:
            flash_errors(request, exc)
        else:
            messages.success(request, f"Buy-in of {request.POST.get('amount')} at seat {seat} recorded.")
        return redirect("tablet-buy-ins", pk=table.pk)
    day = current_gaming_day(casino, timezone.now())
    return render(request, "accounting/buy_ins.html", {
        "table": table, "session": table_session_current(table), "day": day, "kinds": BuyIn.KINDS,
        "seats": range(1, table.seats + 1), "zone": casino.time_zone,
        "buy_ins": BuyIn.objects.filter(table=table, gaming_day=day).select_related("void", "recorded_by")
        .order_by("-recorded_at")[:100],
        "estimate": estimated_drop([casino.pk], day).get(table.pk),
    })


@role_required(*COUNT_READERS)
def count_day(request):
    casinos = scope(Casino.objects.order_by("name"), request.user, "pk")
    casino = casinos.first()
    raw = request.GET.get("day")
    day = date_or_none(raw)
    if day is None:
        day = current_gaming_day(casino, timezone.now()) if casino else timezone.now().date()
    chip_set = ChipSet.objects.filter(casino=casino).first() if casino else None
    return render(request, "accounting/count.html", {
        "day": day, "rows": boxes_of_day(user_casino_ids(request.user), day),
        "counting": {c.pk for c in casinos if may_count(request.user, c)},
        "notes": CURRENCY_NOTES.get(casino.currency, ()) if casino else (),
        "chips": chip_set.denominations.filter(active=True) if chip_set else (),
        "zone": casino.time_zone if casino else "UTC",
    })


def _back(day) -> str:
    return f"{reverse('count-day')}?day={day}"


@require_http_methods(["GET", "POST"])
@role_required(*COUNTERS)
def count_drop(request):
    """Record a box's drop in two steps: this page says what is recorded and that it cannot be
    undone; a POST with ``confirm=yes`` records it (a POST without it shows the same page)."""
    data = request.POST if request.method == "POST" else request.GET
    raw = str(data.get("table", ""))
    if not raw:
        return redirect("count-day")  # the drop is asked from a box on the count page
    table = get_object_or_404(scope(Table.objects.select_related("pit__casino"), request.user, "pit__casino"),
                              pk=raw if raw.isdigit() else 0)
    day = date_or_none(data.get("gaming_day")) or current_gaming_day(table.pit.casino, timezone.now())
    if request.method == "POST" and data.get("confirm") == "yes":
        try:
            drop_box_drop(table=table, gaming_day=day, author=request.user)
            messages.success(request, f"The box of {table.label} for {day} is dropped.")
        except ValidationError as exc:
            flash_errors(request, exc)
        return redirect(_back(day))
    box = DropBox.objects.filter(table=table, gaming_day=day).select_related("drop__dropped_by").first()
    return render(request, "accounting/drop_confirm.html", {
        "table": table, "day": day, "drop": getattr(box, "drop", None) if box else None, "back": _back(day),
        "estimated": estimated_drop([table.pit.casino_id], day).get(table.pk, {}).get("estimated_drop")})


@require_POST
@role_required(*COUNTERS)
def count_enter(request, pk: int):
    box = get_object_or_404(scope(DropBox.objects.select_related("table"), request.user), pk=pk)
    post = request.POST
    currency = [{"denomination": k[5:], "count": v.strip()} for k, v in post.items() if k.startswith("note-") and v.strip()]
    chips = [{"denomination": k[5:], "count": v.strip()} for k, v in post.items() if k.startswith("chip-") and v.strip()]
    try:
        soft_count_enter(box=box, author=request.user, currency=currency, chips=chips,
                         markers=post.get("markers", "").strip() or "0", coupons=post.get("coupons", "").strip() or "0",
                         reason=post.get("reason", ""))
        messages.success(request, f"Count of {box.table.label} entered; a second counter signs it.")
    except ValidationError as exc:
        flash_errors(request, exc)
    return redirect(_back(box.gaming_day))


@require_POST
@role_required(*COUNTERS)
def count_sign(request, pk: int):
    count = get_object_or_404(scope(SoftCount.objects.select_related("box__table"), request.user, "box__casino"), pk=pk)
    try:
        soft_count_sign(count=count, author=request.user)
        messages.success(request, f"Count of {count.box.table.label} revision {count.revision} signed and posted.")
    except ValidationError as exc:
        flash_errors(request, exc)
    return redirect(_back(count.box.gaming_day))
