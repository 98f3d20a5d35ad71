"""Counted pieces as slips and the count take them: chips validated against the casino's chip
set, the rule every slip (opener, closer, fill, credit) and the soft count share; the count's
notes go through the same rule."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import ValidationError

from casino.double_entry import ZERO
from casino.models import Casino
from tables.accounting.models import ChipSet, Denomination
from tables.accounting.services.findings import accounting_settings
from tables.games.vocabulary.money import MoneyError, to_money
from tables.models import Dealer

MAX_PIECES = 1_000_000  # of one value on one slip or in one box: more cannot be on a table, a cart or in a box


@dataclass(frozen=True)
class ChipCount:
    denomination: Denomination
    count: int

    @property
    def amount(self) -> Decimal:
        return self.denomination.value * self.count


def value_counts(raw, allowed: dict, *, field: str, noun: str, where: str) -> list[tuple[object, int]]:
    """The one rule for counted pieces (chips on a slip or in a box, notes in a box).
    ``raw``: ``[{"denomination": "25.00", "count": 4}, ...]`` or ``{"25.00": 4, ...}``;
    ``allowed``: value -> what names it. Returns ``[(what names it, count)]`` by value. Refuses,
    naming the entry, a value not in ``allowed``, a count that is negative, fractional or not a
    number, and a value given twice. Zero counts are dropped."""
    if isinstance(raw, dict):
        raw = [{"denomination": k, "count": v} for k, v in raw.items()]
    if not isinstance(raw, list):
        raise ValidationError({field: ["a list of {denomination, count}"]})
    errors: dict[str, list[str]] = {}
    out: dict[Decimal, tuple[object, int]] = {}
    for i, entry in enumerate(raw):
        at = f"{field}[{i}]"
        if not isinstance(entry, dict):
            errors[at] = ["an object {denomination, count}"]
            continue
        try:
            # The money rule: plain decimals only ("25", "25.00"), never "2.5e1", a float or NaN.
            value = to_money(entry.get("denomination"))
        except MoneyError as exc:
            errors[f"{at}.denomination"] = [f"{entry.get('denomination')!r} is not a {noun} value: {exc}"]
            continue
        if value not in allowed:
            have = ", ".join(f"{v}" for v in sorted(allowed))
            errors[f"{at}.denomination"] = [f"{value} is not a {noun} of {where} ({have})"]
            continue
        count = entry.get("count")
        if isinstance(count, str) and re.fullmatch(r"\s*-?\d{1,12}\s*", count):
            count = int(count)  # a form's field
        if isinstance(count, bool) or not isinstance(count, int):
            errors[f"{at}.count"] = [f"{value} {noun}s: {count!r} is not a whole number of {noun}s"]
            continue
        if count < 0 or count > MAX_PIECES:
            errors[f"{at}.count"] = [f"{value} {noun}s: {count} is not 0 to {MAX_PIECES:,}"]
            continue
        if value in out:
            errors[f"{at}.denomination"] = [f"{value} is given twice"]
            continue
        if count:
            out[value] = (allowed[value], count)
    if errors:
        raise ValidationError(errors)
    return [out[v] for v in sorted(out)]


def chip_counts(casino: Casino, raw, *, field: str = "counts", allow_empty: bool = False) -> list[ChipCount]:
    """Chips counted against the casino's chip set (its active denominations), by
    :func:`value_counts`; at least one chip unless ``allow_empty``."""
    chip_set = ChipSet.objects.filter(casino=casino).first()
    if chip_set is None:
        raise ValidationError({field: [f"{casino} has no chip set yet (a gaming manager sets it)"]})
    active = {d.value: d for d in chip_set.denominations.filter(active=True)}
    counts = [ChipCount(d, n) for d, n in value_counts(raw, active, field=field, noun="chip", where=chip_set.name)]
    if not counts and not allow_empty:
        raise ValidationError({field: ["count at least one chip"]})
    # Each count is within MAX_PIECES, but those of a few high values still add up to more than a
    # table, a cart or a box holds (and past what a slip's total can store): a typing mistake.
    most = accounting_settings(casino).slip_max
    total = counts_total(counts)
    if total > most:
        raise ValidationError({field: [f"these chips total {total:,.2f}, more than one slip or box holds "
                                       f"({most:,.2f}); the casino's accounting settings set it"]})
    return counts


def counts_total(counts: list[ChipCount]) -> Decimal:
    return sum((c.amount for c in counts), ZERO)


def dealer_signature(casino: Casino, dealer_id, badge, *, field: str = "dealer") -> Dealer:
    """The dealer's signature: the dealer chosen on the tablet, confirmed by the badge number
    (employee number) the dealer types."""
    dealer = Dealer.objects.filter(pk=dealer_id, casino=casino).first() if str(dealer_id).isdigit() else None
    if dealer is None:
        raise ValidationError({field: [f"{dealer_id!r} is not a dealer of {casino}"]})
    if not dealer.active:
        raise ValidationError({field: [f"{dealer} is not an active dealer"]})
    if (badge or "").strip() != dealer.employee_number:
        raise ValidationError({f"{field}_badge": [f"the badge number does not match {dealer.name}"]})
    return dealer


def legs_between(source, target, counts: list[ChipCount], *, sign: int = 1):
    """Ledger legs moving ``counts`` from ``source`` to ``target`` (negative ``sign``: back)."""
    for c in counts:
        yield target, sign * c.amount, c.denomination
        yield source, -sign * c.amount, c.denomination

