"""Jackpot pages: the meter board, award payment, the ledger, the liability report and
adjustments. Pages parse, call a service or selector, and render."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from audit.jackpots import services
from audit.jackpots.api import report_csv
from audit.jackpots.models import JackpotAdjustment, JackpotAward, JackpotBank, JackpotBankTable
from audit.jackpots.reconcile import MAX_CHECK_DAYS, jackpot_recompute_banks
from audit.jackpots.selectors import (
    MOVEMENTS,
    adjustment_balance,
    ledger_transactions,
    liability_report,
    meter_board,
    pending_awards,
)
from casino.field_words import page_errors
from casino.gaming_day import gaming_day_of
from casino.models import Casino
from casino.permissions import role_required
from casino.query_dates import aware_datetime_or_none, date_or_none
from casino.roles import ALL_ROLES, FINANCE, GAMING_MANAGER, PIT_BOSS, has_role
from casino.scoping import scope
from tables.games.settings.paytables import JACKPOT_LINE_NAMES, JACKPOT_LINES
from tables.models import Table

READERS = (FINANCE, GAMING_MANAGER)
#: The ledger page lists this many transactions at a time: a bank takes one per taxed round, so a
#: month of a busy floor is hundreds of thousands of them.
LEDGER_PAGE = 200
ATTENDANTS = (PIT_BOSS, GAMING_MANAGER)


def _errors(exc: ValidationError) -> dict[str, list[str]]:
    return exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}


def _banks(request):
    return scope(JackpotBank.objects.select_related("casino"), request.user)


def _days(request) -> tuple[date, date, dict]:
    errors = {}
    values = {}
    for name in ("from", "to"):
        raw = request.GET.get(name, "")
        values[name] = date_or_none(raw)
        if raw and values[name] is None:
            errors[name] = [f'"{raw}" is not a date (YYYY-MM-DD)']
    bank = _banks(request).select_related("casino").first()
    today = (
        gaming_day_of(timezone.now(), bank.casino.time_zone, bank.casino.gaming_day_start_hour)
        if bank
        else timezone.now().date()
    )
    day_to = values["to"] or values["from"] or today
    day_from = values["from"] or day_to
    if day_from > day_to:
        errors["from"] = ["must not be after to"]
        day_from = day_to
    return day_from, day_to, errors


@role_required(*ALL_ROLES)
def board(request):
    raw = request.GET.get("at", "")
    at = aware_datetime_or_none(raw)
    error = f'"{raw}" is not a time (2025-03-14T18:00:00+00:00)' if raw and at is None else ""
    return render(
        request,
        "jackpots/board.html",
        {
            "banks": meter_board(at=at, banks=_banks(request)),
            "at": at,
            "at_error": error,
            "awards": scope(pending_awards(), request.user, "bank__casino").order_by("won_at"),
            "can_pay": has_role(request.user, *ATTENDANTS),
            "can_read_ledger": has_role(request.user, *READERS),
        },
    )


@role_required(*ATTENDANTS)
def award_pay(request, pk: int):
    award = get_object_or_404(
        scope(JackpotAward.objects.select_related("table", "bank__casino"), request.user, "bank__casino"), pk=pk)
    errors: dict = {}
    if request.method == "POST":
        try:
            services.jackpot_award_pay(
                award=award,
                author=request.user,
                w2g_reference=request.POST.get("w2g_reference", ""),
                winner_name=request.POST.get("winner_name", ""),
                winner_id_reference=request.POST.get("winner_id_reference", ""),
                federal_withholding=request.POST.get("federal_withholding") or "0",
            )
        except ValidationError as exc:
            errors = _errors(exc)
        else:
            messages.success(
                request, f"Paid: {award.line} {award.amount} at {award.table} seat {award.seat}."
            )
            return redirect("jackpots-board")
    return render(
        request, "jackpots/award_pay.html", {"award": award, "errors": errors, "form": request.POST}
    )


@role_required(*READERS)
def ledger(request):
    day_from, day_to, errors = _days(request)
    banks = _banks(request).order_by("name")
    bank = (
        banks.filter(pk=request.GET.get("bank")).first()
        if request.GET.get("bank", "").isdigit()
        else None
    )
    bank = bank or banks.first()
    raw_page = request.GET.get("page", "1")
    page = int(raw_page) if raw_page.isdigit() and int(raw_page) > 0 else 1
    if raw_page not in ("", "1") and str(page) != raw_page:
        errors["page"] = [f'"{raw_page}" is not a page number (1, 2, ...)']
    txns, more = [], False
    if bank:
        # One row past the page says whether another follows, without counting the period's rows.
        start = (page - 1) * LEDGER_PAGE
        txns = list(ledger_transactions(bank=bank, day_from=day_from, day_to=day_to)[start:start + LEDGER_PAGE + 1])
        more, txns = len(txns) > LEDGER_PAGE, txns[:LEDGER_PAGE]
    return render(
        request,
        "jackpots/ledger.html",
        {
            "banks": banks,
            "bank": bank,
            "transactions": txns,
            "page": page,
            "previous_page": page - 1 if page > 1 else None,
            "next_page": page + 1 if more else None,
            "day_from": day_from,
            "day_to": day_to,
            "errors": errors,
        },
    )


@role_required(*READERS)
def report(request):
    day_from, day_to, errors = _days(request)
    result = liability_report(day_from=day_from, day_to=day_to, banks=_banks(request).order_by("casino__name", "name"))
    # The check replays raw rounds: only over a bounded period (the API's limit too).
    check_days = (day_to - day_from).days + 1
    checks = jackpot_recompute_banks(
        _banks(request).order_by("name"), day_from=day_from, day_to=day_to
    ) if check_days <= MAX_CHECK_DAYS else None
    return render(
        request,
        "jackpots/report.html",
        {
            "report": result,
            "movements": MOVEMENTS,
            "checks": checks,
            "max_check_days": MAX_CHECK_DAYS,
            "day_from": day_from,
            "day_to": day_to,
            "errors": errors,
        },
    )


@role_required(*READERS)
def report_download(request):
    day_from, day_to, _errors_ = _days(request)
    return report_csv(
        liability_report(day_from=day_from, day_to=day_to, banks=_banks(request).order_by("casino__name", "name")),
        f"jackpot-liability-{day_from}-{day_to}.csv",
    )


@role_required(*READERS)
def adjustments(request):
    errors: dict = {}
    if request.method == "POST":
        bank = _banks(request).filter(pk=request.POST.get("bank") or 0).first()
        try:
            if bank is None:
                raise ValidationError({"bank": ["Choose a bank"]})
            services.jackpot_adjustment_request(
                bank=bank,
                line=request.POST.get("line", ""),
                target=request.POST.get("target", "meter"),
                amount=request.POST.get("amount", ""),
                reason=request.POST.get("reason", ""),
                note=request.POST.get("note", ""),
                author=request.user,
            )
        except ValidationError as exc:
            errors = _errors(exc)
        else:
            messages.success(
                request, "Adjustment requested; a second gaming manager must approve it."
            )
            return redirect("jackpots-adjustments")
    return render(
        request,
        "jackpots/adjustments.html",
        {
            "adjustments": scope(JackpotAdjustment.objects.select_related(
                "bank__casino", "requested_by", "decided_by"
            ), request.user, "bank__casino")[:200],
            "banks": _banks(request).order_by("name"),
            "lines": [(ln, JACKPOT_LINE_NAMES[ln]) for ln in JACKPOT_LINES],
            "reasons": JackpotAdjustment.REASONS,
            "targets": JackpotAdjustment.TARGETS,
            "errors": errors,
            "form": request.POST,
            "can_decide": has_role(request.user, GAMING_MANAGER),
        },
    )


def _adjustment_words(adjustment) -> str:
    """The account an adjustment moves, as people name it: "Main bank meter 'Dealer bust, 7 cards'"."""
    return (f"{adjustment.bank} {adjustment.get_target_display()} "
            f"'{JACKPOT_LINE_NAMES.get(adjustment.line, adjustment.line)}'")


def _money(amount) -> str:
    return f"{amount:,.2f}"


@role_required(GAMING_MANAGER)
@require_http_methods(["GET", "POST"])
def adjustment_decide(request, pk: int):
    """Approve or reject, in two steps: this page says what will move, then a confirmed POST
    decides. A POST without ``confirm`` changes nothing (it shows the same page)."""
    adjustment = get_object_or_404(
        scope(JackpotAdjustment.objects.select_related("bank", "requested_by"), request.user, "bank__casino"),
        pk=pk)
    decision = request.POST.get("decision") or request.GET.get("decision", "")
    if decision not in ("approve", "reject"):
        messages.error(request, "Decision: choose approve or reject")
        return redirect("jackpots-adjustments")
    before = adjustment_balance(adjustment)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            services.jackpot_adjustment_decide(
                adjustment=adjustment,
                author=request.user,
                approve=decision == "approve",
                note=request.POST.get("note", ""),
            )
        except ValidationError as exc:
            for sentence in page_errors(_errors(exc)):
                messages.error(request, sentence)
        else:
            if decision == "approve":
                messages.success(request, (
                    f"Adjustment #{adjustment.pk} approved: {_adjustment_words(adjustment)} "
                    f"{_money(before)} → {_money(adjustment_balance(adjustment))}."))
            else:
                messages.success(request, (
                    f"Adjustment #{adjustment.pk} rejected: nothing posted; "
                    f"{_adjustment_words(adjustment)} stays {_money(before)}."))
        return redirect("jackpots-adjustments")
    return render(request, "jackpots/adjustment_confirm.html", {
        "adjustment": adjustment,
        "decision": decision,
        "account": _adjustment_words(adjustment),
        "before": _money(before),
        "after": _money(before + adjustment.amount),
        "amount": _money(adjustment.amount),
        "note": request.POST.get("note", ""),
    })


def _bank_form_action(request) -> str:
    """Run the POSTed action of the banks page; returns the success message."""
    post, author = request.POST, request.user
    reason = post.get("reason", "")
    action = post.get("action", "")
    bank = None
    if action in ("link", "configure"):
        bank = _banks(request).filter(pk=post.get("bank") if post.get("bank", "").isdigit() else 0).first()
        if bank is None:
            raise ValidationError({"bank": ["Choose a bank"]})
    if action == "create":
        casino = scope(Casino.objects.all(), request.user, "pk").filter(
            pk=post.get("casino") if post.get("casino", "").isdigit() else 0
        ).first()
        if casino is None:
            raise ValidationError({"casino": ["Choose a casino"]})
        tables = list(scope(Table.objects.all(), request.user, "pit__casino").filter(
            pk__in=[t for t in post.getlist("tables") if t.isdigit()]))
        bank = services.jackpot_bank_create(
            casino=casino,
            name=post.get("name", ""),
            author=author,
            reason=reason,
            defer_changes_until_hit=post.get("defer") == "on",
            tables=tables,
        )
        return f"Bank {bank} created with {len(tables)} table(s)."
    if action == "link":
        table = scope(Table.objects.all(), request.user, "pit__casino").filter(
            pk=post.get("table") if post.get("table", "").isdigit() else 0).first()
        if table is None:
            raise ValidationError({"table": ["Choose a table"]})
        services.jackpot_bank_table_add(bank=bank, table=table, author=author, reason=reason)
        return f"Table {table.label} is in {bank}; it may open now."
    if action == "configure":
        config = services.jackpot_line_configure(
            bank=bank,
            line=post.get("line", ""),
            progressive=post.get("progressive") == "on",
            reset=post.get("reset", ""),
            increment_rate=post.get("increment_rate", ""),
            hidden_rate=post.get("hidden_rate", ""),
            cap=post.get("cap", ""),
            author=author,
            reason=reason,
        )
        return f"{config.line} v{config.number} is {config.get_status_display()}."
    raise ValidationError({"action": ["Choose what to do: create, link or configure"]})


@role_required(*ALL_ROLES)
def banks(request):
    """Jackpots → Banks: every role reads; a gaming manager creates banks, links tables and
    configures lines (the same services as the API and the admin)."""
    can_manage = has_role(request.user, GAMING_MANAGER)
    errors: dict = {}
    if request.method == "POST":
        if not can_manage:
            raise PermissionDenied("Only a gaming manager manages jackpot banks.")
        try:
            messages.success(request, _bank_form_action(request))
        except ValidationError as exc:
            errors = _errors(exc)
        else:
            return redirect("jackpots-banks")
    members = JackpotBankTable.objects.values_list("table_id", flat=True)
    unbanked = [
        t
        for t in scope(Table.objects.filter(game=services.GAME), request.user, "pit__casino")
        .exclude(pk__in=members)
        .select_related("pit__casino", "ruleset")
        .order_by("label")
        if services.takes_taxpayers_fortune(t)
    ]
    return render(
        request,
        "jackpots/banks.html",
        {
            "banks": meter_board(banks=_banks(request)),
            "unbanked": unbanked,
            "casinos": scope(Casino.objects.order_by("name"), request.user, "pk"),
            "lines": [(ln, JACKPOT_LINE_NAMES[ln]) for ln in JACKPOT_LINES],
            "can_manage": can_manage,
            "errors": errors,
            "form": request.POST,
        },
    )
