"""The pages: hold by period (finance, gaming managers, surveillance), the investigations' list
and each investigation with its actions, and their files (CSV/XLSX, PDF)."""

from __future__ import annotations

from datetime import date, timedelta

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from casino.db_routing import replica_reads
from casino.gaming_day import current_gaming_day
from casino.models import Casino
from casino.periods import page_period, today_of
from casino.permissions import role_required
from casino.query_dates import date_or_none
from casino.roles import has_role
from casino.scoping import scope, user_casino_ids, users_visible_to
from tables.accounting.exports import download

from . import services
from .models import PERIODS, Investigation
from .pdf import detail_pdf, list_pdf
from .periods import holds_over, standard_ranges
from .roles import CHECK_RUNNERS, HOLD_READERS, INVESTIGATION_READERS
from .rows import (
    HOLD_COLUMNS,
    INVESTIGATION_COLUMNS,
    PERIOD_TITLES,
    figure_rows,
    hold_rows,
    investigation_rows,
    investigations_for,
)

_SHEETS = ("csv", "xlsx")


def _casinos(request):
    return scope(Casino.objects.order_by("name"), request.user, "pk")


def _day(request, casinos, errors: dict) -> date:
    raw = request.GET.get("day") or request.POST.get("gaming_day", "")
    if date_or_none(raw):
        return date_or_none(raw)
    if raw:
        errors["day"] = [f'"{raw}" is not a date (YYYY-MM-DD)']
    first = casinos.first()
    # The last gaming day that has ended: the one whose figures can be complete.
    return (current_gaming_day(first) if first else timezone.now().date()) - timedelta(days=1)


def _chosen(request, casinos):
    wanted = request.GET.get("casino", "")
    if wanted.isdigit():
        casino = casinos.filter(pk=int(wanted)).first()
        if casino is None:
            raise Http404("No such casino.")
        return casino, [casino.pk]
    return None, user_casino_ids(request.user)


@replica_reads
@role_required(*HOLD_READERS)
def holds(request, fmt: str = "html"):
    if fmt not in ("html", *_SHEETS):
        raise Http404("csv or xlsx")
    errors: dict[str, list[str]] = {}
    casinos = _casinos(request)
    day = _day(request, casinos, errors)
    casino, ids = _chosen(request, casinos)
    units = holds_over(ids, standard_ranges(day))
    if fmt != "html":
        return download(fmt, f"hold-by-period-{day}", f"Hold by period {day}", HOLD_COLUMNS, hold_rows(units))
    grids = [{"unit": unit, "rows": [(PERIOD_TITLES[name], unit.periods[name], unit.periods[f"{name}_py"])
                                     for name in ("day", "mtd", "ytd")]} for unit in units]
    return render(request, "fluctuations/holds.html", {
        "day": day, "casino": casino, "casinos": casinos, "grids": grids, "errors": errors,
        "query": f"day={day.isoformat()}" + (f"&casino={casino.pk}" if casino else "")},
        status=400 if errors else 200)


def _filtered(request) -> tuple[object, dict]:
    """The investigations asked for. Those of ``day`` (the day's report links here), else of the
    period ``from``..``to``, by default the last ``DEFAULT_DAYS`` gaming days, shown in the form
    (issue #20; a reversed or over-long period shows the default one). An investigation is in a
    period when its own period (a day, a month) shares a day with it, as in the API's list."""
    investigations = scope(investigations_for(Investigation.objects.all()), request.user)
    chosen = {key: request.GET.get(key, "") for key in ("status", "period", "from", "to", "day")}
    if chosen["status"] in dict(Investigation.STATUSES):
        investigations = investigations.filter(status=chosen["status"])
    if chosen["period"] in dict(PERIODS):
        investigations = investigations.filter(period=chosen["period"])
    # The day's report links here: what its periods opened (the day, its month).
    if (day := date_or_none(chosen["day"])) is not None:
        chosen["from"] = chosen["to"] = ""
        return investigations.filter(period_start__lte=day, period_end__gte=day), chosen
    chosen["day"] = ""
    today = today_of(request.user)
    since, until, _ = page_period(chosen, today)
    chosen["from"], chosen["to"] = since.isoformat(), until.isoformat()
    return investigations.filter(period_end__gte=since, period_start__lte=until), chosen


def _query(chosen: dict) -> str:
    return "&".join(f"{k}={v}" for k, v in chosen.items() if v)


