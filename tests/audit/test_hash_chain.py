"""Tamper evidence: audit_verify finds a row changed, removed or inserted behind the app's
back (done here as the owner with the guards switched off), and the daily report prints the
day's chain head."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from audit import chain_verify
from audit.jackpots.models import LedgerLeg, LedgerTransaction
from audit.services import finding_review
from tables.models import ChainLink, Finding, Wager
from tables.services.rounds import round_correct, round_record, round_void
from tests.jackpots.helpers import SIX_CARD_BUST, hit_round, linked_bank
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor():
    """Rounds at a plain table (recorded, corrected, reviewed, voided) and at a jackpot bank."""
    from tests.factories import user_with_role

    pitboss = user_with_role("pit_boss", username="pb-chain")
    surveillance = user_with_role("surveillance", username="sv-chain")
    table = open_table("ante_up_21", pitboss)
    first = round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=pitboss)
    second = round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=pitboss)
    round_correct(round=first.round, revision=1, data=ROUNDS["ante_up_21"]["underpay"][0], reason="recount",
                  author=pitboss)
    finding = Finding.objects.filter(round=second.round).first()
    finding_review(finding=finding, decision="confirm", note="seen on camera", author=surveillance)
    third = round_record(table=table, data=ROUNDS["ante_up_21"]["correct"][0], author=pitboss)
    round_void(round=third.round, reason="misdeal", author=pitboss)
    bank, tables, _, bank_pitboss = linked_bank(1)
    round_record(table=tables[0], data=hit_round(dealer=SIX_CARD_BUST), author=bank_pitboss)
    return {"table": table, "second": second, "finding": finding, "bank": bank}


def verify_output() -> str:
    from io import StringIO

    out = StringIO()
    try:
        call_command("audit_verify", stdout=out)
    except CommandError as exc:
        return out.getvalue() + f"\nFAILED: {exc}"
    return out.getvalue()


@contextmanager
def behind_the_apps_back():
    """The owner (a superuser here) with every trigger off: what no guard can stop."""
    if connection.vendor != "postgresql":
        yield connection.cursor()
        return
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        try:
            yield cursor
        finally:
            cursor.execute("SET session_replication_role = DEFAULT")


def test_every_record_is_linked_and_verifies(floor):
    out = verify_output()
    assert "FAILED" not in out, out
    assert "every chain verifies" in out
    kinds = set(ChainLink.objects.values_list("kind", flat=True))
    assert kinds == {ChainLink.REVISION, ChainLink.STATUS, ChainLink.VOID, ChainLink.LEDGER}
    assert ChainLink.objects.filter(chain=f"bank:{floor['bank'].pk}").count() == LedgerTransaction.objects.filter(
        bank=floor["bank"]).count()


def test_a_changed_wager_is_found(floor):
    wager = Wager.objects.filter(revision=floor["second"].revision).first()
    with behind_the_apps_back() as cursor:
        cursor.execute("UPDATE tables_wager SET recorded_net = expected_net WHERE id = %s", [wager.pk])
    out = verify_output()
    assert "FAILED" in out and f"revision {floor['second'].revision.pk} does not match" in out, out


def test_a_removed_wager_and_a_changed_decision_are_found(floor):
    wager = Wager.objects.filter(revision=floor["second"].revision).order_by("id").last()
    with behind_the_apps_back() as cursor:
        cursor.execute("DELETE FROM tables_wager WHERE id = %s", [wager.pk])
        cursor.execute("UPDATE audit_finding SET status = 'dismissed' WHERE id = %s", [floor["finding"].pk])
    out = verify_output()
    assert f"revision {floor['second'].revision.pk} does not match" in out, out
    assert f"finding {floor['finding'].pk} is dismissed, not what its last linked decision says" in out, out


def test_an_inserted_revision_finding_and_ledger_leg_are_found(floor):
    revision = floor["second"].revision
    txn = LedgerTransaction.objects.filter(bank=floor["bank"]).order_by("id").last()
    leg = LedgerLeg.objects.filter(transaction=txn).first()
    with behind_the_apps_back() as cursor:
        cursor.execute(
            "INSERT INTO tables_roundrevision (round_id, gaming_day, number, data, audit, reason, author_id, "
            "created_at, engine_version) SELECT round_id, gaming_day, 9, data, audit, 'forged', author_id, created_at, engine_version "
            "FROM tables_roundrevision WHERE id = %s RETURNING id", [revision.pk])
        forged = cursor.fetchone()[0]
        cursor.execute(
            "INSERT INTO audit_finding (round_id, revision_id, gaming_day, kind, code, message, path, rule, amount, "
            "player, status, review_note, reopened_reason, created_at) SELECT round_id, revision_id, gaming_day, kind, code, message, "
            "path, rule, amount, player, status, review_note, reopened_reason, %s FROM audit_finding WHERE id = %s "
            "RETURNING id", [timezone.now(), floor["finding"].pk])
        extra_finding = cursor.fetchone()[0]
        cursor.execute("INSERT INTO jackpots_ledgerleg (transaction_id, account_id, amount) VALUES (%s, %s, 1), "
                       "(%s, %s, -1)", [txn.pk, leg.account_id, txn.pk, leg.account_id])
    out = verify_output()
    assert f"revision {forged} has no link" in out, out
    assert f"finding {extra_finding} has no link" in out, out
    assert f"ledger {txn.pk} does not match" in out, out


def test_a_removed_link_breaks_the_next_one(floor):
    links = list(ChainLink.objects.filter(chain=f"table:{floor['table'].pk}").order_by("id"))
    with behind_the_apps_back() as cursor:
        cursor.execute("DELETE FROM audit_chainlink WHERE id = %s", [links[1].pk])
    out = verify_output()
    assert f"link {links[2].pk}:" in out and "does not match" in out, out


def test_the_daily_report_prints_the_days_chain_head(floor, settings, tmp_path, django_capture_on_commit_callbacks):
    from audit.reports.exporters import csv_bytes, report_data
    from audit.reports.services.runs import report_request
    from casino.celery import app

    settings.REPORTS_ROOT = tmp_path
    casino = floor["table"].pit.casino
    day = floor["second"].round.gaming_day
    from datetime import timedelta

    from casino.gaming_day import gaming_day_bounds

    _, end = gaming_day_bounds(day, casino.time_zone, casino.gaming_day_start_hour)
    eager, app.conf.task_always_eager = app.conf.task_always_eager, True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            report = report_request(casino=casino, gaming_day=day, via="command", now=end + timedelta(hours=1))
    finally:
        app.conf.task_always_eager = eager
    report.refresh_from_db()
    head, chains = chain_verify.day_head(casino, day)
    assert report.chain_head == head and chains >= 1
    assert head in csv_bytes(report_data(report)).decode("utf-8-sig")
    assert "FAILED" not in verify_output()
    # A link removed from the end of the chain (with its revision) changes the day's head.
    last = ChainLink.objects.filter(chain=f"table:{floor['table'].pk}").order_by("id").last()
    with behind_the_apps_back() as cursor:
        cursor.execute("DELETE FROM audit_chainlink WHERE id = %s", [last.pk])
    assert "printed chain head" in verify_output()


def test_play_recorded_before_the_chains_is_sealed_by_the_upgrade(floor):
    """A database that held play before the chains (every link gone, as before migration
    audit 0005) is sealed once in the order things happened, and then verifies clean."""
    table = floor["table"]
    # A re-audit's finding and a reviewed finding sent back: every kind of link is rebuilt.
    round_correct(round=floor["second"].round, revision=1, data=ROUNDS["ante_up_21"]["correct"][0],
                  reason="recount", author=floor["second"].round.recorded_by)
    before = list(ChainLink.objects.order_by("id").values_list("chain", "kind", "ref"))
    with behind_the_apps_back() as cursor:
        cursor.execute(f"DELETE FROM {ChainLink._meta.db_table}")  # noqa: S608
    assert "FAILED" in verify_output()
    assert chain_verify.seal_existing() == len(before)
    assert "FAILED" not in verify_output()
    sealed = list(ChainLink.objects.filter(chain=f"table:{table.pk}").values_list("kind", "ref"))
    assert sorted(sealed) == sorted((k, r) for c, k, r in before if c == f"table:{table.pk}")
    with pytest.raises(RuntimeError, match="runs once"):
        chain_verify.seal_existing()


def test_a_revisions_pays_attested_flag_changed_is_found(floor):
    """The daily report counts attested pays apart: the flag is part of the revision's link."""
    pitboss = floor["second"].round.recorded_by
    attested = round_record(table=floor["table"], data=ROUNDS["ante_up_21"]["correct"][0], author=pitboss,
                            pays="attested")
    out = verify_output()
    assert "every chain verifies" in out, out
    with behind_the_apps_back() as cursor:
        cursor.execute("UPDATE tables_roundrevision SET pays_attested = NOT pays_attested WHERE id IN (%s, %s)",
                       [attested.revision.pk, floor["second"].revision.pk])
    out = verify_output()
    assert f"revision {attested.revision.pk} does not match its link" in out, out
    assert f"revision {floor['second'].revision.pk} does not match its link" in out, out
