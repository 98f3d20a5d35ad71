"""The app's database role owns nothing: with its credentials no one can truncate, switch
a guard off, replay as a replica, or change an audited row outside what the guards allow.

The test database is the owner's (pytest-django creates it as the owner); this test makes
a login role, grants it what ``manage.py grant_app_role`` grants, and connects as it."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from audit.jackpots.models import LedgerTransaction
from audit.services import finding_review
from tables.models import Finding
from tables.services.rounds import round_record
from tests.factories import user_with_role
from tests.jackpots.helpers import SIX_CARD_BUST, hit_round, linked_bank
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def records(db):
    pitboss = user_with_role("pit_boss", username="pb-role")
    table = open_table("ante_up_21", pitboss)
    recorded = round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=pitboss)
    finding = Finding.objects.filter(round=recorded.round).first()
    finding_review(finding=finding, decision="confirm", note="on camera",
                   author=user_with_role("surveillance", username="sv-role"))
    _, tables, _, bank_pitboss = linked_bank(1)
    round_record(table=tables[0], data=hit_round(dealer=SIX_CARD_BUST), author=bank_pitboss)
    return {"finding": finding, "round": recorded.round, "txn": LedgerTransaction.objects.order_by("id").last()}


def _refused(app, statement: str, params=()) -> str:
    try:
        with app.transaction():
            app.execute("SELECT set_config('casino.audit_write', 'on', true)")
            app.execute(statement, params)
    except psycopg.Error as exc:
        return str(exc)
    raise AssertionError(f"the app role was allowed: {statement}")


def test_the_app_role_cannot_get_around_the_guards(app_role, records):
    finding, rnd, txn = records["finding"].pk, records["round"].pk, records["txn"]
    leg = txn.legs.first()
    attempts = {
        "TRUNCATE tables_wager CASCADE": "permission denied",
        "TRUNCATE audit_finding CASCADE": "permission denied",
        "ALTER TABLE audit_finding DISABLE TRIGGER audit_finding_guard": "must be owner",
        "ALTER TABLE tables_wager DISABLE TRIGGER ALL": "must be owner",
        "DROP TRIGGER tables_round_guard ON tables_round": "must be owner",
        "SET session_replication_role = replica": "permission denied",
        "CREATE OR REPLACE FUNCTION casino_guard_change() RETURNS trigger AS 'BEGIN RETURN NEW; END' "
        "LANGUAGE plpgsql": "permission denied for schema public",
        "CREATE TABLE scratch (id int)": "permission denied for schema public",
        f"UPDATE tables_roundrevision SET reason = 'x' WHERE round_id = {rnd}": "permission denied",
        f"DELETE FROM tables_wager WHERE round_id = {rnd}": "permission denied",
        f"DELETE FROM audit_finding WHERE id = {finding}": "permission denied",
        "DELETE FROM audit_chainlink WHERE id = (SELECT max(id) FROM audit_chainlink)": "permission denied",
        # The services' flag is set in _refused: it does not widen what may change.
        f"UPDATE audit_finding SET status = 'dismissed' WHERE id = {finding}": "status confirmed>dismissed refused",
        f"UPDATE audit_finding SET amount = 0 WHERE id = {finding}": "amount may not change",
        # A decision is taken again only after the finding was sent back (issue #14 part 3).
        f"UPDATE audit_finding SET review_note = 'x' WHERE id = {finding}": "review_note may not change",
        f"UPDATE audit_finding SET status = 'escalated' WHERE id = {finding}": "status confirmed>escalated refused",
        f"UPDATE tables_round SET dealer_id = dealer_id WHERE id = {rnd}": None,  # no change: allowed
        f"INSERT INTO jackpots_ledgerleg (transaction_id, account_id, amount) VALUES ({txn.pk}, {leg.account_id}, 5), "
        f"({txn.pk}, {leg.account_id}, -5)": f"ledger transaction {txn.pk} is closed",
    }
    for statement, refusal in attempts.items():
        if refusal is None:
            with app_role.transaction():
                app_role.execute("SELECT set_config('casino.audit_write', 'on', true)")
                app_role.execute(statement)
            continue
        message = _refused(app_role, statement)
        assert refusal in message, (statement, message)
    # What the app needs still works.
    with app_role.transaction():
        assert app_role.execute("SELECT count(*) FROM tables_round").fetchone()[0] == 2
        app_role.execute("SELECT nextval(pg_get_serial_sequence('tables_round', 'id'))")


# "__all__": with a read replica configured the check asks its login too.
@pytest.mark.django_db(databases="__all__")
def test_check_deploy_refuses_the_owner_as_the_apps_login(settings):
    from casino.db_roles import app_role_owns_nothing

    if connection.vendor != "postgresql":
        pytest.skip("database roles exist on PostgreSQL only")
    settings.PRODUCTION = True
    errors = app_role_owns_nothing()  # the test suite connects as the owner, a superuser
    assert errors and {e.id for e in errors} == {"casino.E101"}
    assert any("SUPERUSER" in e.msg or "owns" in e.msg for e in errors)
    settings.PRODUCTION = False
    assert app_role_owns_nothing() == []
