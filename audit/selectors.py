"""Reads for the surveillance desk: the findings queue, dealer statistics, overpay patterns.

Everything here aggregates in SQL (``Count``, ``Sum``, ``Exists`` and ``GROUP BY`` through
``values().annotate()``), never by looping over rows in Python, so the pages stay fast on a
year of rounds.

What counts as a dealer error (a house decision; docs/audit/surveillance-desk.md, "Dealers"):
an open finding of an active round's *current* revision, and every finding surveillance
reviewed as confirmed or escalated, whatever became of its round since: a correction or a
void never takes a reviewed finding away (it is sent back for a new decision; only a
dismissal releases it). One wager is counted once: a finding is not counted while an earlier
revision's reviewed finding of the same rule and path stands. Superseded and dismissed
findings are not the dealer's; a voided round counts only through its reviewed findings.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet

from casino.money import Money, money_sum
from casino.scoping import narrow
from tables.games.vocabulary.catalogue import OVERPAY, UNDERPAY
from tables.models import Dealer, Finding, Round

#: A period of gaming days (first, last), or None for all of them.
Days = tuple[date, date] | None

#: The paths from a round and from a finding to its casino (casino/scoping.py).
ROUND_CASINO, FINDING_CASINO = "table__pit__casino", "round__table__pit__casino"
ZERO = Decimal("0.00")


def _cents(value) -> Decimal:
    """SQLite's SUM of a decimal column drops the scale ("5"): money always shows cents."""
    return Decimal(value or 0).quantize(Decimal("0.01"))


def _money_rows(rows: list[dict], *keys: str) -> list[dict]:
    for row in rows:
        for key in keys:
            row[key] = _cents(row[key])
    return rows


def _money_sum(expression: str, **filter_q) -> Money:
    """The sum to the cent, 0.00 when nothing is summed (casino/money.py: exact on SQLite too)."""
    return money_sum(expression, filter=Q(**filter_q) if filter_q else None, default=ZERO)


def counted_findings(findings: QuerySet[Finding] | None = None, *, days: Days = None) -> QuerySet[Finding]:
    """The findings of ``findings`` (all by default) that count as dealer errors (module docstring).

    ``days`` (first, last), when the caller's rows are of one period: said of the finding, its
    round and its revision alike (each one the same day), so PostgreSQL plans the period's month
    partitions of each, not every month kept; the finding's own day alone would not prune the
    others (a range is not carried across the join the way an equality is)."""
    qs = Finding.objects.all() if findings is None else findings
    standing_earlier = Finding.objects.filter(
        round=OuterRef("round"),
        revision_id__lt=OuterRef("revision_id"),  # a round's revisions are written in order
        status__in=Finding.REVIEWED,
        code=OuterRef("code"),
        path=OuterRef("path"),
    )
    if days is not None:
        qs = qs.filter(**{f"{path}__range": days for path in ("gaming_day", "round__gaming_day",
                                                                "revision__gaming_day")})
        standing_earlier = standing_earlier.filter(gaming_day__range=days)
    return qs.filter(
        Q(status=Finding.OPEN, round__status=Round.ACTIVE, revision__number=F("round__revision"))
        | Q(status__in=Finding.REVIEWED),
        ~Exists(standing_earlier),
    )


# --- the queue -------------------------------------------------------------------------------


@dataclass(frozen=True)
class QueueFilters:
    pit: int | None = None
    table: int | None = None
    dealer: int | None = None
    since: date | None = None  # the period of the rounds' gaming days (the pages give one always)
    until: date | None = None
    gaming_day: date | None = None
    kind: str | None = None
    min_amount: Decimal | None = None
    max_amount: Decimal | None = None
    status: str = Finding.OPEN  # "open", "escalated", "reviewed" or "all"
    order: str = "newest"  # or "largest"


