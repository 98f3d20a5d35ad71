"""The months' table lines (issue #20): a month's final, done reports' table lines summed per
table, kept by the report runs in the transaction that changes a report's status; what a year
to date reads for its whole months."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest
from django.core.management import call_command
from django.db.models import Count, F, Sum

from audit.reports.models import DailyReport, MonthTableLine, ReportLine
from audit.reports.services.month_lines import month_lines_rebuild
from audit.reports.services.runs import report_fail, report_request
from tests.reports.helpers import done_report

pytestmark = pytest.mark.django_db(transaction=True)
DAY = date(2026, 7, 1)


def _kept():
    return {(m.casino_id, m.month, m.key): (m.win, m.expected_win, m.theo_win, m.theo_var, m.days)
            for m in MonthTableLine.objects.all()}


def _from_the_lines(*reports):
    lines = (ReportLine.objects.filter(report__in=reports, level="table").values("report__casino", "key")
             .annotate(win=Sum("win"), expected=Sum("expected_win"), theo=Sum("theo_win"),
                       var=Sum(F("theo_sd") * F("theo_sd")), days=Count("id")))
    return {(row["report__casino"], DAY.replace(day=1), row["key"]):
            (row["win"], row["expected"], row["theo"], D(row["var"]).quantize(D("0.0001")), row["days"])
            for row in lines}


@pytest.fixture
def done(settings, tmp_path):
    return done_report(settings, tmp_path, day=DAY, rounds_per_table=4, seed=5)


def test_a_done_final_report_is_summed_into_its_month_and_a_rerun_takes_it_out_until_done(done, monkeypatch):
    want = _from_the_lines(done)
    assert want and _kept() == want
    # A re-run, not started yet: the day leaves its month while its lines are being replaced ...
    monkeypatch.setattr("audit.reports.services.runs._enqueue", lambda report, full: None)
    rerun = report_request(casino=done.casino, gaming_day=DAY, via="command")
    assert rerun.status == DailyReport.QUEUED and _kept() == {}
    # ... and a run that fails leaves it out ...
    report_fail(report_id=rerun.pk, run_id=str(rerun.run_id), error="worker lost")
    assert _kept() == {}
    # ... until a run is done again.
    monkeypatch.undo()
    again = report_request(casino=done.casino, gaming_day=DAY, via="command")
    again.refresh_from_db()
    assert again.status == DailyReport.DONE and _kept() == want


def test_provisional_reports_and_other_levels_are_not_summed(done):
    kept = _kept()
    provisional = DailyReport.objects.create(casino=done.casino, gaming_day=DAY, provisional=True,
                                             status=DailyReport.DONE)
    ReportLine.objects.create(report=provisional, level="table", key="999", label="x", win=D("5"))
    month_lines_rebuild()
    assert _kept() == kept and not {key for (_, _, key) in kept} - {
        line.key for line in ReportLine.objects.filter(report=done, level="table")}


def test_the_rebuild_command_gives_what_the_runs_kept(done):
    kept = _kept()
    MonthTableLine.objects.update(win=D("0.01"))
    call_command("report_months_rebuild", "--from", "2026-07-01", "--to", "2026-07-31")
    assert _kept() == kept
