"""Money summed by the database is read back as exact cents on every backend.

SQLite has no decimal type: a decimal column holds a REAL and ``SUM`` (like ``+``) is float
arithmetic, so 0.10 + 0.20 - 0.30 is 5.55e-17 (and 1000.00 plus that is not 1000.00).
Django rounds a plain column back to its decimal places, but not an aggregate or a subquery: the
jackpot ledger's balances, its rollup check and its recomputation compared such figures with
exact ones, and the hypothesis properties of test_voids_and_corrections and test_period_recompute
failed now and then on SQLite (PostgreSQL sums ``numeric`` exactly). Deterministic amounts here.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from audit.jackpots.ledger import bank_balances
from audit.jackpots.models import LedgerAccount, LedgerLeg, LedgerTransaction
from audit.jackpots.reconcile import jackpot_recompute
from audit.jackpots.rollup import closings, rollup_verify
from audit.jackpots.services import jackpot_adjustment_decide, jackpot_adjustment_request
from casino.money import money_sum
from tests.factories import user_with_role
from tests.jackpots.helpers import DAY_START, linked_bank

pytestmark = pytest.mark.django_db
D = Decimal

#: Approved adjustments of one meter on one gaming day whose float sum is not exact: increases
#: of 0.10 and 0.20, then a reduction of 0.30 (the meter's legs: -0.10, -0.20, +0.30; as floats
#: they sum to -5.55e-17, not 0).
AMOUNTS = ("0.10", "0.20", "-0.30")


def _is_cents(value: Decimal) -> bool:
    return isinstance(value, Decimal) and value.as_tuple().exponent == -2


def _adjusted_bank():
    bank, _tables, manager, _pitboss = linked_bank(1, defer=False)
    decider = user_with_role("gaming_manager", username="gm2", casinos=[bank.casino])
    for step, amount in enumerate(AMOUNTS, start=1):
        at = DAY_START + timedelta(minutes=step)
        adjustment = jackpot_adjustment_request(bank=bank, line="bust6_suited", amount=amount,
                                                reason="malfunction_correction", note="dust", author=manager, at=at)
        jackpot_adjustment_decide(adjustment=adjustment, approve=True, author=decider, at=at)
    return bank


def test_the_ledger_reads_sums_of_legs_that_floats_would_not_add_exactly_as_exact_cents():
    bank = _adjusted_bank()
    meter = LedgerAccount.objects.get(bank=bank, kind=LedgerAccount.METER, line="bust6_suited")
    day = LedgerTransaction.objects.filter(bank=bank, kind=LedgerTransaction.ADJUSTMENT).latest("pk").gaming_day

    # The rollup (running sums kept by the postings) against the legs: nothing to report.
    assert rollup_verify(bank) == []
    # The recomputation and a period's check compare every figure with the replay to the cent.
    check = jackpot_recompute(bank, day_from=day, day_to=day)
    assert check.ok, (check.differences, check.rollup_mismatches, check.round_mismatches)
    assert jackpot_recompute(bank).ok
    # The rollup's running sums, read by a subquery per kind: whole cents, 0.00 after the reduction.
    sums = closings({bank.pk: day})[bank.pk]
    assert sums[meter.pk]["adjustment"] == D("0.00")
    assert all(_is_cents(v) for by_kind in sums.values() for v in by_kind.values()), sums
    # Midway through the day (``at``: the day's legs so far are summed): 0.30 above the reset.
    balances, _base = bank_balances([bank], at=DAY_START + timedelta(minutes=2, seconds=30))
    assert balances[bank.pk][meter.pk] == D("1000.30")


def test_money_sum_and_money_read_computed_money_as_cents_on_every_database():
    bank = _adjusted_bank()
    legs = LedgerLeg.objects.filter(account__bank=bank, account__kind=LedgerAccount.METER,
                                    transaction__kind=LedgerTransaction.ADJUSTMENT)
    first_two = legs.filter(transaction__created_at__lte=DAY_START + timedelta(minutes=2))
    assert legs.aggregate(s=money_sum("amount"))["s"] == D("0.00")
    assert _is_cents(legs.aggregate(s=money_sum("amount"))["s"])
    assert first_two.aggregate(s=money_sum("amount"))["s"] == D("-0.30")
    assert legs.filter(amount__gt=1000).aggregate(s=money_sum("amount"))["s"] is None
    assert legs.filter(amount__gt=1000).aggregate(s=money_sum("amount", default=D(0)))["s"] == D("0.00")
    rows = dict(legs.values_list("account").annotate(s=money_sum("amount")))
    assert list(rows.values()) == [D("0.00")]
