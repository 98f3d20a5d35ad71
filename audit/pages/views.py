"""The surveillance desk: the findings queue, a round with its revisions, reviews, dealers,
overpay patterns. Views parse, call a selector or the review service, and render."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from audit.models import Finding
from audit.pages.forms import PeriodForm, QueueFilterForm, ReviewForm
from audit.reports.selectors_cash import open_unexplained_findings
from audit.selectors import (
    QueueFilters,
    dealer_error_rounds,
    dealer_stats,
    dealer_table,
    finding_queue,
    finding_queue_totals,
    floor_average,
    overpay_patterns,
)
from audit.services import finding_review
from casino.gaming_day import current_gaming_day
from casino.permissions import role_required
from casino.query_dates import date_or_none
from casino.roles import GAMING_MANAGER, SURVEILLANCE, has_role
from casino.scoping import scope, user_casino, user_casino_ids
from tables.models import Dealer, Round
from tables.pages.present import KIND_WORDS, data_diff, net_words, round_view, wager_label

READERS = (SURVEILLANCE, GAMING_MANAGER)
REVIEWERS = (SURVEILLANCE,)
PAGE_SIZE = 50


@role_required(*READERS)
def queue(request):
    form = QueueFilterForm(request.GET or None, user=request.user)
    filters = QueueFilters()
    if form.is_bound and form.is_valid():
        d = form.cleaned_data
        filters = QueueFilters(
            pit=d["pit"].pk if d["pit"] else None,
            table=d["table"].pk if d["table"] else None,
            dealer=d["dealer"].pk if d["dealer"] else None,
            gaming_day=d["gaming_day"],
            kind=d["kind"] or None,
            min_amount=d["min_amount"],
            max_amount=d["max_amount"],
            status=d["status"] or Finding.OPEN,
            order=d["order"] or "newest",
        )
    findings = finding_queue(filters, casinos=user_casino_ids(request.user))
    page = Paginator(findings, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "surveillance/queue.html",
        {
            "form": form,
            "page": page,
            "totals": finding_queue_totals(findings),
            "kind_words": KIND_WORDS,
            "filters": filters,
            "query": query.urlencode(),
            "cash_findings": open_unexplained_findings(user_casino_ids(request.user)),
        },
    )


def _revision_rows(rnd: Round) -> list[dict]:
    rows, previous = [], None
    for rev in rnd.revisions.select_related("author").prefetch_related("wagers").order_by("number"):
        rows.append(
            {
                "revision": rev,
                "changes": data_diff(previous, rev.data) if previous is not None else [],
                "findings": rev.audit.get("findings", []),
            }
        )
        previous = rev.data
    return rows


def _wager_rows(revision) -> list[dict]:
    return [
        {
            "seat": w.seat,
            "player": w.player,
            "label": wager_label(w.wager, w.hand, w.line),
            "stake": w.stake,
            "expected": w.expected_net,
            "expected_words": net_words(w.expected_net),
            "recorded": w.recorded_net,
            "recorded_words": net_words(w.recorded_net),
            "explanation": w.explanation,
            "differs": w.recorded_net is not None and w.recorded_net != w.expected_net,
        }
        for w in revision.wagers.all()
    ]


@role_required(*READERS)
def round_detail(request, pk: int):
    rnd = get_object_or_404(
        scope(Round.objects.select_related(
            "table__pit__casino", "dealer", "ruleset_version__ruleset", "recorded_by", "voided_by"
        ), request.user, "table__pit__casino"),
        pk=pk,
    )
    current = rnd.revisions.get(number=rnd.revision)
    findings = list(
        Finding.objects.filter(round=rnd)
        .select_related("revision", "reviewed_by")
        .order_by("-revision__number", "id")
    )
    histories = {}
    for record in (
        Finding.history.filter(id__in=[f.pk for f in findings])
        .select_related("history_user")
        .order_by("history_date")
    ):
        histories.setdefault(record.id, []).append(record)
    for f in findings:
        f.history_rows = histories.get(f.pk, [])
        f.kind_words = KIND_WORDS.get(f.kind, f.kind)
    return render(
        request,
        "surveillance/round.html",
        {
            "round": rnd,
            "current": current,
            "view": round_view(rnd.game, current.data),
            "wagers": _wager_rows(current),
            "findings": findings,
            "revisions": _revision_rows(rnd),
            "review_form": ReviewForm(),
            "may_review": has_role(request.user, *REVIEWERS),
            "summary": current.audit.get("summary", {}),
        },
    )


@require_POST
@role_required(*REVIEWERS)
def finding_review_view(request, pk: int):
    finding = get_object_or_404(
        scope(Finding.objects.select_related("round"), request.user, "round__table__pit__casino"), pk=pk)
    form = ReviewForm(request.POST)
    if form.is_valid():
        try:
            finding_review(
                finding=finding,
                decision=form.cleaned_data["decision"],
                note=form.cleaned_data["note"],
                author=request.user,
            )
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                messages.error(request, f"{field}: {' '.join(errors)}")
        else:
            messages.success(
                request,
                f"Finding {finding.code} on {finding.round}: {form.cleaned_data['decision']} "
                "recorded with your note.",
            )
    else:
        for field, errors in form.errors.items():
            messages.error(request, f"{field}: {' '.join(errors)}")
    return redirect("desk-round", pk=finding.round_id)


#: The dealer and pattern pages' default period, in gaming days up to today's: a page's cost must
#: not grow with the years of rounds the database holds (issue #20), and a month is what a
#: surveillance officer compares dealers over. Shown in the form and changeable.
DEFAULT_DAYS = 30


def _today(user):
    casino = user_casino(user)
    return current_gaming_day(casino) if casino is not None else timezone.localdate()


def _period(request):
    """The period asked for, else the last ``DEFAULT_DAYS`` gaming days (a missing end is filled
    from the other). A bad date is the form's field error, and the default period is shown."""
    data = request.GET.copy()
    since, until = date_or_none(data.get("since")), date_or_none(data.get("until"))
    if until is None:
        until = since + timedelta(days=DEFAULT_DAYS - 1) if since else _today(request.user)
    if since is None:
        since = until - timedelta(days=DEFAULT_DAYS - 1)
    form = PeriodForm({**data.dict(), "since": data.get("since") or since, "until": data.get("until") or until})
    if form.is_valid():
        return form, form.cleaned_data
    return form, {"since": min(since, until), "until": until, "min_count": None}


