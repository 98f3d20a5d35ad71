"""Openers, closers, fills and credits: what is stored, posted and flagged, and what is refused."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError

from tables.accounting.ledger import account_for, balance, balance_by_denomination
from tables.accounting.models import (
    Account,
    AccountingFinding,
    AccountingSettings,
    ChipSlip,
    InventorySlip,
    Leg,
)
from tables.accounting.services.transfers import (
    chip_slip_issue,
    chip_slip_receive,
    chip_slip_request,
    chip_slip_void_confirm,
    chip_slip_void_request,
)
from tests.accounting.helpers import DAY, closer, floor, opener
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db
H = timedelta(hours=1)


def _stored():
    return (InventorySlip.objects.count(), ChipSlip.objects.count(), Leg.objects.count(),
            AccountingFinding.objects.count())


def test_first_opener_stocks_the_table_from_the_cage_and_a_matching_next_opener_is_clean():
    f = floor()
    first = opener(f, [{"denomination": "25", "count": 40}, {"denomination": "5", "count": 100}])
    assert first.serial == 1 and first.total == D("1500.00") and first.previous is None
    tray = account_for(f.casino, Account.TABLE_INVENTORY, f.table)
    assert balance(tray) == D("1500") and balance(account_for(f.casino, Account.CAGE)) == D("-1500")
    shut = closer(f, {"25": 38, "5": 110}, at=DAY + 8 * H)
    assert balance_by_denomination(tray) == {D("25.00"): D("950"), D("5.00"): D("550")}
    again = opener(f, {"25": 38, "5": 110}, at=DAY + 24 * H)
    assert again.previous == shut and again.serial == 3 and again.transaction is None
    assert not AccountingFinding.objects.exists()


@pytest.mark.parametrize(("short", "found", "regulator"), [(D("25"), False, False), (D("30"), True, False),
                                                         (D("100"), True, True)])
def test_an_opener_that_differs_from_the_last_closer_is_flagged_at_the_casinos_thresholds(short, found, regulator):
    f = floor()
    opener(f, {"5": 100})
    closer(f, {"5": 100}, at=DAY + H)
    slip = opener(f, {"5": int(100 - short / 5)}, at=DAY + 2 * H)  # stored as counted
    assert slip.total == D("500") - short
    finding = AccountingFinding.objects.filter(inventory_slip=slip).first()
    assert (finding is not None) == found
    if found:
        assert finding.amount == short and finding.to_regulator == regulator
    assert balance(account_for(f.casino, Account.TABLE_INVENTORY, f.table)) == D("500") - short
    assert balance(account_for(f.casino, Account.VARIANCE, f.table)) == short


def test_a_casino_sets_its_own_thresholds_and_swapped_chips_count():
    f = floor()
    AccountingSettings.objects.create(casino=f.casino, report_above=D("5"), regulator_at=D("10"))
    opener(f, {"5": 10, "1": 0})
    closer(f, {"5": 10}, at=DAY + H)
    slip = opener(f, {"5": 9, "1": 5}, at=DAY + 2 * H)  # same total, one 5 swapped for five 1s
    finding = AccountingFinding.objects.get(inventory_slip=slip)
    assert finding.amount == D("10") and finding.to_regulator


def test_a_fill_from_request_to_receipt_posts_cage_to_table_and_a_credit_back():
    f = floor()
    opener(f, {"100": 10})
    fill = chip_slip_request(table=f.table, kind="fill", counts={"100": 20, "25": 4}, author=f.boss, at=DAY + H)
    assert (fill.serial, fill.status, fill.total) == (1, "requested", D("2100.00"))
    chip_slip_issue(slip=fill, author=f.cashier, at=DAY + H)
    fill = chip_slip_receive(slip=fill, author=f.boss, dealer=f.dealer.pk, dealer_badge=f.dealer.employee_number,
                             at=DAY + 2 * H)
    assert fill.status == "received" and fill.received_dealer == f.dealer
    tray, cage = account_for(f.casino, Account.TABLE_INVENTORY, f.table), account_for(f.casino, Account.CAGE)
    assert balance(tray) == D("3100") and balance(cage) == D("-3100")
    credit = chip_slip_request(table=f.table, kind="credit", counts={"100": 5}, author=f.boss, at=DAY + 3 * H)
    assert credit.serial == 1  # its own series
    chip_slip_issue(slip=credit, author=f.cashier)
    chip_slip_receive(slip=credit, author=f.boss, dealer=f.dealer.pk, dealer_badge=f.dealer.employee_number,
                      at=DAY + 4 * H)
    assert balance(tray) == D("2600") and balance(tray, as_of=DAY + 3 * H) == D("3100")
    assert not AccountingFinding.objects.exists()


def test_a_fill_received_without_the_dealers_signature_is_stored_and_flagged():
    f = floor()
    opener(f, {"100": 10})
    fill = chip_slip_request(table=f.table, kind="fill", counts={"100": 1}, author=f.boss, at=DAY + H)
    chip_slip_issue(slip=fill, author=f.cashier)
    fill = chip_slip_receive(slip=fill, author=f.boss, at=DAY + H)
    assert fill.status == "received" and fill.received_dealer is None and fill.transaction is not None
    finding = AccountingFinding.objects.get(chip_slip=fill)
    assert finding.code == "NO_DEALER_SIGNATURE" and finding.amount == D("100")


def test_a_void_keeps_its_number_and_needs_a_second_person():
    f = floor()
    opener(f, {"100": 10})
    fill = chip_slip_request(table=f.table, kind="fill", counts={"100": 1}, author=f.boss, at=DAY + H)
    with pytest.raises(ValidationError) as refused:
        chip_slip_void_request(slip=fill, reason=" ", author=f.boss)
    assert "reason" in refused.value.message_dict
    chip_slip_void_request(slip=fill, reason="wrong table", author=f.boss)
    with pytest.raises(ValidationError) as refused:
        chip_slip_void_confirm(slip=fill, author=f.boss)
    assert "voided_by" in refused.value.message_dict
    fill = chip_slip_void_confirm(slip=fill, author=f.cashier)
    assert (fill.status, fill.serial, fill.void_reason) == ("voided", 1, "wrong table")
    nxt = chip_slip_request(table=f.table, kind="fill", counts={"100": 1}, author=f.boss, at=DAY + H)
    assert nxt.serial == 2
    with pytest.raises(ValidationError):
        chip_slip_issue(slip=fill, author=f.cashier)


@pytest.mark.parametrize(("counts", "field"), [
    ({"100": -1}, "counts[0].count"),
    ({"100": 1.5}, "counts[0].count"),
    ({"100": "2.5"}, "counts[0].count"),
    ({"7": 1}, "counts[0].denomination"),
    ({"abc": 1}, "counts[0].denomination"),
    ([{"denomination": "100", "count": 1}, {"denomination": "100.00", "count": 2}], "counts[1].denomination"),
    ({}, "counts"),
])
def test_bad_chip_counts_are_refused_by_field_and_nothing_is_stored(counts, field):
    f = floor()
    opener(f, {"100": 10})
    before = _stored()
    with pytest.raises(ValidationError) as refused:
        chip_slip_request(table=f.table, kind="fill", counts=counts, author=f.boss, at=DAY + H)
    assert field in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        opener(f, counts, at=DAY + H)
    assert _stored() == before


def test_a_fill_to_a_closed_table_and_a_closer_on_a_closed_table_are_refused():
    f = floor()
    with pytest.raises(ValidationError) as refused:
        chip_slip_request(table=f.table, kind="fill", counts={"100": 1}, author=f.boss, at=DAY)
    assert "table" in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        closer(f, {"100": 1}, at=DAY)
    assert "table" in refused.value.message_dict
    assert _stored() == (0, 0, 0, 0)


def test_one_person_signing_twice_and_a_wrong_badge_are_refused():
    f = floor()
    root = user_with_role("superuser")
    opener(f, {"100": 10})
    fill = chip_slip_request(table=f.table, kind="fill", counts={"100": 1}, author=root, at=DAY + H)
    with pytest.raises(ValidationError) as refused:
        chip_slip_issue(slip=fill, author=root)
    assert "issued_by" in refused.value.message_dict
    chip_slip_issue(slip=fill, author=f.cashier)
    with pytest.raises(ValidationError) as refused:
        chip_slip_receive(slip=fill, author=f.cashier)
    assert "received_by" in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        chip_slip_receive(slip=fill, author=f.boss, dealer=f.dealer.pk, dealer_badge="nope")
    assert "dealer_badge" in refused.value.message_dict
    fill.refresh_from_db()
    assert fill.status == "issued" and not Leg.objects.filter(transaction__kind="fill").exists()


def test_a_table_open_over_the_gaming_day_start_is_closed_and_reopened_on_paper():
    from tables.services.sessions import table_session_close, table_session_current

    f = floor()
    opener(f, {"100": 10}, at=DAY + 18 * H)  # 04:00 next morning is still 2026-03-10's day
    fill = chip_slip_request(table=f.table, kind="fill", counts={"25": 4}, author=f.boss, at=DAY + 19 * H)
    chip_slip_issue(slip=fill, author=f.cashier)
    chip_slip_receive(slip=fill, author=f.boss, dealer=f.dealer.pk, dealer_badge=f.dealer.employee_number,
                      at=DAY + 19 * H)
    table_session_close(session=table_session_current(f.table), author=f.boss, at=DAY + 22 * H)  # 08:00 next day
    paper = list(InventorySlip.objects.filter(on_paper=True).order_by("serial"))
    assert [(s.kind, str(s.gaming_day), s.total) for s in paper] == [
        ("closer", "2026-03-10", D("1100.00")), ("opener", "2026-03-11", D("1100.00"))]
    assert paper[1].previous == paper[0]
    assert {(line.denomination.value, line.count) for line in paper[1].lines.all()} == {(D("100"), 10), (D("25"), 4)}


def test_every_opener_puts_on_the_days_drop_box_counted_or_on_paper():
    from tables.accounting.models import DropBox
    from tables.services.sessions import table_session_close, table_session_current

    f = floor()
    opener(f, {"100": 10}, at=DAY + 18 * H)  # 04:00 next morning is still 2026-03-10's day
    assert [str(b.gaming_day) for b in DropBox.objects.filter(table=f.table)] == ["2026-03-10"]
    table_session_close(session=table_session_current(f.table), author=f.boss, at=DAY + 22 * H)  # rolls over
    assert [str(b.gaming_day) for b in DropBox.objects.filter(table=f.table).order_by("gaming_day")] == [
        "2026-03-10", "2026-03-11"]
