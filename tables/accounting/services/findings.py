"""Flags for what happened at a table but broke a procedure, at the casino's thresholds."""

from __future__ import annotations

from decimal import Decimal

from casino.models import Casino
from tables.accounting.models import AccountingFinding, AccountingSettings


def accounting_settings(casino: Casino) -> AccountingSettings:
    """The casino's thresholds; the defaults (New Jersey's) until a gaming manager sets them."""
    return AccountingSettings.objects.filter(casino=casino).first() or AccountingSettings(casino=casino)


def inventory_discrepancy_flag(*, slip, previous, difference: Decimal, at) -> AccountingFinding | None:
    """An opener that differs from the table's last closer by more than the casino's report
    threshold is a finding; at the regulator threshold or more it is marked for the regulator.
    ``difference``: the gross difference (the sum over denominations of |opener - closer|),
    so chips swapped between denominations count even when the totals agree."""
    limits = accounting_settings(slip.casino)
    if difference <= limits.report_above:
        return None
    to_regulator = difference >= limits.regulator_at
    return AccountingFinding.objects.create(
        casino=slip.casino, table=slip.table, gaming_day=slip.gaming_day, inventory_slip=slip, created_at=at,
        code=AccountingFinding.INVENTORY_DISCREPANCY, amount=difference, to_regulator=to_regulator,
        message=(f"Opener {slip.label} ({slip.total}) differs from the last closer {previous.label} "
                 f"({previous.total}) by {difference} across denominations"
                 + (f"; {limits.regulator_at} or more: report it to the regulator" if to_regulator else "")))


def unsigned_receipt_flag(*, slip, at) -> AccountingFinding:
    return AccountingFinding.objects.create(
        casino=slip.casino, table=slip.table, gaming_day=slip.gaming_day, chip_slip=slip, created_at=at,
        code=AccountingFinding.NO_DEALER_SIGNATURE, amount=slip.total,
        message=f"{slip.get_kind_display().capitalize()} {slip.label} ({slip.total}) was received at table "
                f"{slip.table.label} without the dealer's signature")
