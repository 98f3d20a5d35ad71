"""The surveillance desk: the findings queue, a round with its revisions, reviews, dealers,
overpay patterns. Views parse, call a selector or the review service, and render."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from audit.decisions.pricing import priced
from audit.decisions.selectors import round_decisions
from audit.pages.forms import PeriodForm, QueueFilterForm, ReviewForm
from audit.reports.selectors_cash import open_unexplained_findings
from audit.rollups.selectors import (
    dealer_error_days,
    dealer_pays,
    dealer_stats,
    dealer_table,
    floor_average,
    overpay_patterns,
)
from audit.selectors import (
    QueueFilters,
    dealer_error_rounds,
    finding_queue,
    finding_queue_totals,
    older_waiting_count,
)
from audit.services import finding_review
from casino.db_routing import replica_reads
from casino.field_words import KIND_WORDS, label, page_errors, wager_label
from casino.periods import default_period, today_of
from casino.permissions import role_required
from casino.query_dates import date_or_none
from casino.roles import GAMING_MANAGER, SURVEILLANCE, has_role
from casino.scoping import scope, user_casino_ids
from tables.games.decision_prices import NOT_PRICED
from tables.games.poker_or_bust.draw_prices import NOT_STORED
from tables.games.vocabulary.catalogue import POKER_OR_BUST
from tables.models import WAGER_ORDER, Dealer, Finding, Round, Wager
from tables.pages.present import data_diff, dealer_did_words, net_words, round_view

READERS = (SURVEILLANCE, GAMING_MANAGER)
REVIEWERS = (SURVEILLANCE,)
PAGE_SIZE = 50
#: The patterns page lists each kind's most repeated pairs, this many.
PATTERNS_SHOWN = 100


def _queue_data(request) -> dict:
    """The queue's query with its period filled: the ``gaming_day`` asked for, else the last
    ``DEFAULT_DAYS`` gaming days (issue #20: the queue never reads years of findings)."""
    data = request.GET.dict()
    since, until = date_or_none(data.get("since")), date_or_none(data.get("until"))
    day = date_or_none(data.get("gaming_day"))
    if day and not (since or until):
        since = until = day
    since, until = default_period(since, until, today_of(request.user))
    data["since"], data["until"] = data.get("since") or since.isoformat(), data.get("until") or until.isoformat()
    return data


@replica_reads
@role_required(*READERS)
def queue(request):
    data = _queue_data(request)
    form = QueueFilterForm(data, user=request.user)
    # A form with an error (a bad date, a period over the maximum) shows the default queue.
    first, last = default_period(None, None, today_of(request.user))
    filters = QueueFilters(since=first, until=last)
    if form.is_valid():
        d = form.cleaned_data
        filters = QueueFilters(
            pit=d["pit"].pk if d["pit"] else None,
            table=d["table"].pk if d["table"] else None,
            dealer=d["dealer"].pk if d["dealer"] else None,
            since=d["since"],
            until=d["until"],
            gaming_day=d["gaming_day"],
            kind=d["kind"] or None,
            min_amount=d["min_amount"],
            max_amount=d["max_amount"],
            status=d["status"] or Finding.OPEN,
            order=d["order"] or "newest",
        )
    findings = finding_queue(filters, casinos=user_casino_ids(request.user))
    totals = finding_queue_totals(findings)
    paginator = Paginator(findings, PAGE_SIZE)
    paginator.count = totals["count"]  # the totals counted them already: no second COUNT
    page = paginator.get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "surveillance/queue.html",
        {
            "form": form,
            "page": page,
            "totals": totals,
            "kind_words": KIND_WORDS,
            "filters": filters,
            "query": query.urlencode(),
            "cash_findings": open_unexplained_findings(user_casino_ids(request.user)),
            "older_waiting": older_waiting_count(filters.since, casinos=user_casino_ids(request.user))
            if filters.status == Finding.OPEN else 0,
            "older_until": filters.since - timedelta(days=1) if filters.since else None,
        },
    )


def _revision_rows(rnd: Round) -> list[dict]:
    rows, previous = [], None
    wagers = Prefetch("wagers", queryset=Wager.objects.filter(gaming_day=rnd.gaming_day).order_by(*WAGER_ORDER))
    for rev in rnd.day_revisions().select_related("author").prefetch_related(wagers).order_by("number"):
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
            "recorded_words": dealer_did_words(w.recorded_net, wager=w.wager, pays_attested=revision.pays_attested),
            "explanation": w.explanation,
            "differs": w.recorded_net is not None and w.recorded_net != w.expected_net,
        }
        for w in revision.day_wagers()
    ]


