"""The pages: a gaming day's Title 31 view (/compliance/: MTL, CTRs, flags, sign-off; compliance
and gaming managers), its files (CSV, PDF), a patron's identification form (compliance only)
and the cage's cash-outs (/cage/cash-outs/)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from casino.field_words import field_label, page_errors
from casino.gaming_day import current_gaming_day
from casino.models import Casino
from casino.permissions import role_required
from casino.query_dates import date_or_none, typed_date_or_none
from casino.roles import CAGE, COMPLIANCE, GAMING_MANAGER, has_role
from casino.scoping import scope, user_casino
from tables.accounting.exports import download
from tables.players.models import Player

from . import services
from .models import CashOut
from .pdf import mtl_pdf
from .rows import MTL_COLUMNS, mtl_rows
from .selectors import CTR_FIELDS, compliance_day, current_identification

DAY_READERS = (COMPLIANCE, GAMING_MANAGER)


def _casino_day(request, errors: dict):
    casinos = scope(Casino.objects.order_by("name"), request.user, "pk")
    casino = user_casino(request.user, request.GET.get("casino") or request.POST.get("casino"), order="name")
    if casino is None:
        raise Http404("No casino of yours.")
    raw = request.GET.get("gaming_day") or request.POST.get("gaming_day", "")
    day = date_or_none(raw)
    if day is None:
        if raw:
            errors["gaming_day"] = [f'"{raw}" is not a date (YYYY-MM-DD)']
        day = current_gaming_day(casino)
    return casinos, casino, day


def _back(casino, day) -> str:
    return f"{reverse('compliance-day')}?casino={casino.pk}&gaming_day={day.isoformat()}"


def _refusal(request, exc: ValidationError) -> None:
    for sentence in page_errors(exc):
        messages.error(request, sentence)


@role_required(*DAY_READERS)
def day(request):
    errors: dict[str, list[str]] = {}
    casinos, casino, gaming_day = _casino_day(request, errors)
    return render(request, "compliance/day.html", {
        "casinos": casinos, "casino": casino, "day": compliance_day(casino, gaming_day), "errors": errors,
        "compliance": has_role(request.user, COMPLIANCE),
        "query": f"casino={casino.pk}&gaming_day={gaming_day.isoformat()}"})


@role_required(*DAY_READERS)
def mtl_file(request, fmt: str):
    if fmt not in ("csv", "pdf"):
        raise Http404("csv or pdf")
    casinos, casino, gaming_day = _casino_day(request, {})
    state = compliance_day(casino, gaming_day)
    name = f"mtl-{casino.pk}-{gaming_day}"
    if fmt == "csv":
        return download("csv", name, f"MTL {gaming_day}", MTL_COLUMNS, mtl_rows(state))
    response = HttpResponse(mtl_pdf(state), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}.pdf"'
    return response


@role_required(COMPLIANCE)
@require_POST
def sign_off(request):
    casinos, casino, gaming_day = _casino_day(request, {})
    try:
        services.mtl_sign_off(casino=casino, gaming_day=gaming_day, author=request.user,
                              note=request.POST.get("note", ""))
        messages.success(request, f"The MTL of {gaming_day} is signed.")
    except ValidationError as exc:
        _refusal(request, exc)
    return redirect(_back(casino, gaming_day))


@role_required(COMPLIANCE)
@require_POST
def ctr_exception(request):
    casinos, casino, gaming_day = _casino_day(request, {})
    try:
        services.ctr_exception_record(casino=casino, gaming_day=gaming_day, subject=request.POST.get("subject", ""),
                                      direction=request.POST.get("direction", ""),
                                      reason=request.POST.get("reason", ""), author=request.user)
        messages.success(request, "Exception recorded.")
    except ValidationError as exc:
        _refusal(request, exc)
    return redirect(_back(casino, gaming_day))


_FORM_FIELDS = ("last_name", "first_name", "address", "date_of_birth", "tin", "occupation", "document_type",
                "document_number", "document_issuer", "document_expiry")
_DATE_FIELDS = ("date_of_birth", "document_expiry")


@role_required(COMPLIANCE)
@require_http_methods(["GET", "POST"])
def identification(request, identifier: str):
    errors: dict[str, list[str]] = {}
    casinos, casino, gaming_day = _casino_day(request, {})
    current = current_identification(casino.pk, identifier)
    values = {name: request.POST.get(name, "") for name in _FORM_FIELDS} if request.method == "POST" else \
        {name: (getattr(current, name) or "") if current else "" for name in _FORM_FIELDS}
    if request.method == "POST":
        parsed = dict(values)
        for name in _DATE_FIELDS:
            raw = parsed[name].strip()
            parsed[name] = typed_date_or_none(raw)
            if raw and parsed[name] is None:
                errors[name] = [f'"{raw}" is not a date: type it as MM/DD/YYYY or YYYY-MM-DD']
        if not errors:
            try:
                services.identification_record(casino=casino, identifier=identifier, author=request.user,
                                               reason=request.POST.get("reason", ""), **parsed)
                messages.success(request, f"Identification of {identifier} recorded.")
                return redirect(_back(casino, gaming_day))
            except ValidationError as exc:
                errors = exc.message_dict
    player = Player.objects.filter(casino=casino, identifier=identifier).first()
    fields = [{"name": name, "label": field_label(name), "value": values[name], "errors": errors.get(name, []),
               "date": name in _DATE_FIELDS} for name in _FORM_FIELDS]
    return render(request, "compliance/identification.html", {
        "casino": casino, "identifier": identifier, "player": player, "current": current, "fields": fields,
        "reason": request.POST.get("reason", "") if request.method == "POST" else "",
        "reason_errors": errors.get("reason", []),
        "other_errors": [(name, problems) for name, problems in errors.items() if name not in (*_FORM_FIELDS, "reason")],
        "errors": errors, "gaming_day": gaming_day, "required": dict(CTR_FIELDS),
        "history": player.identifications.select_related("recorded_by")[:20] if player else []},
        status=400 if errors else 200)


@role_required(CAGE, COMPLIANCE, GAMING_MANAGER)
@require_http_methods(["GET", "POST"])
def cash_outs(request):
    errors: dict[str, list[str]] = {}
    casinos, casino, gaming_day = _casino_day(request, errors)
    if request.method == "POST":
        if not has_role(request.user, CAGE):
            return HttpResponse("Only the cage records cash-outs.", status=403)
        raw = request.POST.get("amount", "").strip().replace(",", "")
        try:
            amount = Decimal(raw)
        except InvalidOperation:
            errors["amount"] = [f'"{raw}" is not an amount']
        if not errors:
            try:
                services.cash_out_record(casino=casino, kind=request.POST.get("kind", ""), amount=amount,
                                         player_identifier=request.POST.get("player_identifier"), author=request.user)
                messages.success(request, "Cash-out recorded.")
                return redirect(f"{reverse('cage-cash-outs')}?casino={casino.pk}")
            except ValidationError as exc:
                errors = exc.message_dict
    rows = (CashOut.objects.filter(casino=casino, gaming_day=gaming_day).select_related("recorded_by", "void")
            .order_by("-recorded_at", "-id"))
    return render(request, "compliance/cash_outs.html", {
        "casinos": casinos, "casino": casino, "gaming_day": gaming_day, "rows": rows, "errors": errors,
        "kinds": CashOut.KINDS, "may_record": has_role(request.user, CAGE), "posted": request.POST,
        "may_void": has_role(request.user, CAGE) or has_role(request.user, GAMING_MANAGER)},
        status=400 if errors else 200)


@role_required(CAGE, GAMING_MANAGER)
@require_POST
def cash_out_void(request, pk: int):
    """Void a cash-out from the cage's page (the cashier who recorded it, or a gaming manager),
    with a reason; a refusal is shown on the page and nothing is stored."""
    cash_out = scope(CashOut.objects.all(), request.user).filter(pk=pk).first()
    if cash_out is None:
        raise Http404("No such cash-out.")
    try:
        services.cash_out_void(cash_out=cash_out, reason=request.POST.get("reason", ""), author=request.user)
        messages.success(request, f"Cash-out {cash_out.amount} voided.")
    except ValidationError as exc:
        _refusal(request, exc)
    return redirect(f"{reverse('cage-cash-outs')}?casino={cash_out.casino_id}&gaming_day={cash_out.gaming_day}")
