"""Issue #20: the jackpot ledger's daily balance rollup. Balances, the board and the liability
report read it instead of summing every leg ever written, so every figure must be the sum of
the legs (checked here against that sum, computed independently), the rollup is verified and
rebuilt from the legs, and the jackpot pages cost the same number of queries for one bank or
ten, and for one month of legs or twelve."""

from __future__ import annotations

import os
from collections import defaultdict
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings

from audit.jackpots.ledger import balances_by_account
from audit.jackpots.models import (
    JackpotBank,
    LedgerAccount,
    LedgerDayBalance,
    LedgerLeg,
    LedgerTransaction,
)
from audit.jackpots.reconcile import jackpot_recompute, jackpot_recompute_banks
from audit.jackpots.rollup import rollup_rebuild, rollup_verify
from audit.jackpots.selectors import MOVEMENTS, bank_state, liability_report, meter_board
from audit.jackpots.services import (
    jackpot_adjustment_decide,
    jackpot_adjustment_request,
    jackpot_bank_create,
)
from casino.money import money_sum
from tests.conftest import api_as
from tests.examples import examples
from tests.factories import PitFactory, user_with_role
from tests.jackpots.helpers import DAY_START, linked_bank
from tests.jackpots.test_period_recompute import _play
from tests.jackpots.test_voids_and_corrections import OPS

pytestmark = pytest.mark.django_db
D = Decimal


# --- the previous computation: every figure a sum of legs (the code before the rollup) -------------

def _legs_balances(bank, **where) -> dict[int, Decimal]:
    kinds = dict(LedgerAccount.objects.filter(bank=bank).values_list("pk", "kind"))
    legs = LedgerLeg.objects.filter(account__bank=bank, **where)
    return {row["account"]: (row["total"] * (-1 if kinds[row["account"]] in LedgerAccount.CREDIT_NORMAL else 1))
            .quantize(D("0.01")) for row in legs.values("account").annotate(total=money_sum("amount"))}


def _legs_report(bank, day_from, day_to) -> dict[tuple[str, str], Decimal]:
    """(line or "payable", column) -> figure, as the report computed it from the legs."""
    accounts = {a.pk: a for a in LedgerAccount.objects.filter(bank=bank)}
    opening = _legs_balances(bank, transaction__gaming_day__lt=day_from)
    closing = _legs_balances(bank, transaction__gaming_day__lte=day_to)
    out: dict[tuple[str, str], Decimal] = defaultdict(lambda: D("0.00"))
    for pk, account in accounts.items():
        if account.kind not in LedgerAccount.LIABILITIES:
            continue
        label = account.line or "payable"
        out[(label, "opening")] += opening.get(pk, D("0.00"))
        out[(label, "closing")] += closing.get(pk, D("0.00"))
    for pk, kind, total in LedgerLeg.objects.filter(
            account__bank=bank, transaction__gaming_day__gte=day_from,
            transaction__gaming_day__lte=day_to).values_list("account", "transaction__kind").annotate(
            s=money_sum("amount")):
        account = accounts[pk]
        if account.kind in LedgerAccount.LIABILITIES and kind in MOVEMENTS:
            out[(account.line or "payable", kind)] -= total
    return out


