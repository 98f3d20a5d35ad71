"""Pages: the close and reopen history of a gaming day, and a gaming manager's reopen with its
confirmation step. A refusal is shown with its field."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone

from casino.flash import flash_errors
from casino.gaming_day import current_gaming_day
from casino.models import Casino
from casino.permissions import role_required
from casino.query_dates import date_or_none
from casino.roles import GAMING_MANAGER
from casino.scoping import scope
from tables.closing.models import DayClose
from tables.closing.selectors import HISTORY_READERS, closes
from tables.closing.services.check import day_close_current
from tables.closing.services.reopen import day_reopen


@role_required(*HISTORY_READERS)
def closing_days(request):
    casinos = list(scope(Casino.objects.order_by("name"), request.user, "pk"))
    raw = request.GET.get("day", "")
    day = date_or_none(raw)
    casino = next((c for c in casinos if str(c.pk) == request.GET.get("casino")), casinos[0] if casinos else None)
    if day is None and casino is not None:
        day = current_gaming_day(casino, timezone.now())
    recent = closes(scope(DayClose.objects.all(), request.user)).order_by("-gaming_day", "-closed_at")[:30]
    return render(request, "closing/days.html", {"casinos": casinos, "casino": casino, "day": day, "recent": recent})


@role_required(GAMING_MANAGER)
def closing_reopen(request, pk: int):
    close = get_object_or_404(scope(DayClose.objects.select_related("casino", "final_run"), request.user), pk=pk)
    standing = day_close_current(close.casino_id, close.gaming_day)
    reason = request.POST.get("reason", "")
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            day_reopen(casino=close.casino, gaming_day=close.gaming_day, reason=reason, author=request.user)
        except ValidationError as exc:
            flash_errors(request, exc)
        else:
            messages.success(request, f"Gaming day {close.gaming_day} reopened: its records may change; the final "
                                      "report is re-running and the day closes again when it is done.")
            return redirect(f"{reverse('closing-days')}?casino={close.casino_id}&day={close.gaming_day:%Y-%m-%d}")
    return render(request, "closing/reopen_confirm.html", {
        "close": close, "standing": standing is not None and standing.pk == close.pk, "reason": reason})