@replica_reads
@role_required(*READERS)
def round_detail(request, pk: int):
    rnd = get_object_or_404(
        scope(Round.objects.select_related(
            "table__pit__casino", "dealer", "ruleset_version__ruleset", "recorded_by", "voided_by"
        ), request.user, "table__pit__casino"),
        pk=pk,
    )
    # Each read of the round's rows names its gaming day, of every partitioned table it reads:
    # PostgreSQL then plans one month's partition, not every month kept (docs/architecture.md,
    # "Years of history").
    day = rnd.gaming_day
    current = rnd.day_revisions().get(number=rnd.revision)
    findings = list(
        Finding.objects.filter(round=rnd, gaming_day=day, revision__gaming_day=day)
        .select_related("revision", "reviewed_by")
        .order_by("-revision__number", "id")
    )
    histories = {}
    for record in (
        Finding.history.filter(id__in=[f.pk for f in findings], gaming_day=day)
        .select_related("history_user")
        .order_by("history_date")
    ):
        histories.setdefault(record.id, []).append(record)
    for f in findings:
        f.history_rows = histories.get(f.pk, [])
        f.kind_words = KIND_WORDS.get(f.kind, f.kind)
    decisions, unpriced, priced_soon = round_decisions(rnd.pk, day)
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
            "decisions": decisions,
            "decisions_unpriced": unpriced,
            "decisions_queued": priced_soon,
            "decisions_priced_game": priced(rnd.game, rnd.ruleset_version),
            "decisions_why_not": NOT_PRICED.get(rnd.game, NOT_STORED if rnd.game == POKER_OR_BUST else ""),
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
            for sentence in page_errors(exc):
                messages.error(request, sentence)
        else:
            messages.success(
                request,
                f"Finding \"{label(finding.code, 'finding')}\" on {finding.round}: {form.cleaned_data['decision']} "
                "recorded with your note.",
            )
    else:
        for sentence in page_errors(form.errors):
            messages.error(request, sentence)
    return redirect("desk-round", pk=finding.round_id)


def _period(request):
    """The period asked for, else the last ``DEFAULT_DAYS`` gaming days (casino/periods.py; a
    missing end is filled from the other). A bad date is the form's field error, and the default
    period is shown. The dealer and pattern pages read it from the daily rollups, so a long
    period costs its days' rollup rows, never its rounds."""
    data = request.GET.copy()
    since, until = default_period(date_or_none(data.get("since")), date_or_none(data.get("until")),
                                  today_of(request.user))
    form = PeriodForm({**data.dict(), "since": data.get("since") or since, "until": data.get("until") or until})
    if form.is_valid():
        return form, form.cleaned_data
    return form, {"since": min(since, until), "until": until, "min_count": None}


@replica_reads
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


@replica_reads
@role_required(*READERS)
def dealer_detail(request, pk: int):
    dealer = get_object_or_404(scope(Dealer.objects.all(), request.user), pk=pk)
    form, period = _period(request)
    stats = dealer_stats(dealer, since=period["since"], until=period["until"])
    # The list reads raw rounds: the period's last DEFAULT_DAYS at most, whatever the period.
    recent_since = max(period["since"], default_period(None, period["until"], period["until"])[0])
    days = dealer_error_days(dealer, since=recent_since, until=period["until"])
    recent = dealer_error_rounds(dealer, since=recent_since, until=period["until"], days=days)[:20] if days else []
    # From the rollups, for the same window as the list of rounds.
    pays = dealer_pays(dealer, since=recent_since, until=period["until"])
    return render(
        request,
        "surveillance/dealer.html",
        {
            "dealer": dealer,
            "form": form,
            "stats": stats,
            "recent": recent,
            "pays": pays,
            "recent_since": recent_since,
            "recent_until": period["until"],
            # The dealer's own casino is the floor to compare with, whoever else the reader sees.
            "floor": floor_average(since=period["since"], until=period["until"], casinos={dealer.casino_id}),
            "patterns": overpay_patterns(
                since=period["since"], until=period["until"], dealer=dealer.pk
            ),
        },
    )


@replica_reads
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
                casinos=user_casino_ids(request.user), limit=PATTERNS_SHOWN,
            ),
            "shown": PATTERNS_SHOWN,
        },
    )
