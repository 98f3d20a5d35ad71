"""The daily rollups equal a fresh recompute from the raw rows after any mix of recordings,
corrections, voids, re-audits and reviews; and the dealer pages' figures read from them equal
the raw selectors' (audit/selectors.py) on the same data."""

from __future__ import annotations

import copy
import dataclasses
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from audit import selectors as raw
from audit.reports.services.reaudit import rounds_reaudit
from audit.rollups import selectors as rolled
from audit.rollups.models import DailyRollup
from audit.rollups.writer import figures, rollups_rebuild, rollups_recompute, rollups_stored
from audit.services import finding_review
from tables import services
from tables.models import Finding
from tables.services.rounds import round_correct, round_record, round_void
from tables.services.sessions import table_session_open
from tests.examples import examples
from tests.factories import DealerFactory, PitFactory, RulesetFactory, TableFactory, user_with_role
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db

DATA = {name: ROUNDS["ante_up_21"][name][0] for name in ("correct", "underpay", "overpay")}


def _variant(kind: str, player: str, seat: int, two_seats: bool) -> dict:
    data = copy.deepcopy(DATA[kind])
    data["seats"][0].update(player=player, seat=seat)
    if two_seats:  # one player on two seats of the round (the patterns count the round once)
        data["seats"].append({**copy.deepcopy(data["seats"][0]), "seat": seat + 1})
    return data


@pytest.fixture
def floor(db):
    pit = PitFactory()
    ruleset = RulesetFactory(casino=pit.casino)
    tables = [TableFactory(pit=pit, label=f"T{n}", ruleset=ruleset) for n in (1, 2)]
    pitboss = user_with_role("pit_boss", casinos=[pit.casino])
    dealers = [DealerFactory(casino=pit.casino, name=name) for name in ("Ann", "Bob")]
    for table, dealer in zip(tables, dealers, strict=True):
        table_session_open(table=table, dealer=dealer, author=pitboss)
    return {"tables": tables, "dealers": dealers, "pitboss": pitboss,
            "surveillance": user_with_role("surveillance", casinos=[pit.casino])}


def _blind_audit(**kwargs):
    """The engine of an older version that saw nothing wrong (a re-audit adds what it missed)."""
    canonical, result = _REAL_AUDIT(**kwargs)
    return canonical, dataclasses.replace(result, findings=())


_REAL_AUDIT = services.rounds.round_audit

record_op = st.tuples(st.just("record"), st.integers(0, 1), st.sampled_from(sorted(DATA)),
                      st.sampled_from(["P-1", "P-2", ""]), st.integers(1, 3), st.booleans(), st.booleans())
correct_op = st.tuples(st.just("correct"), st.integers(0, 20), st.sampled_from(sorted(DATA)))
void_op = st.tuples(st.just("void"), st.integers(0, 20))
review_op = st.tuples(st.just("review"), st.integers(0, 40), st.sampled_from(["confirm", "dismiss", "escalate"]))
reaudit_op = st.tuples(st.just("reaudit"), st.integers(0, 20))
OPS = st.lists(st.one_of(record_op, record_op, correct_op, void_op, review_op, review_op, reaudit_op),
               min_size=1, max_size=14)


def _review_refused(finding: Finding, decision: str) -> bool:
    """What docs/audit/surveillance-desk.md says takes no decision: a superseded finding; a reviewed one not sent
    back (a confirmed or dismissed one at all, an escalated one except to confirm or dismiss it)."""
    if finding.status == Finding.SUPERSEDED:
        return True
    if finding.reopened_at is not None or finding.status == Finding.OPEN:
        return False
    return finding.status != Finding.ESCALATED or decision == "escalate"


