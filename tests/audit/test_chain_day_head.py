"""A day's chain head covers the links of the events of that day, whenever they were
written: rounds recorded with a past ``at`` (the jackpot demo day), and play sealed by the
upgrade (audit 0005) long after it happened."""

from __future__ import annotations

from datetime import timedelta

import pytest

from audit import chain_verify
from audit.reports.exporters import report_data
from audit.reports.models import DailyReport, ReportLine
from casino.demo.jackpots import jackpot_demo_day_load
from tables import chain
from tables.models import ChainLink, Round, Wager
from tables.services.rounds import round_record
from tests.audit.test_hash_chain import behind_the_apps_back, verify_output

pytestmark = pytest.mark.django_db


def _report(casino, day, settings, tmp_path, capture):
    from audit.reports.services.runs import report_request
    from casino.celery import app
    from casino.gaming_day import gaming_day_bounds

    settings.REPORTS_ROOT = tmp_path
    _, end = gaming_day_bounds(day, casino.time_zone, casino.gaming_day_start_hour)
    eager, app.conf.task_always_eager = app.conf.task_always_eager, True
    try:
        with capture(execute=True):
            report = report_request(casino=casino, gaming_day=day, via="command", now=end + timedelta(days=3))
    finally:
        app.conf.task_always_eager = eager
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    return report


@pytest.fixture
def demo():
    loaded = jackpot_demo_day_load()
    return {**loaded, "casino": loaded["bank"].casino}


def test_past_dated_rounds_give_their_day_a_head(demo, settings, tmp_path, django_capture_on_commit_callbacks):
    casino, day = demo["casino"], demo["day"]
    report = _report(casino, day, settings, tmp_path, django_capture_on_commit_callbacks)
    assert ReportLine.objects.get(report=report, level="floor").rounds > 0
    played = {f"table:{t}" for t in Round.objects.filter(gaming_day=day).values_list("table_id", flat=True)}
    assert len(played) == 3
    assert report.summary["chains"] == 4  # three tables and their bank
    assert report.chain_head not in ("", chain.hashlib.sha256(b"").hexdigest())
    head, chains = chain_verify.day_head(casino, day)
    assert (report.chain_head, chains) == (head, 4)
    assert set(chain_verify.day_heads(casino, day)) == played | {f"bank:{demo['bank'].pk}"}
    assert any(report.chain_head in note for note in report_data(report).notes)
    # A re-run computes the same head.
    again = _report(casino, day, settings, tmp_path, django_capture_on_commit_callbacks)
    assert again.chain_head == report.chain_head
    # Tampering with a later day's records fails audit_verify, not the kept head.
    table = Round.objects.filter(gaming_day=day).first().table
    pitboss = Round.objects.filter(gaming_day=day).first().recorded_by
    later = round_record(table=table, data=Round.objects.filter(gaming_day=day, table=table).first()
                         .revisions.first().data, author=pitboss,
                         at=Round.objects.filter(gaming_day=day).order_by("recorded_at").last().recorded_at
                         + timedelta(days=1))
    assert later.round.gaming_day > day
    assert "FAILED" not in verify_output()
    wager = Wager.objects.filter(revision=later.revision).first()
    with behind_the_apps_back() as cursor:
        cursor.execute("UPDATE tables_wager SET recorded_net = recorded_net + 1 WHERE id = %s", [wager.pk])
    out = verify_output()
    assert "FAILED" in out and f"revision {later.revision.pk} does not match" in out, out
    assert "printed chain head" not in out, out
    assert chain_verify.day_head(casino, day)[0] == report.chain_head


def test_sealing_past_play_gives_heads_for_past_days(demo):
    casino, day = demo["casino"], demo["day"]
    before = chain_verify.day_head(casino, day)
    assert before[1] == 4
    with behind_the_apps_back() as cursor:
        cursor.execute(f"DELETE FROM {ChainLink._meta.db_table}")  # noqa: S608
    assert chain_verify.seal_existing() > 0
    assert chain_verify.day_head(casino, day) == before
    assert "FAILED" not in verify_output()


def test_a_day_with_rounds_never_prints_a_head_over_no_chains(demo, settings, tmp_path,
                                                             django_capture_on_commit_callbacks):
    with behind_the_apps_back() as cursor:
        cursor.execute(f"DELETE FROM {ChainLink._meta.db_table}")  # noqa: S608
    report = _report(demo["casino"], demo["day"], settings, tmp_path, django_capture_on_commit_callbacks)
    assert report.chain_head == "" and report.summary["chains"] == 0
    assert any("No chain head" in note for note in report_data(report).notes)
