"""The reconciliation of a simulated day against totals computed independently from the raw rows."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from audit.reports.models import (
    DailyReport,
    DealerLine,
    ReportLine,
    ReportWagerLine,
    WagerOddsCache,
)
from audit.reports.services.runs import report_request
from tables.models import Finding, Round
from tests.reports.helpers import independent_totals, simulated_day

pytestmark = pytest.mark.django_db(transaction=True)

DAY = date(2026, 6, 10)
ZERO = Decimal(0)


def run(casino, day=DAY, **kwargs) -> DailyReport:
    report = report_request(casino=casino, gaming_day=day, via="command", **kwargs)
    report.refresh_from_db()
    return report


@pytest.fixture
def sim(settings):
    settings.REPORTS_CHUNK_ROUNDS = 7  # several slices, combined into one report
    return simulated_day(day=DAY, rounds_per_table=14, bad_dealer_rounds=6)


def _line(report, level, key) -> ReportLine:
    return ReportLine.objects.get(report=report, level=level, key=str(key))


def test_report_matches_independent_totals_to_the_cent(sim):
    report = run(sim["casino"])
    assert report.status == DailyReport.DONE, report.error
    assert report.chunks_total > 3
    expected = independent_totals(sim["casino"], DAY)
    for key, level in [("floor", "floor"), *[(t.pk, "table") for t in sim["tables"]]]:
        line = _line(report, level, key)
        exp = expected[key]
        assert line.rounds == exp["rounds"], key
        assert line.voided_rounds == exp["voided"], key
        assert line.handle == exp["handle"], key
        assert line.paid == exp["paid"], key
        assert line.win == exp["win"], key
        assert line.error_cost == exp["error_cost"], key
        assert line.taxes == exp["taxes"], key
        assert line.jackpots == exp["jackpots"], key
        for kind in ("overpay", "underpay", "procedure", "rule_violation"):
            got = line.findings.get(kind, {"count": 0, "amount": "0"})
            assert got["count"] == exp[f"findings_{kind}"], (key, kind)
            assert Decimal(got["amount"]) == exp[f"amount_{kind}"], (key, kind)
        if line.handle:
            assert line.handle_hold_pct == (100 * line.win / line.handle).quantize(Decimal("0.0001"))
    floor = _line(report, "floor", "floor")
    assert floor.voided_rounds == 1
    assert floor.findings.get("overpay", {}).get("count", 0) >= 6  # the careless dealer's
    # Pits and games add up to the floor.
    for level in ("pit", "game"):
        lines = ReportLine.objects.filter(report=report, level=level)
        assert sum(x.handle for x in lines) == floor.handle
        assert sum(x.win for x in lines) == floor.win
        assert sum(x.rounds for x in lines) == floor.rounds


def test_wager_types_theoretical_win_and_basis(sim):
    report = run(sim["casino"])
    wagers = {
        (w.game, w.wager): w for w in ReportWagerLine.objects.filter(report=report, level="floor")
    }
    assert wagers[("upcard_luck_21", "upcard_luck")].basis == "exact"
    assert wagers[("upcard_luck_21", "taxpayers_fortune")].basis == "exact"
    assert wagers[("ante_up_21", "poker_bonus")].basis == "exact"
    assert wagers[("ante_up_21", "21")].basis == "assumption"
    assert wagers[("poker_or_bust", "odds")].basis == "assumption"
    assert wagers[("holdem_blackjack", "rake")].basis == "exact (rake due)"
    assert ("holdem_blackjack", "pot") not in wagers, "player-to-player pots are not house action"
    ul = wagers[("upcard_luck_21", "upcard_luck")]
    edge = WagerOddsCache.objects.get(
        ruleset_version__ruleset__game="upcard_luck_21", wager="upcard_luck"
    ).house_edge
    assert abs(ul.theo_win - (ul.handle * edge)) <= Decimal("0.005")
    assert Decimal("0.041") < edge < Decimal("0.0411")
    twenty_one = wagers[("ante_up_21", "21")]
    assert twenty_one.theo_win == (twenty_one.handle * Decimal("0.015")).quantize(Decimal("0.01"))
    floor = _line(report, "floor", "floor")
    per_wager = ReportWagerLine.objects.filter(report=report, level="floor")
    assert sum(w.handle for w in per_wager) == floor.handle
    assert (
        abs(sum(w.theo_win for w in per_wager) - floor.theo_win)
        <= Decimal("0.01") * per_wager.count()
    )
    assert floor.ci_low <= floor.theo_win <= floor.ci_high
    assert floor.ci_high - floor.theo_win == pytest.approx(
        Decimal("1.96") * floor.theo_sd, abs=Decimal("0.02")
    )
    assert "liability" in report.summary and report.summary["liability"]["reason"]


def test_rerun_is_idempotent_and_replaces_the_report(sim):
    first = run(sim["casino"])
    rows = sorted(
        ReportLine.objects.filter(report=first).values_list(
            "level", "key", "handle", "win", "rounds"
        )
    )
    findings = Finding.objects.count()
    second = run(sim["casino"])
    assert second.pk == first.pk and second.runs == 2
    assert DailyReport.objects.filter(casino=sim["casino"], gaming_day=DAY).count() == 1
    assert (
        sorted(
            ReportLine.objects.filter(report=second).values_list(
                "level", "key", "handle", "win", "rounds"
            )
        )
        == rows
    )
    assert Finding.objects.count() == findings, "re-running adds no findings twice"


def test_careless_dealer_is_flagged(sim):
    report = run(sim["casino"])
    lines = {d.label: d for d in DealerLine.objects.filter(report=report)}
    careless = next(d for label, d in lines.items() if label.startswith("Careless Dealer"))
    assert careless.flagged and careless.error_rounds == 6
    assert careless.z_score > 3
    assert not any(d.flagged for d in lines.values() if d is not careless and d.error_rounds < 3)


def test_outlier_flags_a_table_outside_the_interval(sim):
    report = run(sim["casino"])
    for line in ReportLine.objects.filter(report=report, level="table"):
        inside = line.ci_low <= line.win <= line.ci_high
        assert line.outlier == (bool(line.handle) and not inside)


@contextmanager
def _triggers_off():
    """PostgreSQL's append-only triggers would refuse the test's tampering; SQLite has none."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = DEFAULT")