def _apply(op, floor, rounds: list) -> None:
    pitboss, surveillance = floor["pitboss"], floor["surveillance"]
    match op:
        case ("record", table, kind, player, seat, two_seats, blind):
            data = _variant(kind, player, seat, two_seats)
            with mock.patch.object(services.rounds, "round_audit", _blind_audit if blind else _REAL_AUDIT):
                rounds.append(round_record(table=floor["tables"][table], data=data, author=pitboss).round)
        case ("correct", n, kind) if rounds:
            rnd = rounds[n % len(rounds)]
            rnd.refresh_from_db()
            round_correct(round=rnd, revision=rnd.revision, data=_variant(kind, "P-1", 1, False),
                          reason="a correction", author=pitboss)
        case ("void", n) if rounds:
            round_void(round=rounds[n % len(rounds)], reason="misdeal", author=pitboss)
        case ("review", n, decision):
            # Any finding, those that take no such decision too: the refusal must change nothing.
            findings = list(Finding.objects.order_by("pk"))
            if findings:
                finding = findings[n % len(findings)]
                if _review_refused(finding, decision):
                    with pytest.raises(ValidationError):
                        finding_review(finding=finding, decision=decision, note="seen", author=surveillance)
                else:
                    finding_review(finding=finding, decision=decision, note="seen", author=surveillance)
        case ("reaudit", n) if rounds:
            rounds_reaudit(round_ids=[rounds[n % len(rounds)].pk], full=True)


def _page_figures(module, floor) -> list:
    """What the dealer pages and the patterns page show, from ``module``'s selectors."""
    out = [module.dealer_table(), module.floor_average(), module.overpay_patterns(min_count=1)]
    for dealer in floor["dealers"]:
        out += [module.dealer_stats(dealer), module.overpay_patterns(min_count=1, dealer=dealer.pk)]
    return out


