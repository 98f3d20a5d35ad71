"""Reads for the reconciliation: which rounds a gaming day holds, and SQL aggregates of a slice.

Everything here is one GROUP BY query per fact, run by the database; Python only turns the
few resulting rows (tables x ruleset versions x wager keys) into JSON for the combine step.
Only each round's CURRENT revision counts (``Wager.revision.number = Round.revision``);
voided rounds are only counted.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from django.db.models import Case, Count, DecimalField, F, Q, Sum, Value, When
from django.db.models.functions import Coalesce

from audit.models import Finding
from casino.gaming_day import gaming_day_bounds
from tables.models import Round, Wager

from .theoretical import POT_KEY

#: Findings that count against a dealer and in the report: not superseded by a correction,
#: not dismissed as a recording mistake. Escalated ones are still possible errors.
COUNTED_FINDINGS = (Finding.OPEN, Finding.CONFIRMED, Finding.ESCALATED)

_MONEY = DecimalField(max_digits=20, decimal_places=2)
_SQUARE = DecimalField(max_digits=30, decimal_places=4)


def day_bounds(casino, gaming_day: date) -> tuple[datetime, datetime]:
    """UTC ``[start, end)`` of ``gaming_day`` at ``casino`` (23 or 25 hours across DST)."""
    return gaming_day_bounds(gaming_day, casino.time_zone, casino.gaming_day_start_hour)


def day_rounds(casino, start: datetime, end: datetime):
    """Every round (active or voided) recorded at ``casino`` in ``[start, end)``."""
    return Round.objects.filter(
        table__pit__casino=casino, recorded_at__gte=start, recorded_at__lt=end
    )


def _slice(qs, prefix: str, casino, start, end, first: int, last: int):
    return qs.filter(
        **{
            f"{prefix}id__gte": first,
            f"{prefix}id__lte": last,
            f"{prefix}recorded_at__gte": start,
            f"{prefix}recorded_at__lt": end,
            f"{prefix}table__pit__casino": casino,
        }
    )


def slice_reaudit_ids(*, casino, start, end, first: int, last: int, full: bool) -> list[int]:
    """Active rounds of the slice whose current revision the re-audit must replay: those audited
    by another engine version (every one with ``full``)."""
    from tables.games import ENGINE_VERSION
    from tables.models import RoundRevision

    revisions = _slice(
        RoundRevision.objects.all(), "round__", casino, start, end, first, last
    ).filter(number=F("round__revision"), round__status=Round.ACTIVE)
    if not full:
        revisions = revisions.exclude(engine_version=ENGINE_VERSION)
    return list(revisions.values_list("round_id", flat=True))


def _s(value) -> str:
    return str((value or Decimal(0)).quantize(Decimal("0.0001")))


def slice_aggregates(*, casino, start: datetime, end: datetime, first: int, last: int) -> dict:
    """SQL aggregates of the rounds with ids in ``[first, last]`` recorded in ``[start, end)``.

    Returns lists of rows (amounts as strings) that add up across slices:
    ``wagers``: table, ruleset version, wager key, settlements, handle, sum of stake squared,
    paid (actual), player's net actual, player's net expected, recorded-expected, overpaid,
    underpaid; ``tables``: table, rounds, seats played, voided rounds; ``findings``: table,
    kind, count, amount; ``dealers``: dealer, rounds, rounds with findings, findings, amount.
    """
    rounds = _slice(Round.objects.all(), "", casino, start, end, first, last)
    active = rounds.filter(status=Round.ACTIVE)
    wagers = _slice(Wager.objects.all(), "round__", casino, start, end, first, last).filter(
        round__status=Round.ACTIVE, revision__number=F("round__revision")
    )
    actual = Coalesce("recorded_net", "expected_net")
    diff = Case(
        When(recorded_net__isnull=False, then=F("recorded_net") - F("expected_net")),
        default=Value(Decimal(0)),
        output_field=_MONEY,
    )
    zero = Value(Decimal(0), output_field=_MONEY)
    wager_rows = (
        wagers.exclude(wager=POT_KEY)
        .values("round__table_id", "round__ruleset_version_id", "wager")
        .annotate(
            n=Count("id"),
            handle=Sum("stake", output_field=_MONEY),
            handle_sq=Sum(F("stake") * F("stake"), output_field=_SQUARE),
            paid=Sum(
                Case(
                    When(
                        Q(recorded_net__gt=0) | Q(recorded_net__isnull=True, expected_net__gt=0),
                        then=actual,
                    ),
                    default=zero,
                    output_field=_MONEY,
                )
            ),
            net=Sum(actual, output_field=_MONEY),
            expected=Sum("expected_net", output_field=_MONEY),
            error=Sum(diff, output_field=_MONEY),
            over=Sum(
                Case(
                    When(
                        recorded_net__gt=F("expected_net"),
                        then=F("recorded_net") - F("expected_net"),
                    ),
                    default=zero,
                    output_field=_MONEY,
                )
            ),
            under=Sum(
                Case(
                    When(
                        recorded_net__lt=F("expected_net"),
                        then=F("expected_net") - F("recorded_net"),
                    ),
                    default=zero,
                    output_field=_MONEY,
                )
            ),
        )
        .order_by()
    )
    seats = dict(
        wagers.filter(seat__gt=0)
        .values("round__table_id")
        .annotate(n=Count(F("round_id") * 8 + F("seat"), distinct=True))
        .order_by()
        .values_list("round__table_id", "n")
    )
    per_table = (
        active.values("table_id").annotate(n=Count("id")).order_by().values_list("table_id", "n")
    )
    voided = dict(
        rounds.filter(status=Round.VOIDED)
        .values("table_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("table_id", "n")
    )
    findings = _slice(Finding.objects.all(), "round__", casino, start, end, first, last).filter(
        round__status=Round.ACTIVE,
        revision__number=F("round__revision"),
        status__in=COUNTED_FINDINGS,
    )
    finding_rows = (
        findings.values("round__table_id", "kind")
        .annotate(n=Count("id"), amount=Sum("amount"))
        .order_by()
    )
    dealer_rounds = (
        active.values("dealer_id").annotate(n=Count("id")).order_by().values_list("dealer_id", "n")
    )
    dealer_errors = {
        r["round__dealer_id"]: r
        for r in findings.values("round__dealer_id")
        .annotate(rounds=Count("round_id", distinct=True), n=Count("id"), amount=Sum("amount"))
        .order_by()
    }
    tables = {t: [t, n, seats.get(t, 0), voided.pop(t, 0)] for t, n in per_table}
    for t, n in voided.items():
        tables[t] = [t, 0, 0, n]
    return {
        "wagers": [
            [
                r["round__table_id"],
                r["round__ruleset_version_id"],
                r["wager"],
                r["n"],
                _s(r["handle"]),
                _s(r["handle_sq"]),
                _s(r["paid"]),
                _s(r["net"]),
                _s(r["expected"]),
                _s(r["error"]),
                _s(r["over"]),
                _s(r["under"]),
            ]
            for r in wager_rows
        ],
        "tables": list(tables.values()),
        "findings": [
            [r["round__table_id"], r["kind"], r["n"], _s(r["amount"])] for r in finding_rows
        ],
        "dealers": [
            [
                d,
                n,
                dealer_errors.get(d, {}).get("rounds", 0),
                dealer_errors.get(d, {}).get("n", 0),
                _s(dealer_errors.get(d, {}).get("amount")),
            ]
            for d, n in dealer_rounds
        ],
    }
