"""A table's day in money: opener, closer, fills, credits, drop, and the statistical win.

The one definition of the regulators' figures (ACCOUNTING.md; Maryland COMAR 36.05.03.25,
Kansas K.A.R. 112-108-51, Ohio OAC 3772-11-43):

    statistical win = closer - opener + drop + credits - fills
    hold %          = statistical win / drop x 100

per table and gaming day. Each part is read from the records that signed it, for the gaming
day it belongs to:

- *opener*: the day's first opener slip (the chips the day began with); *closer*: the day's
  last closer (a table that stays open over the day's start closes on paper, services/inventory);
- *fills* and *credits*: the chip ledger's fill and credit postings of the day (a slip posts
  when it is received at the table, so a slip still at the cage or voided counts nothing);
- *drop*: the soft count's postings dated on the box's day (currency + chips + markers of the
  box's current signed revision; a later revision posts its difference);
- *estimated drop*: the cash and marker buy-ins that stand (selectors_drop.estimated_drop).

A part nobody signed is ``None``, never zero: a table with no opener or closer (it keeps no
chip inventory) or whose box is not counted yet has no statistical win, and it is left out of
a roll-up's win and drop alike (``CashFigures.complete``), so a hold % never divides a win by a
drop that does not belong to it. Roll-ups (pit, game, floor, a month, a year) are sums of
complete table days.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Q

from casino.double_entry import ZERO
from casino.money import money_sum
from casino.scoping import narrow
from tables.accounting.models import Account, BuyIn, CountSignature, InventorySlip, Leg, Transaction

_PCT = Decimal("0.0001")


def drop_hold_pct(win: Decimal | None, drop: Decimal | None) -> Decimal | None:
    """Statistical win / drop in percent, to 4 places (None without a drop)."""
    if win is None or not drop:
        return None
    return (100 * win / drop).quantize(_PCT, rounding=ROUND_HALF_UP)


@dataclass
class CashFigures:
    """The signed money of one table day, or the sum of several (``tables``: how many complete
    table days the sum holds; ``incomplete``: how many were left out)."""

    opener: Decimal | None = None
    closer: Decimal | None = None
    fills: Decimal = ZERO
    credits: Decimal = ZERO
    drop: Decimal | None = None
    estimated_drop: Decimal = ZERO
    tables: int = 0
    incomplete: int = 0

    @property
    def complete(self) -> bool:
        return self.opener is not None and self.closer is not None and self.drop is not None

    @property
    def stat_win(self) -> Decimal | None:
        if not self.complete:
            return None
        return self.closer - self.opener + self.drop + self.credits - self.fills

    @property
    def drop_hold_pct(self) -> Decimal | None:
        return drop_hold_pct(self.stat_win, self.drop)

    def add(self, other: CashFigures) -> None:
        """Add a table day, or a sum of them. Only complete days enter the money; an incomplete
        one is counted apart, with its estimated drop kept."""
        self.estimated_drop += other.estimated_drop
        is_sum = bool(other.tables or other.incomplete)
        days_in = other.tables if is_sum else int(other.complete)
        self.incomplete += other.incomplete if is_sum else int(not other.complete)
        if not days_in:
            return
        for name in ("opener", "closer", "drop"):
            setattr(self, name, (getattr(self, name) or ZERO) + getattr(other, name))
        self.fills += other.fills
        self.credits += other.credits
        self.tables += days_in


def summed(figures: Iterable[CashFigures]) -> CashFigures:
    total = CashFigures()
    for one in figures:
        total.add(one)
    return total


def table_days(casino_ids, first_day: date, last_day: date | None = None,
               table_ids: Iterable[int] | None = None) -> dict[tuple[int, date], CashFigures]:
    """``(table id, gaming day) -> CashFigures`` for every table with a signed record or a
    buy-in between ``first_day`` and ``last_day`` (inclusive; default ``first_day``) at the
    given casinos (``None``: all). Five queries whatever the span."""
    last_day = last_day or first_day
    days = {"gaming_day__range": (first_day, last_day)}
    out: dict[tuple[int, date], CashFigures] = defaultdict(CashFigures)

    def narrowed(qs, casino_path="casino", table_path="table_id"):
        qs = narrow(qs, casino_ids, casino_path)
        return qs if table_ids is None else qs.filter(**{f"{table_path}__in": table_ids})

    slips = narrowed(InventorySlip.objects.filter(**days)).order_by("recorded_at", "id")
    for table_id, day, kind, total in slips.values_list("table_id", "gaming_day", "kind", "total"):
        figures = out[(table_id, day)]
        if kind == InventorySlip.OPENER:
            if figures.opener is None:
                figures.opener = total
        else:
            figures.closer = total

    legs = narrowed(Leg.objects.filter(
        Q(transaction__kind__in=(Transaction.FILL, Transaction.CREDIT), account__kind=Account.TABLE_INVENTORY)
        | Q(transaction__kind=Transaction.COUNT, account__kind=Account.TABLE_RESULT),
        **{f"transaction__{k}": v for k, v in days.items()}), "transaction__casino", "account__table_id")
    for table_id, day, kind, amount in (legs.values_list("account__table_id", "transaction__gaming_day",
                                                          "transaction__kind")
                                        .annotate(amount=money_sum("amount")).order_by()):
        figures = out[(table_id, day)]
        if kind == Transaction.FILL:
            figures.fills += amount
        elif kind == Transaction.CREDIT:
            figures.credits -= amount
        else:  # the count credits the table's result with the drop
            figures.drop = (figures.drop or ZERO) - amount

    # A signed count whose revision moved nothing the ledger holds still makes the drop known.
    signed = narrowed(CountSignature.objects.filter(**{f"count__box__{k}": v for k, v in days.items()}),
                      "count__box__casino", "count__box__table_id")
    for table_id, day in signed.values_list("count__box__table_id", "count__box__gaming_day").distinct():
        figures = out[(table_id, day)]
        if figures.drop is None:
            figures.drop = ZERO

    buy_ins = narrowed(BuyIn.objects.filter(void__isnull=True, kind__in=BuyIn.DROPPED, **days))
    for table_id, day, amount in (buy_ins.values_list("table_id", "gaming_day")
                                  .annotate(amount=money_sum("amount")).order_by()):
        out[(table_id, day)].estimated_drop += amount
    return dict(out)
