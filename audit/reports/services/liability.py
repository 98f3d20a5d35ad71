"""Jackpot liability at the opening and close of a gaming day, from the jackpot ledger.

The ledger (``audit/jackpots``) owns the liability; this module only asks it. If the ledger
is not installed the report shows the opening and closing columns empty with the reason,
rather than guessing a figure. Taxes and jackpots paid are always in the report: they come
from the settled wagers.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Liability:
    available: bool
    opening: Decimal | None = None
    closing: Decimal | None = None
    reason: str = ""
    by_line: dict | None = None

    def as_dict(self) -> dict:
        return {
            "available": self.available,
            "reason": self.reason,
            "opening": None if self.opening is None else str(self.opening),
            "closing": None if self.closing is None else str(self.closing),
            "by_line": self.by_line or {},
        }


NOT_AVAILABLE = (
    "Liability opening/closing not shown: the jackpot ledger (audit/jackpots) offers no liability "
    "selector. Taxes and jackpots are from the settled wagers."
)


def liability_for_day(casino, gaming_day) -> Liability:
    """Opening and closing jackpot liability of ``casino``'s banks over ``gaming_day``.

    From the ledger's ``liability_report`` (``audit.jackpots.selectors``): per bank and line
    (meter + hidden reserve) and awards payable; the "total" rows are summed over the banks.
    """
    try:
        selectors = importlib.import_module("audit.jackpots.selectors")
        banks_model = importlib.import_module("audit.jackpots.models").JackpotBank
    except ImportError:
        return Liability(False, reason=NOT_AVAILABLE)
    report_of = getattr(selectors, "liability_report", None)
    if report_of is None:
        return Liability(False, reason=NOT_AVAILABLE)
    banks = list(banks_model.objects.filter(casino=casino).order_by("name"))
    if not banks:
        return Liability(
            True, Decimal(0), Decimal(0), "No jackpot bank at this casino: no liability.", {}
        )
    report = report_of(day_from=gaming_day, day_to=gaming_day, banks=banks)
    totals = [r for r in report.rows if r.line == "total"]
    by_line = {
        f"{r.bank} / {r.line}": {
            k: str(v) for k, v in r.as_dict().items() if k not in ("bank", "line")
        }
        for r in report.rows
    }
    return Liability(
        True,
        sum((r.opening for r in totals), Decimal(0)),
        sum((r.closing for r in totals), Decimal(0)),
        "From the jackpot ledger: meters, hidden reserves and awards "
        "payable of the casino's banks over the gaming day.",
        by_line,
    )