@settings(max_examples=examples(100, 10), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
# Always once: an escalated finding escalated again (refused; the guard's 500 before the service
# refused it), then decided.
@example(ops=[("record", 0, "overpay", "P-1", 1, False, False), ("review", 0, "escalate"), ("review", 0, "escalate"),
              ("review", 0, "confirm")])
def test_rollups_equal_a_recompute_and_the_raw_figures_after_any_changes(floor, ops):
    with transaction.atomic():
        rounds: list = []
        for op in ops:
            try:
                with transaction.atomic():
                    _apply(op, floor, rounds)
            except ValidationError:
                pass  # a refused change (a voided round corrected, a decision taken twice) changes nothing
        assert rollups_stored() == figures()
        assert _page_figures(rolled, floor) == _page_figures(raw, floor)
        transaction.set_rollback(True)


def test_a_reviewed_error_keeps_a_voided_round_counted_and_a_dismissal_releases_it(floor):
    pitboss, surveillance = floor["pitboss"], floor["surveillance"]
    table, ann = floor["tables"][0], floor["dealers"][0]
    rnd = round_record(table=table, data=_variant("overpay", "P-1", 1, False), author=pitboss).round
    round_record(table=table, data=_variant("correct", "P-1", 1, False), author=pitboss)
    assert (rolled.dealer_stats(ann)["rounds"], rolled.dealer_stats(ann)["error_rounds"]) == (2, 1)
    finding = Finding.objects.get(round=rnd)
    finding_review(finding=finding, decision="confirm", note="paid twice", author=surveillance)
    round_void(round=rnd, reason="misdeal", author=pitboss)
    stats = rolled.dealer_stats(ann)
    assert (stats["rounds"], stats["error_rounds"], stats["overpaid"]) == (2, 1, raw.dealer_stats(ann)["overpaid"])
    assert stats["overpaid"] > 0
    finding_review(finding=finding, decision="dismiss", note="a recording mistake after all", author=surveillance)
    stats = rolled.dealer_stats(ann)
    assert (stats["rounds"], stats["error_rounds"], stats["findings"]) == (1, 0, 0)
    assert rollups_stored() == figures()


def test_recompute_repairs_a_day_and_rebuild_covers_every_day(floor):
    pitboss = floor["pitboss"]
    rnd = round_record(table=floor["tables"][0], data=_variant("underpay", "P-2", 2, False), author=pitboss).round
    round_record(table=floor["tables"][1], data=_variant("overpay", "P-2", 2, True), author=pitboss)
    good = rollups_stored()
    DailyRollup.objects.filter(table=rnd.table).update(rounds=99, underpaid=0)  # a damaged day
    assert rollups_stored() != good
    rollups_recompute(rnd.gaming_day, rnd.table_id)
    assert rollups_stored() == good
    DailyRollup.objects.all().delete()
    assert rollups_rebuild(since=rnd.gaming_day, until=rnd.gaming_day) == 2
    assert rollups_stored() == good == figures()


def test_a_new_round_without_findings_costs_one_statement(floor, django_assert_num_queries):
    """Recording stays fast: the rollup of a clean round is one upsert and no read."""
    from audit.rollups.writer import round_recorded

    rnd = round_record(table=floor["tables"][0], data=DATA["correct"], author=floor["pitboss"])
    rnd.revision.finding_rows = []
    with django_assert_num_queries(1):
        round_recorded(round=rnd.round, revision=rnd.revision)
    assert DailyRollup.objects.get(table=rnd.round.table).rounds == 2  # recorded, then added again here


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_increments_of_one_row_lose_nothing():
    """Two writers adding to the same (day, table, dealer, game) row at once: no read-modify-write,
    so every increment lands (ON CONFLICT DO UPDATE SET x = x + EXCLUDED.x)."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL's row locks (SQLite serialises the whole database)")
    from audit.rollups.writer import SHAPES, _increment
    from tests.concurrency import run_at_once

    pit = PitFactory()
    table, dealer = TableFactory(pit=pit), DealerFactory(casino=pit.casino)
    key = (pit.casino.pk and __import__("datetime").date(2026, 1, 5), table.pk, dealer.pk, table.game)

    def add(index: int) -> None:
        for _ in range(25):
            with transaction.atomic():
                _increment({model: {} for model in SHAPES} | {DailyRollup: {key: {"rounds": 1, "active_rounds": 1}}})

    assert run_at_once(4, add) == []
    row = DailyRollup.objects.get(table=table)
    assert (row.rounds, row.active_rounds) == (100, 100)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_correction_landing_during_a_re_audit_is_counted_once(floor):
    """The re-audit reads its rounds' figures before the write under their locks: a correction
    that comes in between waits for it, instead of being added to the rollups a second time."""
    if connection.vendor != "postgresql":
        pytest.skip("two writers at once need PostgreSQL's row locks (SQLite serialises the whole database)")
    import threading
    import time

    from audit.rollups import writer

    pitboss = floor["pitboss"]
    with mock.patch.object(services.rounds, "round_audit", _blind_audit):
        rnd = round_record(table=floor["tables"][0], data=_variant("overpay", "P-1", 1, False), author=pitboss).round
    reauditor, corrected, errors, pids = threading.get_ident(), threading.Event(), [], []

    def correct() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pids.append(cursor.fetchone()[0])
            round_correct(round=rnd, revision=1, data=_variant("underpay", "P-2", 2, False), reason="a correction",
                          author=pitboss)
        except Exception as exc:  # noqa: BLE001 - asserted below
            errors.append(repr(exc))
        finally:
            corrected.set()
            connection.close()

    real_figures, other = writer.figures, threading.Thread(target=correct)

    def figures_then_a_correction(**rounds_filter):
        """The re-audit's first read of figures (before its write): the correction runs now, and
        the re-audit goes on once it has committed or is waiting for the round's lock."""
        out = real_figures(**rounds_filter)
        if threading.get_ident() == reauditor and not other.is_alive() and not corrected.is_set():
            other.start()
            deadline = time.monotonic() + 30
            while not corrected.is_set() and time.monotonic() < deadline:
                with connection.cursor() as cursor:
                    # Inside the re-audit's transaction: pg_stat_activity answers from the snapshot
                    # its first read took until the snapshot is cleared (the wait went unseen, 30 s).
                    cursor.execute("SELECT pg_stat_clear_snapshot()")
                    cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", pids[:1] or [0])
                    row = cursor.fetchone()
                if row and row[0] == "Lock":
                    break
                time.sleep(0.05)
        return out

    with mock.patch.object(writer, "figures", figures_then_a_correction):
        result = rounds_reaudit(round_ids=[rnd.pk], full=True)
    other.join(30)
    assert errors == [] and corrected.is_set()
    assert result.new_findings > 0
    rnd.refresh_from_db()
    assert rnd.revision == 2
    assert rollups_stored() == figures()
