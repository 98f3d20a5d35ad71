"""Many tables contributing to one bank's meters at once lose no increment (PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection

from audit.jackpots.models import JackpotAward
from audit.jackpots.reconcile import jackpot_recompute
from audit.jackpots.rules import cents
from audit.jackpots.selectors import bank_state
from tables.services.rounds import round_record
from tests.concurrency import run_at_once
from tests.jackpots.helpers import DAY_START, PROGRESSIVE, hit_round, linked_bank

TAXED_NO_HIT = (
    "2H",
    "3C",
    "4D",
    "TS",
)  # dealer 19: the blackjack's $2 tax is collected, no jackpot
WRITERS, ROUNDS_EACH = 6, 15


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_writers_lose_no_increment():
    if connection.vendor != "postgresql":
        pytest.skip("row locks are only meaningful on PostgreSQL (SQLite serialises every writer)")
    bank, tables, manager, pitboss = linked_bank(WRITERS)
    def write(index: int) -> None:
        for i in range(ROUNDS_EACH):
            # One table also hits bust5_unsuited midway: a hit racing with contributions.
            data = hit_round() if (index == 0 and i == 7) else hit_round(dealer=TAXED_NO_HIT)
            round_record(table=tables[index], data=data, author=pitboss,
                         at=DAY_START + timedelta(seconds=index * 100 + i))

    errors = run_at_once(WRITERS, write)
    assert not errors, errors
    rounds = WRITERS * ROUNDS_EACH
    award = JackpotAward.objects.get(bank=bank)
    state = {ln.line: ln for ln in bank_state(bank).lines}
    tax = Decimal("2.00")
    for line, (reset, inc, _hidden, cap) in PROGRESSIVE.items():
        per_round = cents(tax * Decimal(inc))
        if line == "bust5_unsuited":
            # Every increment is either still on the meter or was paid out in the award.
            total_in = Decimal(reset) + per_round * rounds
            assert state[line].meter + award.amount - Decimal(reset) == total_in, (
                state[line].meter,
                award.amount,
            )
        elif cap is None:
            assert state[line].meter == Decimal(reset) + per_round * rounds
    assert bank_state(bank).contribution_base == tax * rounds
    check = jackpot_recompute(bank)
    assert check.ok, (check.differences, check.award_mismatches)