def test_reaudit_adds_findings_of_an_older_engine_version_and_never_changes_old_ones(sim):
    from tables.models import RoundRevision

    rnd = next(
        r
        for r in sim["rounds"]
        if r.game == "poker_or_bust" and r.status == Round.ACTIVE and r.findings.exists()
    )
    rnd.refresh_from_db()
    revision = rnd.revisions.get(number=rnd.revision)
    # Emulate a revision audited by an older engine version that named its findings differently:
    # the re-audit must add today's findings beside the old ones and leave the old ones alone.
    before_codes = set(Finding.objects.filter(revision=revision).values_list("code", flat=True))
    assert before_codes, "the simulated round has an injected error"
    with _triggers_off():
        RoundRevision.objects.filter(pk=revision.pk).update(engine_version="2000.1.1")
        Finding.objects.filter(revision=revision).update(code="OLD_CODE")
    before = set(Finding.objects.filter(revision=revision).values_list("pk", "status"))
    report = run(sim["casino"])
    assert report.summary["reaudit"]["replayed"] == 1
    after = Finding.objects.filter(revision=revision)
    assert set(after.filter(code="OLD_CODE").values_list("pk", "status")) == before, (
        "old findings untouched"
    )
    new = after.exclude(code="OLD_CODE")
    assert new.count() == len(before)
    assert all(f.message.startswith("[re-audit") and f.status == Finding.OPEN for f in new)
    rnd.refresh_from_db()
    assert rnd.open_findings == after.filter(status=Finding.OPEN).count()
    run(sim["casino"])
    assert Finding.objects.filter(revision=revision).count() == after.count(), (
        "the re-audit is idempotent"
    )


def test_reaudit_lists_the_rounds_the_engine_now_settles_differently_and_only_those(sim):
    from tables.models import RoundRevision

    changed, *same = Round.objects.filter(pk__in=[r.pk for r in sim["rounds"]], status=Round.ACTIVE,
                                          gaming_day=DAY).order_by("pk")[:6]
    with _triggers_off():
        RoundRevision.objects.filter(round__in=[changed, *same]).update(engine_version="2000.1.1")
        revision = changed.revisions.get(number=changed.revision)
        audit = revision.audit
        first = audit["settlements"][0]
        first["net"] = str(Decimal(first["net"]) + Decimal("5.00"))  # what an older engine paid
        RoundRevision.objects.filter(pk=revision.pk).update(audit=audit)
    reaudit = run(sim["casino"]).summary["reaudit"]
    assert reaudit["replayed"] == 6
    assert reaudit["settlement_changed"] == [changed.pk]
    assert reaudit["errors"] == []


def test_running_twice_at_once_is_refused_and_unfinished_day_refused(sim, settings):
    casino = sim["casino"]
    report = DailyReport.objects.create(
        casino=casino,
        gaming_day=DAY,
        status=DailyReport.RUNNING,
        runs=1,
        started_at=datetime.now(UTC) - timedelta(minutes=1),
    )
    with pytest.raises(ValidationError, match="already running"):
        report_request(casino=casino, gaming_day=DAY, via="api")
    report.started_at = datetime.now(UTC) - timedelta(hours=2)  # the worker died: stale
    report.save()
    assert run(casino).status == DailyReport.DONE
    with pytest.raises(ValidationError, match="has not ended yet"):
        report_request(casino=casino, gaming_day=date.today() + timedelta(days=1), via="api")


def test_a_failed_slice_fails_the_run_with_the_reason_and_retry_works(sim, monkeypatch):
    from audit.reports.services import runs

    def broken(**kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(runs, "rounds_reaudit", broken)
    report = run(sim["casino"])
    assert report.status == DailyReport.FAILED
    assert "disk on fire" in report.error and "slice" in report.error
    monkeypatch.undo()
    report = run(sim["casino"])
    assert report.status == DailyReport.DONE and report.error == ""