def _assert_figures_are_the_legs(bank) -> None:
    days = sorted(set(LedgerTransaction.objects.filter(bank=bank).values_list("gaming_day", flat=True)))
    assert rollup_verify(bank) == []
    state = bank_state(bank)
    now = _legs_balances(bank)
    keys = {(a.kind, a.line): a.pk for a in LedgerAccount.objects.filter(bank=bank)}
    for ln in state.lines:
        assert ln.meter == now.get(keys[("meter", ln.line)], 0)
        assert ln.reserve == now.get(keys[("reserve", ln.line)], 0)
    assert state.payable == now.get(keys[("payable", "")], 0)
    base = LedgerTransaction.objects.filter(bank=bank, kind="tax").aggregate(s=money_sum("contribution_base"))["s"]
    assert state.contribution_base == (base or 0)
    for day in days:
        assert balances_by_account(bank, upto_day=day) == _legs_balances(bank, transaction__gaming_day__lte=day)
        assert balances_by_account(bank, before_day=day) == _legs_balances(bank, transaction__gaming_day__lt=day)
    for txn in LedgerTransaction.objects.filter(bank=bank).order_by("pk")[::3]:
        assert balances_by_account(bank, at=txn.created_at) == _legs_balances(
            bank, transaction__created_at__lte=txn.created_at)
    for first, last in [(days[0], days[-1]), (days[-1], days[-1]), (days[0], days[0])] if days else []:
        report = liability_report(day_from=first, day_to=last, banks=JackpotBank.objects.filter(pk=bank.pk))
        want = _legs_report(bank, first, last)
        for row in report.rows[:-1]:
            assert row.opening == want[(row.line, "opening")], (row.line, first, last)
            assert row.closing == want[(row.line, "closing")], (row.line, first, last)
            for kind in MOVEMENTS:
                assert row.movements[kind] == want[(row.line, kind)], (row.line, kind, first, last)
        base = LedgerTransaction.objects.filter(bank=bank, kind="tax", gaming_day__gte=first,
                                                gaming_day__lte=last).aggregate(s=money_sum("contribution_base"))["s"]
        assert report.banks[0]["contribution_base"] == (base or 0)


