"""The dealer pages' and the overpay patterns' figures for a period, summed from the daily
rollups (models.py): the same rows and keys as the raw selectors of audit/selectors.py, which
define the rules, at the cost of a period's rollup rows instead of its rounds (issue #20)."""

from __future__ import annotations

from datetime import date

from django.db.models import Count, QuerySet, Sum

from audit.rollups.models import DailyCodeRollup, DailyOverpayRollup, DailyRollup
from audit.selectors import PAY_STATES, ZERO, _cents, _money_rows, _rates
from casino.scoping import narrow
from tables.models import Dealer

_CASINO = "table__pit__casino"


def _period(qs: QuerySet, since: date | None, until: date | None, casinos=None, dealer=None) -> QuerySet:
    qs = narrow(qs, casinos, _CASINO)
    if since:
        qs = qs.filter(gaming_day__gte=since)
    if until:
        qs = qs.filter(gaming_day__lte=until)
    if dealer is not None:
        qs = qs.filter(dealer=dealer)
    return qs.order_by()


_SUMS = {
    "rounds": Sum("rounds"),
    "error_rounds": Sum("error_rounds"),
    "findings": Sum("findings"),
    "overpaid": Sum("overpaid"),
    "underpaid": Sum("underpaid"),
}


def _figures(row: dict) -> dict:
    for key in ("rounds", "error_rounds", "findings"):
        row[key] = row.get(key) or 0
    for key in ("overpaid", "underpaid"):
        row[key] = _cents(row.get(key) or ZERO)
    return row


def dealer_table(*, since: date | None = None, until: date | None = None, casinos=None) -> list[dict]:
    """Every dealer with rounds in the period (audit.selectors.dealer_table, from the rollups)."""
    rows = list(_period(DailyRollup.objects.all(), since, until, casinos).values("dealer").annotate(**_SUMS)
                .filter(rounds__gt=0))
    dealers = Dealer.objects.in_bulk([row["dealer"] for row in rows])
    table = [_rates(_figures({**row, "dealer": dealers[row["dealer"]]})) for row in rows]
    table.sort(key=lambda r: (-(r["error_rate"] or 0), r["dealer"].name))
    return table


def floor_average(*, since: date | None = None, until: date | None = None, casinos=None) -> dict:
    """The whole floor's figures in the period (audit.selectors.floor_average, from the rollups)."""
    rows = _period(DailyRollup.objects.all(), since, until, casinos)
    row = rows.aggregate(**_SUMS)
    # A dealer of the floor: one with a counted round in the period (a row may be all zeros).
    row["dealers"] = rows.filter(rounds__gt=0).aggregate(n=Count("dealer", distinct=True))["n"]
    return _rates(_figures(row))


def dealer_stats(dealer: Dealer, *, since: date | None = None, until: date | None = None) -> dict:
    """One dealer's figures in the period (audit.selectors.dealer_stats, from the rollups)."""
    row = _period(DailyRollup.objects.all(), since, until, dealer=dealer.pk).aggregate(**_SUMS)
    row["by_code"] = _money_rows(
        list(_period(DailyCodeRollup.objects.all(), since, until, dealer=dealer.pk)
             .values("code", "kind").annotate(count=Sum("count"), amount=Sum("amount"))
             .filter(count__gt=0).order_by("-count", "code")),
        "amount",
    )
    return _rates(_figures(row))


def dealer_error_days(dealer: Dealer, *, since: date, until: date) -> list[date]:
    """The gaming days of the period on which the dealer dealt a round holding an error."""
    return list(_period(DailyRollup.objects.all(), since, until, dealer=dealer.pk).filter(error_rounds__gt=0)
                .values_list("gaming_day", flat=True).distinct())


def dealer_pays(dealer: Dealer, *, since: date, until: date) -> dict:
    """The pays of the dealer's active rounds of the period by how they stand (audit.selectors.pay_state):
    ``recorded``, ``attested`` and ``not_recorded``, from the rollups."""
    sums = _period(DailyRollup.objects.all(), since, until, dealer=dealer.pk).aggregate(
        **{state: Sum(state) for state in PAY_STATES})
    return {state.removeprefix("pays_"): sums[state] or 0 for state in PAY_STATES}


def overpay_patterns(*, since: date | None = None, until: date | None = None, min_count: int = 2,
                     dealer: int | None = None, casinos=None, limit: int | None = None) -> dict:
    """Dealer -> same player and dealer -> same seat pairs overpaid at least ``min_count`` times
    (audit.selectors.overpay_patterns, from the rollups, with its keys), most repeated first.

    With ``limit``, each list holds at most that many pairs and ``more_by_player`` /
    ``more_by_seat`` say whether pairs were left out: a busy floor's month has thousands of pairs
    seen twice, and a page of all of them costs seconds to render and nobody reads its tail."""
    base = _period(DailyOverpayRollup.objects.all(), since, until, casinos, dealer)
    by_player = (
        base.exclude(player="")
        .values("dealer", "dealer__name", "dealer__employee_number", "player")
        .annotate(count=Sum("count"), rounds=Sum("player_rounds"), amount=Sum("amount"))
        .filter(count__gte=min_count)
        .order_by("-count", "-amount", "player")
    )
    by_seat = (
        base.filter(seat__gt=0)
        .values("dealer", "dealer__name", "dealer__employee_number", "table", "table__label", "seat")
        .annotate(count=Sum("count"), rounds=Sum("rounds"), amount=Sum("amount"))
        .filter(count__gte=min_count)
        .order_by("-count", "-amount", "table__label", "seat")
    )
    if limit is None:
        return {"by_player": _money_rows([_raw_keys(r) for r in by_player], "amount"),
                "by_seat": _money_rows([_raw_keys(r) for r in by_seat], "amount")}
    lists = {}
    for name, rows in (("by_player", by_player), ("by_seat", by_seat)):
        rows = list(rows[: limit + 1])
        lists[f"more_{name}"] = len(rows) > limit
        lists[name] = _money_rows([_raw_keys(r) for r in rows[:limit]], "amount")
    return lists


def _raw_keys(row: dict) -> dict:
    """The raw selector's keys (round__dealer, ...), which the templates read."""
    return {(f"round__{k}" if k.startswith(("dealer", "table")) else k): v for k, v in row.items()}