def finding_queue(filters: QueueFilters, *, casinos=None) -> QuerySet[Finding]:
    """Findings of active rounds, and reviewed findings of voided ones, matching ``filters``,
    newest or largest first. "open" means waiting for a decision: open, or sent back
    (``reopened``) by a correction or void of a reviewed finding's round. Of ``casinos``
    (ids), or every casino when ``None``; so for the other selectors."""
    # The page shows no revision: joining the revisions (by id alone) read every month's partition.
    qs = narrow(Finding.objects.select_related("round__table__pit__casino", "round__dealer").filter(
        Q(round__status=Round.ACTIVE) | Q(status__in=Finding.REVIEWED)
    ), casinos, FINDING_CASINO)
    if filters.status == Finding.OPEN:
        qs = qs.filter(Q(status=Finding.OPEN) | Q(reopened_at__isnull=False))
    elif filters.status == "reopened":
        qs = qs.filter(reopened_at__isnull=False)
    elif filters.status == "reviewed":
        qs = qs.filter(status__in=(Finding.CONFIRMED, Finding.DISMISSED))
    elif filters.status != "all":
        qs = qs.filter(status=filters.status)
    if filters.pit:
        qs = qs.filter(round__table__pit_id=filters.pit)
    if filters.table:
        qs = qs.filter(round__table_id=filters.table)
    if filters.dealer:
        qs = qs.filter(round__dealer_id=filters.dealer)
    # A finding's day is its round's (a composite foreign key holds them equal in PostgreSQL).
    # Saying it of the round too lets the planner prune the rounds' monthly partitions: without
    # it, the join to the rounds reads every round of every month the database holds.
    if filters.gaming_day:
        qs = qs.filter(gaming_day=filters.gaming_day, round__gaming_day=filters.gaming_day)
    if filters.since:
        qs = qs.filter(gaming_day__gte=filters.since, round__gaming_day__gte=filters.since)
    if filters.until:
        qs = qs.filter(gaming_day__lte=filters.until, round__gaming_day__lte=filters.until)
    if filters.kind:
        qs = qs.filter(kind=filters.kind)
    if filters.min_amount is not None:
        qs = qs.filter(amount__gte=filters.min_amount)
    if filters.max_amount is not None:
        qs = qs.filter(amount__lte=filters.max_amount)
    if filters.order == "largest":
        return qs.order_by("-amount", "-created_at", "id")
    return qs.order_by("-created_at", "-id")


def finding_queue_totals(queryset: QuerySet[Finding]) -> dict:
    """Counts and money at stake of a queue, per kind and overall: one aggregate query (the
    overall figures are the kinds' added up; a period's findings joined to their rounds is the
    page's costliest read, so it is read once, and its count also serves the page's paginator)."""
    by_kind = _money_rows(list(
        queryset.order_by()
        .values("kind")
        .annotate(count=Count("id"), amount=_money_sum("amount"))
        .order_by("kind")
    ), "amount")
    return {
        "count": sum(row["count"] for row in by_kind),
        "amount": _cents(sum((row["amount"] for row in by_kind), ZERO)),
        "by_kind": by_kind,
    }


# --- dealers ---------------------------------------------------------------------------------


def _round_stats(rounds: QuerySet[Round], days: Days = None) -> QuerySet:
    """Active rounds, and voided ones holding a reviewed error, annotated with whether they
    hold a dealer error (one EXISTS per row, in SQL); ``days``: the rounds' period, as
    :func:`counted_findings` takes it."""
    return rounds.annotate(
        has_error=Exists(counted_findings(Finding.objects.filter(round=OuterRef("pk")), days=days))
    ).filter(Q(status=Round.ACTIVE) | Q(has_error=True))


def _finding_money(findings: QuerySet[Finding], days: Days = None) -> QuerySet[Finding]:
    return counted_findings(findings, days=days)


def _days(since: date | None, until: date | None) -> Days:
    return (since, until) if since and until else None


def _in_period(queryset: QuerySet, since: date | None, until: date | None) -> QuerySet:
    """``queryset`` (of a model with a ``gaming_day``) narrowed to the gaming days from ``since``
    to ``until`` (either end open when None)."""
    if since:
        queryset = queryset.filter(gaming_day__gte=since)
    if until:
        queryset = queryset.filter(gaming_day__lte=until)
    return queryset


def _rates(row: dict) -> dict:
    rounds = row.get("rounds") or 0
    row["error_rate"] = (
        (Decimal(row.get("error_rounds") or 0) * 100 / rounds).quantize(Decimal("0.1"))
        if rounds
        else None
    )
    for key in ("overpaid", "underpaid"):
        amount = row[key] = _cents(row.get(key))
        row[f"{key}_per_100"] = (
            (amount * 100 / rounds).quantize(Decimal("0.01")) if rounds else None
        )
    return row