@settings(
    max_examples=int(os.environ.get("JACKPOT_PROPERTY_EXAMPLES", examples(80, 8))),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(ops=OPS)
@example(ops=[("record", "hit_bust6_suited"), ("record", "taxed"), ("pay", 0), ("record", "taxed"),
              ("void", 0), ("correct", 0, "taxed"), ("correct", 0, "hit_bust6_suited")])
@example(ops=[("record", "two_winners"), ("record", "taxed"), ("correct", 0, "hit_bust5_unsuited"),
              ("record", "hit_bust5_unsuited"), ("pay", 0), ("void", 0)])
def test_any_sequence_of_postings_leaves_the_rollup_equal_to_the_sum_of_the_legs(ops):
    with transaction.atomic():
        bank, tables, manager, pitboss = linked_bank(1, defer=False)
        # Nine hours a step: two or three steps a gaming day, corrections and voids days later.
        _play(bank, tables, pitboss, ops, timedelta(hours=9))
        _assert_figures_are_the_legs(bank)
        # The repair path writes the rows the postings kept (a day whose legs of a kind cancel out may
        # keep a row that moves nothing: it changes no figure, the verify above checked its running sum).
        kept = sorted(LedgerDayBalance.objects.filter(bank=bank).exclude(moved=0).values_list(
            "account", "kind", "gaming_day", "moved", "closing"))
        rollup_rebuild(bank)
        assert sorted(LedgerDayBalance.objects.filter(bank=bank).exclude(moved=0).values_list(
            "account", "kind", "gaming_day", "moved", "closing")) == kept
        _assert_figures_are_the_legs(bank)
        transaction.set_rollback(True)


def _adjust(bank, requester, decider, at, amount="5.00", line="bust5_suited") -> None:
    adjustment = jackpot_adjustment_request(bank=bank, line=line, amount=amount, reason="malfunction_correction",
                                            note="test", author=requester, at=at)
    jackpot_adjustment_decide(adjustment=adjustment, approve=True, author=decider, at=at)


def test_a_posting_dated_before_later_days_moves_their_running_sums():
    bank, tables, manager, pitboss = linked_bank(1, defer=False)
    _play(bank, tables, pitboss, [("record", "taxed")] * 6, timedelta(hours=9))
    other = user_with_role("gaming_manager", username="gm2", casinos=[bank.casino])
    _adjust(bank, manager, other, DAY_START + timedelta(hours=1))  # the first day, after three later days
    _assert_figures_are_the_legs(bank)
    assert jackpot_recompute(bank).ok


def test_the_checks_and_the_command_find_a_rollup_that_disagrees_with_the_legs_and_the_rebuild_repairs_it():
    bank, tables, manager, pitboss = linked_bank(1, defer=False)
    _play(bank, tables, pitboss, [("record", "taxed")] * 3, timedelta(hours=9))
    day = LedgerTransaction.objects.filter(bank=bank).latest("pk").gaming_day
    call_command("jackpots_rollup")
    row = LedgerDayBalance.objects.filter(bank=bank, gaming_day=day, kind="contribution").first()
    LedgerDayBalance.objects.filter(pk=row.pk).update(moved=row.moved + 1, closing=row.closing + 1)
    check = jackpot_recompute(bank, day_from=day, day_to=day)
    assert not check.ok and check.rollup_mismatches and "moved" in check.rollup_mismatches[0]
    assert not jackpot_recompute(bank).ok
    with pytest.raises(CommandError, match="disagrees with the ledger legs"):
        call_command("jackpots_rollup")
    call_command("jackpots_rollup", "--rebuild")
    assert jackpot_recompute(bank, day_from=day, day_to=day).ok
    _assert_figures_are_the_legs(bank)


def test_the_recompute_api_reports_the_rollup_check():
    bank, tables, manager, pitboss = linked_bank(1, defer=False)
    _play(bank, tables, pitboss, [("record", "taxed")] * 2, timedelta(hours=1))
    client = api_as(user_with_role("finance", casinos=[bank.casino]))
    body = client.get(reverse("jackpot-bank-recompute", args=[bank.pk]),
                      {"from": DAY_START.date().isoformat()}).json()
    assert body["ok"] and body["rollup_mismatches"] == []


# --- the same number of queries whatever the number of banks and the length of the history ---------

def _floor(banks: int, months: int):
    """``banks`` banks of one casino, each with an approved meter increase every two weeks over
    ``months`` months (ending at DAY_START's day), and the readers."""
    pit = PitFactory()
    casino = pit.casino
    first, second = (user_with_role("gaming_manager", username=f"gm-q{i}", casinos=[casino]) for i in (1, 2))
    made = []
    for i in range(banks):
        bank = jackpot_bank_create(casino=casino, name=f"Bank {i}", author=first, reason="test")
        for k in range(0, months * 30, 14):
            _adjust(bank, first, second, DAY_START - timedelta(days=k))
        made.append(bank)
    return casino, made, first


PAGES = ("jackpots-report", "jackpots-report-csv", "jackpots-banks", "jackpots-board", "jackpot-bank-list",
         "jackpot-meter-list", "jackpot-liability-list", "jackpot-liability-csv")


def _queries(casino, banks, manager) -> dict[str, int]:
    client = api_as(manager)
    day = {"from": DAY_START.date().isoformat()}
    year = {"from": (DAY_START - timedelta(days=400)).date().isoformat(), "to": DAY_START.date().isoformat()}
    calls = {
        "board": lambda: meter_board(banks=JackpotBank.objects.filter(casino=casino)),
        "board at": lambda: meter_board(banks=JackpotBank.objects.filter(casino=casino), at=DAY_START),
        "report": lambda: liability_report(day_from=DAY_START.date(), day_to=DAY_START.date(),
                                           banks=JackpotBank.objects.filter(casino=casino)),
        "check": lambda: jackpot_recompute_banks(JackpotBank.objects.filter(casino=casino),
                                                 day_from=DAY_START.date(), day_to=DAY_START.date()),
        "recompute api": lambda: client.get(reverse("jackpot-bank-recompute", args=[banks[0].pk]), day),
        **{name: (lambda name=name: client.get(reverse(name), day)) for name in PAGES},
        **{f"{name} a year": (lambda name=name: client.get(reverse(name), year))
           for name in ("jackpot-liability-list", "jackpot-liability-csv", "jackpots-report")},
    }
    out = {}
    for name, call in calls.items():
        call()  # the session and the permission caches
        with CaptureQueriesContext(connection) as queries:
            response = call()
        assert getattr(response, "status_code", 200) == 200, name
        out[name] = len(queries.captured_queries)
    return out


@pytest.mark.parametrize("banks, months", [(10, 1), (1, 12)])
def test_the_jackpot_pages_cost_the_same_queries_for_one_bank_or_ten_and_one_month_or_twelve(banks, months):
    if connection.vendor != "postgresql":
        pytest.skip("query counts are pinned on PostgreSQL (the CI database)")
    with transaction.atomic():
        small = _queries(*_floor(1, 1))
        transaction.set_rollback(True)
    with transaction.atomic():
        large = _queries(*_floor(banks, months))
        transaction.set_rollback(True)
    assert large == small