@role_required(*READERS)
def dealers(request):
    form, period = _period(request)
    casinos = user_casino_ids(request.user)
    return render(
        request,
        "surveillance/dealers.html",
        {
            "form": form,
            "rows": dealer_table(since=period["since"], until=period["until"], casinos=casinos),
            "floor": floor_average(since=period["since"], until=period["until"], casinos=casinos),
        },
    )


@role_required(*READERS)
def dealer_detail(request, pk: int):
    dealer = get_object_or_404(scope(Dealer.objects.all(), request.user), pk=pk)
    form, period = _period(request)
    stats = dealer_stats(dealer, since=period["since"], until=period["until"])
    recent = dealer_error_rounds(dealer)[:20]
    return render(
        request,
        "surveillance/dealer.html",
        {
            "dealer": dealer,
            "form": form,
            "stats": stats,
            "recent": recent,
            # The dealer's own casino is the floor to compare with, whoever else the reader sees.
            "floor": floor_average(since=period["since"], until=period["until"], casinos={dealer.casino_id}),
            "patterns": overpay_patterns(
                since=period["since"], until=period["until"], dealer=dealer.pk
            ),
        },
    )


@role_required(*READERS)
def patterns(request):
    form, period = _period(request)
    return render(
        request,
        "surveillance/patterns.html",
        {
            "form": form,
            "min_count": period["min_count"] or 2,
            "patterns": overpay_patterns(
                since=period["since"], until=period["until"], min_count=period["min_count"] or 2,
                casinos=user_casino_ids(request.user),
            ),
        },
    )