def dealer_error_rounds(dealer: Dealer, *, since: date | None = None, until: date | None = None,
                        days: list[date] | None = None) -> QuerySet[Round]:
    """The dealer's rounds of the period holding a dealer error, newest first (voided ones by a
    reviewed finding); ``days``: only those gaming days of it (the days the dealer's rollups show
    an error on: a dealer without one reads none of his rounds)."""
    rounds = _in_period(Round.objects.filter(dealer=dealer), since, until)
    if days is not None:
        rounds = rounds.filter(gaming_day__in=days)
    # Newest first from round_dealer_recorded: a page stops after its rounds with an error (one
    # round in forty), instead of sorting every round the dealer dealt in the period.
    held = Exists(counted_findings(Finding.objects.filter(round=OuterRef("pk")), days=_days(since, until)))
    return rounds.filter(held).select_related("table").order_by("-recorded_at")


#: Hold'em's pot and rake rows: their pushes are the log's awards, judged whole (no recorded net).
_LOG_PAYS = ("pot", "rake")
#: How a wager's pay stands, the dealer page's three counts (the rollups' column names).
PAY_RECORDED, PAY_ATTESTED, PAY_NOT_RECORDED = "pays_recorded", "pays_attested", "pays_not_recorded"
PAY_STATES = (PAY_RECORDED, PAY_ATTESTED, PAY_NOT_RECORDED)


def pay_state(wager: str, recorded: bool, attested: bool) -> str:
    """The pays of a round's current revision, counted apart (docs/floor/recording-rounds.md):
    ``recorded`` (the dealer's pay was entered, or a Hold'em pot or rake row, which the log's
    awards judge whole, unless the revision was attested), ``attested`` ("paid as shown", not
    recorded) and ``not_recorded`` (neither: rounds stored before the rule, or loaded around the
    tablet). Only recorded pays are judged, so only they can show an error.

    The one definition: the rollups' writer applies it to the rows it has just written and to
    the raw rows it rebuilds from (audit/rollups/writer.py), and the dealer page sums the rollups."""
    if recorded or (wager in _LOG_PAYS and not attested):
        return PAY_RECORDED
    return PAY_ATTESTED if attested else PAY_NOT_RECORDED


def dealer_table(*, since: date | None = None, until: date | None = None, casinos=None) -> list[dict]:
    """Every dealer with rounds in the period: rounds, rounds with an error, money over/underpaid.

    Two grouped queries (rounds per dealer, finding money per dealer) merged by dealer id.
    """
    rounds = narrow(Round.objects.all(), casinos, ROUND_CASINO)
    findings = narrow(Finding.objects.all(), casinos, FINDING_CASINO)
    rounds, findings = _in_period(rounds, since, until), _in_period(findings, since, until)
    per_round = (
        _round_stats(rounds, _days(since, until))
        .values("dealer")
        .annotate(rounds=Count("id"), error_rounds=Count("id", filter=Q(has_error=True)))
        .order_by()
    )
    money = {
        row["round__dealer"]: row
        for row in _finding_money(findings, _days(since, until))
        .values("round__dealer")
        .annotate(
            overpaid=_money_sum("amount", kind=OVERPAY),
            underpaid=_money_sum("amount", kind=UNDERPAY),
            findings=Count("id"),
        )
        .order_by()
    }
    dealers = Dealer.objects.in_bulk([row["dealer"] for row in per_round])
    table = []
    for row in per_round:
        m = money.get(row["dealer"], {})
        table.append(
            _rates(
                {
                    "dealer": dealers[row["dealer"]],
                    "rounds": row["rounds"],
                    "error_rounds": row["error_rounds"],
                    "overpaid": m.get("overpaid", ZERO),
                    "underpaid": m.get("underpaid", ZERO),
                    "findings": m.get("findings", 0),
                }
            )
        )
    table.sort(key=lambda r: (-(r["error_rate"] or 0), r["dealer"].name))
    return table


