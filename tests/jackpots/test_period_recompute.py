"""The recomputation check of a period (issue #20): it replays only the period's postings from
the ledger's state before them and checks only the period's rounds, and over the whole
history it gives exactly the full replay's figures."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings

from audit.jackpots.models import JackpotAward, LedgerTransaction
from audit.jackpots.reconcile import jackpot_recompute
from audit.jackpots.services import TAX_WAGER, jackpot_award_pay
from tables.models import Round, Wager
from tables.services.rounds import round_correct, round_record, round_void
from tests.conftest import api_as
from tests.examples import examples
from tests.factories import user_with_role
from tests.jackpots.helpers import DAY_START, linked_bank
from tests.jackpots.test_voids_and_corrections import OPS, ROUND_KINDS

pytestmark = pytest.mark.django_db(transaction=False)


def _figures(check) -> tuple:
    return (check.expected, check.ledger, check.expected_base, check.ledger_base, check.rounds,
            check.award_mismatches, check.round_mismatches)


def _play(bank, tables, pitboss, ops, spacing) -> None:
    rounds = []
    for step, op in enumerate(ops, start=1):
        at = DAY_START + spacing * step
        try:
            with transaction.atomic():
                if op[0] == "record":
                    rounds.append(round_record(table=tables[0], data=ROUND_KINDS[op[1]](),
                                               author=pitboss, at=at).round)
                elif op[0] == "correct" and rounds:
                    rnd = Round.objects.get(pk=rounds[op[1] % len(rounds)].pk)
                    round_correct(round=rnd, revision=rnd.revision, data=ROUND_KINDS[op[2]](),
                                  reason="re-keyed", author=pitboss, at=at)
                elif op[0] == "void" and rounds:
                    round_void(round=rounds[op[1] % len(rounds)], reason="misdeal", author=pitboss, at=at)
                elif op[0] == "pay":
                    pending = list(JackpotAward.objects.filter(
                        bank=bank, status=JackpotAward.PENDING).order_by("pk"))
                    if pending:
                        jackpot_award_pay(award=pending[op[1] % len(pending)], author=pitboss,
                                          w2g_reference="W2G-1", winner_name="A. Winner", at=at)
        except ValidationError:
            pass  # a refusal posts nothing (test_voids_and_corrections checks it)


@settings(
    max_examples=int(os.environ.get("JACKPOT_PROPERTY_EXAMPLES", examples(80, 8))),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(ops=OPS)
# Corrections and voids of an earlier day's hit, payment and taxed rounds posted days later:
# reversals of postings from before the period, hits standing when it starts.
@example(ops=[("record", "taxed"), ("record", "hit_bust5_unsuited"), ("record", "taxed"), ("void", 0),
              ("record", "taxed"), ("void", 1)])
@example(ops=[("record", "hit_bust6_suited"), ("record", "taxed"), ("pay", 0), ("record", "taxed"),
              ("void", 0), ("correct", 0, "taxed"), ("correct", 0, "hit_bust6_suited")])
@example(ops=[("record", "two_winners"), ("record", "taxed"), ("correct", 0, "hit_bust5_unsuited"),
              ("record", "hit_bust5_unsuited"), ("pay", 0), ("void", 0)])
def test_every_period_check_is_ok_and_the_whole_span_is_the_full_replay(ops):
    with transaction.atomic():
        bank, tables, manager, pitboss = linked_bank(1, defer=False)
        # Nine hours a step: a gaming day holds two or three steps, so later steps correct
        # and void rounds of earlier days.
        _play(bank, tables, pitboss, ops, timedelta(hours=9))
        days = sorted(set(LedgerTransaction.objects.filter(bank=bank).values_list("gaming_day", flat=True)))
        full = jackpot_recompute(bank)
        assert full.ok, (full.differences, full.award_mismatches, full.round_mismatches)
        if days:
            # The whole span covers the rounds' days too: a round that posts nothing (untaxed) may be
            # played on a day after the last posting, and the full replay counts it.
            played = Round.objects.filter(table=tables[0]).values_list("gaming_day", flat=True)
            whole = jackpot_recompute(bank, day_from=days[0] - timedelta(days=1), day_to=max([days[-1], *played]))
            assert _figures(whole) == _figures(full)
        for day in days:
            check = jackpot_recompute(bank, day_from=day, day_to=day)
            assert check.ok, (day, check.differences, check.award_mismatches, check.round_mismatches)
        for first, last in zip(days, days[1:], strict=False):
            assert jackpot_recompute(bank, day_from=first, day_to=last).ok
        transaction.set_rollback(True)


def test_a_period_check_finds_a_posting_of_its_period_that_is_not_its_round():
    bank, tables, manager, pitboss = linked_bank(1, defer=False)
    _play(bank, tables, pitboss, [("record", "taxed")] * 6, timedelta(hours=9))
    days = sorted(set(LedgerTransaction.objects.filter(bank=bank).values_list("gaming_day", flat=True)))
    assert len(days) >= 2
    # A wager of the last day changed behind the ledger's back (no revision): its round's tax no
    # longer is what was posted.
    last_round = Round.objects.filter(table=tables[0], gaming_day=days[-1]).order_by("-pk").first()
    tax = Wager.objects.filter(round=last_round, wager=TAX_WAGER).first()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # the append-only guard, off inside this test's transaction
            cursor.execute("ALTER TABLE tables_wager DISABLE TRIGGER USER")
        Wager.objects.filter(pk=tax.pk).update(expected_net=tax.expected_net - 1)
    assert not jackpot_recompute(bank, day_from=days[-1], day_to=days[-1]).ok
    assert not jackpot_recompute(bank).ok
    # An earlier day's check does not read that round (it is the later day's).
    assert jackpot_recompute(bank, day_from=days[0], day_to=days[0]).ok


def test_the_api_checks_the_current_gaming_day_by_default_and_refuses_a_long_range():
    bank, tables, manager, pitboss = linked_bank(1, defer=False)
    _play(bank, tables, pitboss, [("record", "taxed")] * 3, timedelta(hours=9))
    client = api_as(user_with_role("finance", casinos=[bank.casino]))
    url = reverse("jackpot-bank-recompute", args=[bank.pk])
    today = client.get(url).json()
    assert today["from"] == today["to"]
    assert today["ok"] and today["rounds"] == 0  # the test's rounds are in March 2025
    day = DAY_START.date().isoformat()
    checked = client.get(url, {"from": day, "to": "2025-03-16"}).json()
    assert checked["ok"] and checked["rounds"] == 3
    too_long = client.get(url, {"from": "2025-01-01", "to": "2025-03-16"})
    assert too_long.status_code == 400
    assert "to" in too_long.json()
    backwards = client.get(url, {"from": "2025-03-16", "to": day})
    assert backwards.status_code == 400 and "from" in backwards.json()
    assert client.get(url, {"from": "14/03/2025"}).status_code == 400
