"""The bounds over the API (a gaming manager's, with a reason; field errors), the check after a
final report (never a provisional one) and by hand, and the demo's investigation."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest
from django.test import TestCase
from django.utils import timezone

from audit.fluctuations.models import FluctuationSettings, Investigation
from audit.reports.models import DailyReport
from audit.reports.signals import report_finished
from tests.conftest import api_as
from tests.factories import CasinoFactory, TableFactory, user_with_role
from tests.fluctuations.helpers import day, fake_cash

pytestmark = pytest.mark.django_db
URL = "/api/v1/fluctuation-settings/"


def test_a_gaming_manager_sets_the_bounds_with_a_reason():
    casino = CasinoFactory()
    manager = user_with_role("gaming_manager")
    made = api_as(manager).post(URL, {"casino": casino.pk, "preset": "kansas", "reason": "K.A.R."}, format="json")
    assert made.status_code == 201 and made.json()["monthly_swing"] is True
    changed = api_as(manager).post(URL, {"casino": casino.pk, "preset": "custom", "band": True, "band_min": "12.00",
                                         "band_max": "24.00", "reason": "board policy"}, format="json")
    assert changed.status_code == 201 and changed.json()["band_max"] == "24.00"
    assert FluctuationSettings.objects.count() == 1
    history = FluctuationSettings.objects.get().history.order_by("history_date")
    assert [(h.history_change_reason, h.history_user.username) for h in history] == [
        ("K.A.R.", "gaming_manager"), ("board policy", "gaming_manager")]
    assert api_as(user_with_role("finance")).get(URL).json()["count"] == 1


@pytest.mark.parametrize(("body", "field"), [
    ({"preset": "custom", "band": True, "band_min": "30", "band_max": "10"}, "band_max"),
    ({"preset": "ohio"}, "band_min"),
    ({"preset": "nevada"}, "preset"),
    ({"preset": "custom", "z": "-1"}, "z"),
    ({"preset": "kansas", "reason": ""}, "reason"),
])
def test_bad_bounds_are_field_errors(body, field):
    casino = CasinoFactory()
    refused = api_as(user_with_role("gaming_manager")).post(URL, {"casino": casino.pk, "reason": "r", **body},
                                                            format="json")
    assert refused.status_code == 400 and field in refused.json(), refused.json()
    assert not FluctuationSettings.objects.exists()


def test_only_a_gaming_manager_of_the_casino_sets_them():
    casino = CasinoFactory()
    assert api_as(user_with_role("finance")).post(URL, {"casino": casino.pk, "reason": "r"},
                                                  format="json").status_code == 403
    other = user_with_role("gaming_manager", "gm-other", casinos=[CasinoFactory(name="Other")])
    refused = api_as(other).post(URL, {"casino": casino.pk, "reason": "r"}, format="json")
    assert refused.status_code == 400 and "casino" in refused.json()
    assert api_as(user_with_role("pit_boss")).get(URL).status_code == 403
    assert not FluctuationSettings.objects.exists()


@pytest.fixture
def band_day(monkeypatch):
    table = TableFactory()
    FluctuationSettings.objects.create(casino=table.pit.casino, preset="ohio", band=True, band_min=D("10"),
                                       band_max=D("25"))
    on = date(2026, 3, 10)
    fake_cash(monkeypatch, {(table.pk, on): day(10000, 10000, 10000, fills=7000)})  # 30%
    return table, on


def _finish(report):
    from casino.celery import app

    eager, app.conf.task_always_eager = app.conf.task_always_eager, True
    try:
        # The check is queued through the outbox, sent once the queueing transaction commits:
        # here the test's own transaction, which never does.
        with TestCase.captureOnCommitCallbacks(execute=True):
            report_finished.send(sender=DailyReport, report=report)
    finally:
        app.conf.task_always_eager = eager


def test_the_check_runs_after_a_final_report_only(band_day):
    table, on = band_day
    casino = table.pit.casino
    done = {"status": DailyReport.DONE, "queued_at": timezone.now(), "finished_at": timezone.now()}  # as a run leaves it
    _finish(DailyReport.objects.create(casino=casino, gaming_day=on, provisional=True, **done))
    assert not Investigation.objects.exists()
    _finish(DailyReport.objects.create(casino=casino, gaming_day=on, **done))
    assert Investigation.objects.filter(level="table", key=str(table.pk), period="day").count() == 1
    assert Investigation.objects.get(level="table").opened_by is None


def test_finance_runs_the_check_for_a_day(band_day):
    table, on = band_day
    finance = user_with_role("finance")
    body = {"casino": table.pit.casino_id, "gaming_day": on.isoformat()}
    opened = api_as(finance).post("/api/v1/investigations/check/", body, format="json")
    assert opened.status_code == 200 and len(opened.json()) == 4
    assert api_as(finance).post("/api/v1/investigations/check/", body, format="json").json() == []
    assert api_as(user_with_role("surveillance")).post("/api/v1/investigations/check/", body,
                                                       format="json").status_code == 403
    refused = api_as(finance).post("/api/v1/investigations/check/", {**body, "gaming_day": "31/03"}, format="json")
    assert refused.status_code == 400 and "gaming_day" in refused.json()
    page = api_as(finance).post("/investigations/check/", body, format="multipart")
    assert page.status_code == 302 and Investigation.objects.count() == 4


def test_the_demo_opens_one(band_day):
    from casino.demo.fluctuations import demo_investigation

    table, on = band_day
    manager = user_with_role("gaming_manager")
    # 30% is inside the demo's band of -10% to 50% ...
    assert demo_investigation(table.pit.casino, on, manager) is None
    # ... and outside a band of 14% to 20% (Nevada's published monthly blackjack hold).
    one = demo_investigation(table.pit.casino, on, manager, band=(D("14"), D("20")))
    assert one is not None and one.level == "table" and one.drop_hold_pct == D("30.0000")
    assert demo_investigation(table.pit.casino, on, manager, band=(D("14"), D("20"))) == one


def test_the_command(band_day):
    from io import StringIO

    from django.core.management import CommandError, call_command

    table, on = band_day
    out = StringIO()
    call_command("fluctuation_check", "--gaming-day", on.isoformat(), "--casino", str(table.pit.casino_id), stdout=out)
    assert "4 investigation(s) opened" in out.getvalue() and "outside the band" in out.getvalue()
    with pytest.raises(CommandError, match="--gaming-day"):
        call_command("fluctuation_check", "--gaming-day", "31.03.2026")


def test_the_admin_keeps_author_and_reason():
    from django.test import Client

    casino = CasinoFactory()
    manager = user_with_role("gaming_manager", "gm-admin")
    client = Client()
    client.force_login(manager)
    assert client.get("/admin/fluctuations/fluctuationsettings/add/").status_code == 200
    form = {"casino": casino.pk, "preset": "custom", "z": "1.96", "swing_points": "3.00", "band": "on",
            "band_min": "24", "band_max": "12", "change_reason": "house policy"}
    refused = client.post("/admin/fluctuations/fluctuationsettings/add/", form)
    assert refused.status_code == 200 and not FluctuationSettings.objects.exists()  # min above max: form error
    saved = client.post("/admin/fluctuations/fluctuationsettings/add/", {**form, "band_min": "12", "band_max": "24"})
    assert saved.status_code == 302, saved.content.decode()[:2000]
    last = FluctuationSettings.objects.get().history.first()
    assert (last.history_change_reason, last.history_user, last.band_max) == ("house policy", manager, D("24.00"))
    assert Client().get("/admin/fluctuations/fluctuationsettings/").status_code == 302
    finance = Client()
    finance.force_login(user_with_role("finance", "fin-admin"))
    assert finance.get("/admin/fluctuations/fluctuationsettings/add/").status_code in (302, 403)


def test_end_to_end_a_final_report_of_a_counted_day_opens_the_investigation(django_capture_on_commit_callbacks):
    """No stand-in: tests/accounting's counted day (win 2,600 on a drop of 3,000 = 86.67%), its
    final report built by the report's own run, the signal on commit, the Celery task (eager)."""
    from audit.reports.services.runs import report_request
    from casino.celery import app
    from tests.accounting.test_statistical_win import GAMING_DAY, _played_day
    from tests.reports.helpers import casino_since

    casino_since(date(2026, 1, 1))  # the factories' casino, open before the day (reports refuse earlier days)
    f = _played_day()
    FluctuationSettings.objects.create(casino=f.casino, preset="ohio", band=True, band_min=D("10"),
                                       band_max=D("25"))
    eager, app.conf.task_always_eager = app.conf.task_always_eager, True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            report = report_request(casino=f.casino, gaming_day=GAMING_DAY, via="command")
    finally:
        app.conf.task_always_eager = eager
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    one = Investigation.objects.get(level="table", key=str(f.table.pk))
    assert (one.period, one.period_start, one.rule, one.drop_hold_pct) == ("day", GAMING_DAY, "band", D("86.6667"))
    assert (one.figures["stat_win"], one.figures["drop"], one.figures["fills"], one.figures["credits"]) == (
        "2600.00", "3000.00", "2500.00", "1500.00")
    assert "statistical win is 2,600.00" in one.explanation