def floor_average(*, since: date | None = None, until: date | None = None, casinos=None) -> dict:
    """The same figures for the whole floor (every dealer together), for comparison."""
    rounds = narrow(Round.objects.all(), casinos, ROUND_CASINO)
    findings = narrow(Finding.objects.all(), casinos, FINDING_CASINO)
    rounds, findings = _in_period(rounds, since, until), _in_period(findings, since, until)
    row = _round_stats(rounds, _days(since, until)).aggregate(
        rounds=Count("id"),
        error_rounds=Count("id", filter=Q(has_error=True)),
        dealers=Count("dealer", distinct=True),
    )
    row.update(
        _finding_money(findings, _days(since, until)).aggregate(
            overpaid=_money_sum("amount", kind=OVERPAY),
            underpaid=_money_sum("amount", kind=UNDERPAY),
            findings=Count("id"),
        )
    )
    return _rates(row)


def dealer_stats(dealer: Dealer, *, since: date | None = None, until: date | None = None) -> dict:
    """One dealer's rounds, error rate and money over- and underpaid in the period."""
    rounds = Round.objects.filter(dealer=dealer)
    findings = Finding.objects.filter(round__dealer=dealer)
    rounds, findings = _in_period(rounds, since, until), _in_period(findings, since, until)
    row = _round_stats(rounds, _days(since, until)).aggregate(
        rounds=Count("id"), error_rounds=Count("id", filter=Q(has_error=True))
    )
    row.update(
        _finding_money(findings, _days(since, until)).aggregate(
            overpaid=_money_sum("amount", kind=OVERPAY),
            underpaid=_money_sum("amount", kind=UNDERPAY),
            findings=Count("id"),
        )
    )
    row["by_code"] = _money_rows(
        list(
            _finding_money(findings, _days(since, until))
            .values("code", "kind")
            .annotate(count=Count("id"), amount=_money_sum("amount"))
            .order_by("-count", "code")
        ),
        "amount",
    )
    return _rates(row)


# --- overpay patterns ------------------------------------------------------------------------


def _overpays(since: date | None, until: date | None, dealer: int | None, casinos) -> QuerySet[Finding]:
    qs = _finding_money(narrow(Finding.objects.filter(kind=OVERPAY), casinos, FINDING_CASINO), _days(since, until))
    qs = _in_period(qs, since, until)
    if dealer:
        qs = qs.filter(round__dealer_id=dealer)
    return qs


def overpay_patterns(
    *,
    since: date | None = None,
    until: date | None = None,
    min_count: int = 2,
    dealer: int | None = None,
    casinos=None,
) -> dict[str, list[dict]]:
    """Dealer -> same player identifier, and dealer -> same seat of a table, overpaid again and again.

    Each pair with at least ``min_count`` overpay findings, most frequent first, with the
    number of findings, of distinct rounds and the money overpaid. Grouped in SQL.
    """
    base = _overpays(since, until, dealer, casinos)
    common = {
        "count": Count("id"),
        "rounds": Count("round", distinct=True),
        "amount": _money_sum("amount"),
    }
    by_player = list(
        base.exclude(player="")
        .values("round__dealer", "round__dealer__name", "round__dealer__employee_number", "player")
        .annotate(**common)
        .filter(count__gte=min_count)
        .order_by("-count", "-amount", "player")
    )
    by_seat = list(
        base.filter(seat__gt=0)
        .values(
            "round__dealer",
            "round__dealer__name",
            "round__dealer__employee_number",
            "round__table",
            "round__table__label",
            "seat",
        )
        .annotate(**common)
        .filter(count__gte=min_count)
        .order_by("-count", "-amount", "round__table__label", "seat")
    )
    return {
        "by_player": _money_rows(by_player, "amount"),
        "by_seat": _money_rows(by_seat, "amount"),
    }


def older_waiting_count(since: date | None, *, casinos=None) -> int:
    """Findings still waiting for a decision from before ``since``: the queue's period hides
    them, so the page says how many there are (surveillance's backlog stays in sight)."""
    if since is None:
        return 0
    return narrow(Finding.objects.filter(status=Finding.OPEN, round__status=Round.ACTIVE,
                                         gaming_day__lt=since), casinos, FINDING_CASINO).count()
