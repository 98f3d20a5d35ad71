"""Issue #14 part 2: voids and corrections of contributing, winning and paid rounds keep
every meter at or above its reset and the recomputation from the rounds exact."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from audit.jackpots.demo import jackpot_demo_day_load
from audit.jackpots.models import JackpotAward, LedgerTransaction
from audit.jackpots.reconcile import jackpot_recompute
from audit.jackpots.selectors import bank_state
from tests.conftest import api_as

pytestmark = pytest.mark.django_db
D = Decimal


def _meters_at_or_above_reset(bank) -> list[str]:
    return [
        f"{ln.line}: meter {ln.meter} below its reset {ln.config.reset}"
        for ln in bank_state(bank).lines
        if ln.progressive and ln.meter < ln.config.reset
    ]


def test_voiding_a_round_that_fed_a_meter_before_its_hit_keeps_the_books_right():
    """The demo day, then a round that contributed to bust5_unsuited before its last hit is
    voided over the API: the meter stays at or above its reset and the recompute is ok."""
    loaded = jackpot_demo_day_load()
    bank = loaded["bank"]
    pitboss = next(u for u in loaded["users"] if u.username == "jp-pitboss")
    last_hit = JackpotAward.objects.filter(bank=bank, line="bust5_unsuited").latest("won_at")
    # A round whose contribution to the meter was paid out in that hit.
    fed = (
        LedgerTransaction.objects.filter(
            bank=bank,
            kind=LedgerTransaction.CONTRIBUTION,
            pk__lt=last_hit.hit_transaction_id,
            legs__account__kind="meter",
            legs__account__line="bust5_unsuited",
        )
        .exclude(round__jackpot_awards__isnull=False)
        .order_by("-pk")
        .first()
    )
    assert fed is not None
    before = bank_state(bank)
    response = api_as(pitboss).post(
        reverse("round-void", args=[fed.round_id]), {"reason": "misdeal"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert _meters_at_or_above_reset(bank) == []
    # The meter of the line already won is untouched: its money went out with the award.
    after = bank_state(bank)
    meter = {ln.line: ln.meter for ln in after.lines}
    assert meter["bust5_unsuited"] == next(
        ln.meter for ln in before.lines if ln.line == "bust5_unsuited"
    )
    finance = next(u for u in loaded["users"] if u.username == "jp-finance")
    check = api_as(finance).get(reverse("jackpot-bank-recompute", args=[bank.pk])).json()
    assert check["ok"], check
    for txn in LedgerTransaction.objects.filter(bank=bank).prefetch_related("legs"):
        assert sum((leg.amount for leg in txn.legs.all()), D("0")) == 0