@replica_reads
@role_required(*INVESTIGATION_READERS)
def investigation_list(request, fmt: str = "html"):
    investigations, chosen = _filtered(request)
    if fmt == "pdf":
        response = HttpResponse(list_pdf("Hold fluctuation investigations", investigation_rows(investigations)),
                                content_type="application/pdf")
        response["Content-Disposition"] = 'attachment; filename="investigations.pdf"'
        return response
    if fmt in _SHEETS:
        return download(fmt, "investigations", "Investigations", INVESTIGATION_COLUMNS,
                        investigation_rows(investigations))
    if fmt != "html":
        raise Http404("csv, xlsx or pdf")
    casinos = _casinos(request)
    return render(request, "fluctuations/list.html", {
        "investigations": investigations[:500], "chosen": chosen, "query": _query(chosen),
        "statuses": Investigation.STATUSES, "periods": PERIODS, "casinos": casinos,
        "can_check": has_role(request.user, *CHECK_RUNNERS),
        "yesterday": (current_gaming_day(casinos.first()) - timedelta(days=1)) if casinos.exists() else None})


@role_required(*CHECK_RUNNERS)
@require_POST
def investigation_check(request):
    wanted = request.POST.get("casino", "")
    casino = _casinos(request).filter(pk=int(wanted)).first() if wanted.isdigit() else None
    day = date_or_none(request.POST.get("gaming_day"))
    if casino is None or day is None:
        messages.error(request, "Casino: choose one of your casinos." if casino is None
                       else "Gaming day: enter a date (YYYY-MM-DD).")
        return redirect("investigations")
    opened = services.check_day(casino=casino, day=day, author=request.user)
    messages.success(request, f"{day}: {len(opened)} investigation(s) opened.")
    return redirect(f"/investigations/?day={day.isoformat()}")


def _visible(request, pk: int) -> Investigation:
    return get_object_or_404(scope(investigations_for(Investigation.objects.all()), request.user), pk=pk)


@replica_reads
@role_required(*INVESTIGATION_READERS)
def investigation_detail(request, pk: int, errors: dict | None = None, status: int = 200):
    investigation = _visible(request, pk)
    user = request.user
    owners = []
    if has_role(user, *services.OWNER_ROLES) and investigation.status == Investigation.OPEN:
        owners = [u for u in users_visible_to(user).filter(casino_memberships__casino=investigation.casino_id)
                  .order_by("username") if has_role(u, *services.OWNER_ROLES)]
    return render(request, "fluctuations/detail.html", {
        "inv": investigation, "errors": errors or {}, "owners": owners, "figures": figure_rows(investigation.figures),
        "history": investigation.history.select_related("history_user").order_by("-history_date"),
        "may_conclude": investigation.status == Investigation.OPEN and investigation.owner_id == user.pk,
        "may_review": has_role(user, *services.SIGNER_ROLES) and investigation.status == Investigation.IN_REVIEW
        and user.pk not in (investigation.owner_id, investigation.concluded_by_id),
    }, status=status)


@replica_reads
@role_required(*INVESTIGATION_READERS)
def investigation_file(request, pk: int, fmt: str):
    investigation = _visible(request, pk)
    rows = investigation_rows([investigation])
    if fmt == "pdf":
        response = HttpResponse(detail_pdf(investigation, rows[0]), content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="investigation-{pk}.pdf"'
        return response
    if fmt not in _SHEETS:
        raise Http404("csv, xlsx or pdf")
    return download(fmt, f"investigation-{pk}", f"Investigation {pk}", INVESTIGATION_COLUMNS, rows)


@role_required(*services.OWNER_ROLES)
@require_http_methods(["POST"])
def investigation_act(request, pk: int):
    investigation = _visible(request, pk)
    act, user, post = request.POST.get("action", ""), request.user, request.POST
    try:
        if act == "assign":
            owner = users_visible_to(user).filter(pk=int(post["owner"]) if post.get("owner", "").isdigit()
                                                  else None).first()
            services.investigation_assign(investigation=investigation, owner=owner, author=user)
        elif act == "conclude":
            services.investigation_conclude(investigation=investigation, conclusion=post.get("conclusion", ""),
                                            author=user)
        elif act == "sign_off":
            services.investigation_sign_off(investigation=investigation, note=post.get("note", ""), author=user)
        elif act == "send_back":
            services.investigation_send_back(investigation=investigation, note=post.get("note", ""), author=user)
        else:
            raise ValidationError({"action": ["Choose assign, conclude, sign off or send back."]})
    except ValidationError as exc:
        return investigation_detail(request, pk, errors=exc.message_dict, status=400)
    messages.success(request, "Saved.")
    return redirect("investigation", pk=pk)
