"""The money records are chained: a chip-ledger leg, a cash buy-in, a soft-count line, a fill
changed by the owner behind the app's back (every trigger off) is found by audit_verify, a
record inserted without a link too, and the day's printed head covers the day's money chain."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from audit import chain_verify, money_chain
from audit.compliance.services import cash_out_record
from tables.accounting.models import BuyIn, ChipSlip, Leg, SoftCountLine
from tables.accounting.services.transfers import (
    chip_slip_issue,
    chip_slip_receive,
    chip_slip_request,
)
from tables.models import ChainLink
from tables.services.sessions import table_session_open
from tests.audit.test_hash_chain import behind_the_apps_back, verify_output
from tests.closing.helpers import DAY, played_day
from tests.factories import DealerFactory, user_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def day():
    """A day played, dropped, counted and signed, a fill issued and received, a cash-out."""
    played = played_day()
    f = played.f
    signature = played.sign()
    session_at = played.after
    table_session_open(table=f.table, dealer=DealerFactory(casino=f.casino), author=f.pit_boss, at=session_at)
    cashier = user_with_role("cage", username="cashier")
    fill = chip_slip_request(table=f.table, kind=ChipSlip.FILL, counts=[{"denomination": "25", "count": 4}],
                             author=f.pit_boss, at=session_at)
    fill = chip_slip_issue(slip=fill, author=cashier, at=session_at)
    fill = chip_slip_receive(slip=fill, author=f.pit_boss, at=session_at)
    cash_out = cash_out_record(casino=f.casino, kind="chip_redemption", amount=D("3000.00"),
                               author=cashier, at=played.after)
    return {"played": played, "signature": signature, "fill": fill, "cash_out": cash_out}


def test_every_money_record_is_linked_and_verifies(day):
    out = verify_output()
    assert "every chain verifies" in out, out
    kinds = set(ChainLink.objects.filter(chain__startswith="money:").values_list("kind", flat=True))
    assert {"chiptxn", "buyin", "dropbox", "boxdrop", "softcount", "countsign", "chipslip", "cashout"} <= kinds
    # Each state of the fill is a link of its own: requested, issued, received.
    assert ChainLink.objects.filter(kind="chipslip").count() == 3


def test_a_chip_ledger_leg_changed_by_100_is_found(day):
    # 100 moved from one leg to the other: the transaction still balances, so no check on the
    # ledger's own figures sees it.
    leg, other = Leg.objects.filter(transaction=day["signature"].transaction).order_by("id")[:2]
    with behind_the_apps_back() as cursor:
        cursor.execute("UPDATE accounting_leg SET amount = amount + 100 WHERE id = %s", [leg.pk])
        cursor.execute("UPDATE accounting_leg SET amount = amount - 100 WHERE id = %s", [other.pk])
    out = verify_output()
    assert f"chiptxn {leg.transaction_id} does not match its link" in out, out
    assert "FAILED: 1 problem(s)" in out, out


def test_a_cash_buy_in_changed_is_found(day):
    buy_in = day["played"].buy_in
    assert buy_in.kind == BuyIn.CASH
    with behind_the_apps_back() as cursor:
        cursor.execute("UPDATE accounting_buyin SET amount = amount + 9500 WHERE id = %s", [buy_in.pk])
    out = verify_output()
    assert f"buyin {buy_in.pk} does not match its link" in out, out
    assert "FAILED: 1 problem(s)" in out, out


def test_a_soft_count_line_given_ten_more_notes_is_found(day):
    line = SoftCountLine.objects.get(count=day["played"].count)
    with behind_the_apps_back() as cursor:
        cursor.execute("UPDATE accounting_softcountline SET quantity = quantity + 10, amount = amount + 10 * value "
                       "WHERE id = %s", [line.pk])
    out = verify_output()
    assert f"softcount {line.count_id} does not match its link" in out, out
    assert "FAILED: 1 problem(s)" in out, out


def test_a_fill_changed_and_a_buy_in_inserted_behind_the_apps_back_are_found(day):
    fill, played = day["fill"], day["played"]
    with behind_the_apps_back() as cursor:
        cursor.execute("UPDATE accounting_chipslip SET total = total + 100 WHERE id = %s", [fill.pk])
        cursor.execute(
            "INSERT INTO accounting_buyin (casino_id, table_id, session_id, gaming_day, seat, kind, amount, "
            "player_identifier, recorded_at, recorded_by_id, corrects_id) SELECT casino_id, table_id, session_id, "
            "gaming_day, seat, kind, 9000, player_identifier, recorded_at, recorded_by_id, NULL "
            "FROM accounting_buyin WHERE id = %s", [played.buy_in.pk])
    out = verify_output()
    assert f"accounting.ChipSlip {fill.pk} is not in the state its last linked history row records" in out, out
    inserted = BuyIn.objects.exclude(pk=played.buy_in.pk).get().pk
    assert f"accounting.BuyIn {inserted} has no link" in out, out


def test_the_days_head_covers_its_money_chain(day):
    casino = day["played"].f.casino
    name = money_chain.money_chain(casino.pk, DAY)
    heads = chain_verify.day_heads(casino, DAY)
    assert heads[name] == ChainLink.objects.filter(chain=name).order_by("-id").first().digest
    # The count, made and signed the next morning, is the day's (it is in the day's chain).
    assert ChainLink.objects.filter(chain=name, kind="countsign").exists()
    before, _ = chain_verify.day_head(casino, DAY)
    buy_in = day["played"].buy_in
    with behind_the_apps_back() as cursor:  # a forged link appended to the day's money chain moves its head
        cursor.execute("INSERT INTO audit_chainlink (chain, kind, ref, digest, created_at) VALUES (%s, 'buyin', %s, "
                       "%s, %s)", [name, buy_in.pk, "f" * 64, buy_in.recorded_at])
    assert chain_verify.day_head(casino, DAY)[0] != before
