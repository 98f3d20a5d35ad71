"""Every jackpot figure entered has a plausibility bound set per bank (``amount_max``), refused
with the field named, and the ledger's daily rollup holds any sum the ledger can reach.

Before: an adjustment of 999,999,999,999.99 was accepted and approved; every later decision on
its line was a 500 (the rollup's running sum overflowed numeric(14, 2)) and the next hit made a
pending award of almost a trillion.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from audit.jackpots.ledger import Book, balances_by_account
from audit.jackpots.models import (
    JackpotAdjustment,
    JackpotBank,
    LedgerAccount,
    LedgerDayBalance,
    LedgerTransaction,
)
from audit.jackpots.rollup import rollup_verify
from audit.jackpots.rules import adjustment_legs
from audit.jackpots.selectors import adjustment_balance
from audit.jackpots.services import jackpot_adjustment_request, meters_lock
from tests.conftest import api_as, client_as
from tests.factories import user_with_role
from tests.jackpots.helpers import DAY_START, linked_bank

pytestmark = pytest.mark.django_db
D = Decimal
HUGE = "999999999999.99"
LINE = "bust5_unsuited"


def _request(client, bank, amount, line=LINE, target="meter"):
    return client.post(reverse("jackpot-adjustment-list"), {
        "bank": bank.pk, "line": line, "target": target, "amount": amount,
        "reason": "malfunction_correction", "note": "meter fault"}, format="json")


@pytest.mark.parametrize("auth", ["token", "session"])
def test_a_trillion_adjustment_is_refused_with_a_field_error_and_nothing_is_saved(auth):
    bank, _tables, _manager, _boss = linked_bank(1)
    finance = client_as(user_with_role("finance"), auth)
    for amount in (HUGE, "-" + HUGE, "1000000.01"):
        response = _request(finance, bank, amount)
        assert response.status_code == 400, response.content
        body = response.json()
        assert set(body) == {"amount"}, body
        assert "largest figure bank Fortune bank takes (1,000,000.00)" in body["amount"][0]
    assert not JackpotAdjustment.objects.exists()
    # Within the bound it is taken.
    assert _request(finance, bank, "999000.00").status_code == 201


def test_the_page_refuses_it_as_a_form_error():
    bank, _tables, _manager, _boss = linked_bank(1)
    page = api_as(user_with_role("finance")).post(reverse("jackpots-adjustments"), {
        "bank": bank.pk, "line": LINE, "target": "meter", "amount": HUGE,
        "reason": "malfunction_correction", "note": "meter fault"}, format="multipart")
    assert page.status_code == 200
    assert "Amount: 999,999,999,999.99 is more than the largest figure bank Fortune bank takes" in \
        page.content.decode()
    assert not JackpotAdjustment.objects.exists()


def test_an_increase_that_would_leave_the_meter_above_the_bound_is_refused():
    bank, _tables, _manager, _boss = linked_bank(1)
    finance = api_as(user_with_role("finance"))
    held = adjustment_balance(JackpotAdjustment(bank=bank, line=LINE, target="meter", amount=D("1")))
    response = _request(finance, bank, str(D("1000000.00") - held + D("0.01")))
    assert response.status_code == 400 and "above the largest figure" in response.json()["amount"][0]
    assert _request(finance, bank, str(D("1000000.00") - held)).status_code == 201


@pytest.mark.parametrize("auth", ["token", "session"])
def test_a_gaming_manager_sets_the_bound_per_bank_with_a_reason(auth):
    bank, _tables, _manager, _boss = linked_bank(1)
    other = JackpotBank.objects.create(casino=bank.casino, name="Other bank")
    url = reverse("jackpot-bank-limit", args=[bank.pk])
    refused = client_as(user_with_role("finance"), auth).post(url, {"amount_max": "5000000.00", "reason": "x"},
                                                             format="json")
    assert refused.status_code == 403
    manager = client_as(user_with_role("gaming_manager", username="gm2"), auth)
    bad = manager.post(url, {"amount_max": "0", "reason": "x"}, format="json")
    assert bad.status_code == 400 and set(bad.json()) == {"amount_max"}
    ok = manager.post(url, {"amount_max": "5000000.00", "reason": "wide-area progressive"}, format="json")
    assert ok.status_code == 200 and ok.json()["amount_max"] == "5000000.00"
    bank.refresh_from_db()
    assert bank.history.first().history_change_reason == "wide-area progressive"
    assert other.amount_max == D("1000000.00")  # per bank
    finance = client_as(user_with_role("finance", username="fin2"), auth)
    assert _request(finance, bank, "4000000.00").status_code == 201


def test_a_request_above_a_bound_lowered_since_is_refused_at_approval_and_nothing_posts():
    bank, _tables, manager, _boss = linked_bank(1)
    adjustment = jackpot_adjustment_request(bank=bank, line=LINE, amount=D("900000.00"), reason="malfunction_correction",
                                            note="meter fault", author=user_with_role("finance"))
    second = api_as(user_with_role("gaming_manager", username="gm2"))
    assert second.post(reverse("jackpot-bank-limit", args=[bank.pk]),
                       {"amount_max": "100000.00", "reason": "tighter"}, format="json").status_code == 200
    before = LedgerTransaction.objects.count()
    decided = api_as(manager).post(reverse("jackpot-adjustment-decide", args=[adjustment.pk]), {"approve": True},
                                   format="json")
    assert decided.status_code == 400 and set(decided.json()) == {"amount"}, decided.json()
    assert LedgerTransaction.objects.count() == before
    adjustment.refresh_from_db()
    assert adjustment.status == JackpotAdjustment.REQUESTED


@pytest.mark.parametrize("field", ["reset", "cap"])
def test_a_seed_or_cap_above_the_bound_is_refused_with_its_field(field):
    bank, _tables, _manager, _boss = linked_bank(1)
    manager = api_as(user_with_role("gaming_manager", username="gm2"))
    figures = {"reset": "100.00", "cap": None, field: HUGE}
    response = manager.post(reverse("jackpot-bank-configure", args=[bank.pk]), {
        "line": "bust6_unsuited", "progressive": True, "increment_rate": "0.1", "reason": "typo", **figures},
        format="json")
    assert response.status_code == 400 and field in response.json(), response.json()


@pytest.mark.postgres
def test_sums_far_past_a_money_column_do_not_overflow_the_rollup_and_later_decisions_answer():
    """Thirty postings of the largest amount a leg holds, on one account and kind, some on one
    day and some on later days: the day sums and running sums reach 3 x 10**13, thirty times
    what numeric(14, 2) holds. The rollup keeps them exactly and later decisions still post."""
    bank, _tables, manager, _boss = linked_bank(1)
    biggest = D(HUGE)
    book = Book(bank)
    meters_lock(bank)
    for n in range(30):
        book.post(kind=LedgerTransaction.ADJUSTMENT, line=LINE, author=manager,
                  at=DAY_START.replace(day=14 + n // 10), memo=f"large posting {n}",
                  legs=adjustment_legs(LedgerAccount.METER, LINE, biggest))
    assert rollup_verify(bank) == []
    meter = LedgerAccount.objects.get(bank=bank, kind=LedgerAccount.METER, line=LINE)
    rows = LedgerDayBalance.objects.filter(account=meter, kind=LedgerTransaction.ADJUSTMENT).order_by("gaming_day")
    assert [r.closing for r in rows] == [-biggest * 10, -biggest * 20, -biggest * 30]
    assert balances_by_account(bank)[meter.pk] > biggest * 30
    # A later request and its decision on that line answer (a decrease: the meter is far above
    # the bank's bound, which only refuses what would leave it higher).
    finance = api_as(user_with_role("finance"))
    requested = _request(finance, bank, "-100.00")
    assert requested.status_code == 201, requested.content
    decided = api_as(user_with_role("gaming_manager", username="gm2")).post(
        reverse("jackpot-adjustment-decide", args=[requested.json()["id"]]), {"approve": True}, format="json")
    assert decided.status_code == 200, decided.content
    assert rollup_verify(bank) == []
