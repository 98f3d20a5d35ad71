"""The guards decide what may change, whoever asks: the services' flag no longer lets a
session rewrite a finding, and every table that records what happened is guarded."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from audit.jackpots.models import JackpotMeter, LedgerLeg, LedgerTransaction
from audit.services import finding_review
from tables.models import DealerAssignment, Finding, TableSession
from tables.services.rounds import round_record
from tables.services.sessions import table_session_close
from tests.factories import user_with_role
from tests.jackpots.helpers import SIX_CARD_BUST, hit_round, linked_bank
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("the guards are PostgreSQL triggers; SQLite has only the services")


@pytest.fixture
def records():
    pitboss = user_with_role("pit_boss", username="pb-guard")
    table = open_table("ante_up_21", pitboss)
    recorded = round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=pitboss)
    finding = Finding.objects.filter(round=recorded.round).first()
    finding_review(finding=finding, decision="confirm", note="on camera",
                   author=user_with_role("surveillance", username="sv-guard"))
    session = TableSession.objects.get(table=table)
    table_session_close(session=session, author=pitboss)
    _, tables, _, bank_pitboss = linked_bank(1)
    round_record(table=tables[0], data=hit_round(dealer=SIX_CARD_BUST), author=bank_pitboss)
    return {"finding": finding, "round": recorded.round, "session": session}


def refused(statement: str, params=(), *, flag: bool = True) -> str:
    """Run ``statement`` with the services' flag set; the database's refusal."""
    with pytest.raises(DatabaseError) as caught, transaction.atomic(), connection.cursor() as cursor:
        if flag:
            cursor.execute("SELECT set_config('casino.audit_write', 'on', true)")
        cursor.execute(statement, list(params))
    return str(caught.value)


def test_the_flag_does_not_let_a_session_rewrite_a_finding(records):
    pk = records["finding"].pk
    assert "amount may not change" in refused("UPDATE audit_finding SET amount = 0 WHERE id = %s", [pk])
    assert "status confirmed>dismissed refused" in refused(
        "UPDATE audit_finding SET status = 'dismissed', review_note = 'never mind' WHERE id = %s", [pk])
    assert "review_note may not change" in refused(
        "UPDATE audit_finding SET review_note = 'rewritten' WHERE id = %s", [pk])
    assert "never deleted" in refused("DELETE FROM audit_finding WHERE id = %s", [pk])


def test_the_flag_does_not_let_a_session_rewrite_a_round(records):
    pk = records["round"].pk
    assert "dealer_id may not change" in refused("UPDATE tables_round SET dealer_id = dealer_id + 1 WHERE id = %s",
                                                 [pk])
    assert "revision only grows" in refused("UPDATE tables_round SET revision = 0 WHERE id = %s", [pk])
    assert "void_reason may not change" in refused("UPDATE tables_round SET void_reason = 'x' WHERE id = %s", [pk])


def test_sessions_assignments_meters_and_accounts_are_guarded(records):
    session = records["session"]
    assert "closed_at is set once" in refused(
        "UPDATE tables_tablesession SET closed_at = closed_at + interval '1 hour' WHERE id = %s", [session.pk])
    assert "gaming_day may not change" in refused(
        "UPDATE tables_tablesession SET gaming_day = gaming_day + 1 WHERE id = %s", [session.pk])
    assignment = DealerAssignment.objects.filter(session=session).first()
    assert "ended_at is set once" in refused(
        "UPDATE tables_dealerassignment SET ended_at = NULL WHERE id = %s", [assignment.pk])
    assert "never deleted" in refused("DELETE FROM tables_dealerassignment WHERE id = %s", [assignment.pk])
    meter = JackpotMeter.objects.first()
    assert "append-only" in refused("UPDATE jackpots_jackpotmeter SET line = 'x' WHERE id = %s", [meter.pk])
    for table in ("jackpots_ledgeraccount", "jackpots_jackpotbanktable", "audit_chainlink"):
        assert "append-only" in refused(f"DELETE FROM {table}")  # noqa: S608 - a fixed table name


@pytest.mark.django_db(transaction=True)  # the old transaction must be committed
def test_balanced_legs_cannot_join_an_old_ledger_transaction(records):
    txn = LedgerTransaction.objects.order_by("id").last()
    account = LedgerLeg.objects.filter(transaction=txn).first().account_id
    message = refused("INSERT INTO jackpots_ledgerleg (transaction_id, account_id, amount) VALUES (%s, %s, 5), "
                      "(%s, %s, -5)", [txn.pk, account, txn.pk, account], flag=False)
    assert f"ledger transaction {txn.pk} is closed" in message
