"""A report's slice re-audits (and prices) with the cycle collector paused (casino/collector.py)."""

from __future__ import annotations

import gc
from datetime import date

import pytest

from audit.reports.services import runs
from audit.reports.services.runs import report_request
from tests.reports.helpers import simulated_day


@pytest.mark.django_db(transaction=True)
def test_a_report_slice_re_audits_with_the_collector_paused(monkeypatch, settings):
    settings.REPORTS_CHUNK_ROUNDS = 9
    day = date(2026, 6, 11)
    sim = simulated_day(day=day, rounds_per_table=2, seed=31)
    seen = []
    real = runs.rounds_reaudit
    monkeypatch.setattr(runs, "rounds_reaudit", lambda **kw: seen.append(gc.isenabled()) or real(**kw))
    gc.enable()
    report = report_request(casino=sim["casino"], gaming_day=day, via="command")
    report.refresh_from_db()
    assert report.status == report.DONE, report.error
    assert seen and not any(seen)
    assert gc.isenabled()
