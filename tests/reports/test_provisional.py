"""Today so far (issue #15, point 5): the current gaming day's provisional report.

The same run as the final report's, marked provisional, for finance and gaming managers only,
refreshed on demand (page, API) and by beat, and replaced by the final report at the close.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.forms.models import model_to_dict
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from audit.reports.models import DailyReport, DealerLine, ReportLine, ReportWagerLine
from audit.reports.services.runs import (
    PROVISIONAL_NO_HEAD,
    current_gaming_day,
    provisional_request,
    report_request,
)
from audit.reports.tasks import provisional_refresh
from casino.local_time import local_time_text
from tests.conftest import api_as
from tests.factories import CasinoFactory, user_with_role
from tests.reports.helpers import independent_totals, simulated_day

pytestmark = pytest.mark.django_db(transaction=True)
MARK = "Provisional — today so far, as of "


def _rows(report) -> dict:
    """Every figure of a report, keyed by unit (lines, wager lines, dealer lines)."""
    def strip(obj):
        return {k: v for k, v in model_to_dict(obj).items() if k not in ("id", "report")}

    return {
        "lines": {(x.level, x.key): strip(x) for x in ReportLine.objects.filter(report=report)},
        "wagers": {(x.level, x.key, x.game, x.wager): strip(x) for x in ReportWagerLine.objects.filter(report=report)},
        "dealers": {x.dealer_id: strip(x) for x in DealerLine.objects.filter(report=report)},
    }


def _page(user):
    """A browser's client: forms post as forms (the API client posts JSON)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def reports_root(settings, tmp_path):
    settings.REPORTS_ROOT = tmp_path / "reports"
    return settings.REPORTS_ROOT


def test_same_figures_as_the_final_report_which_then_replaces_it(reports_root):
    from datetime import date

    day = date(2026, 7, 2)
    sim = simulated_day(day=day, rounds_per_table=5, seed=41, bad_dealer_rounds=3)
    casino = sim["casino"]
    during = sim["end"] - timedelta(minutes=5)  # the day is still on
    with pytest.raises(ValidationError) as refused:
        report_request(casino=casino, gaming_day=day, via="command", now=during)
    assert "has not ended yet" in str(refused.value)

    provisional = provisional_request(casino=casino, via="command", now=during)
    provisional.refresh_from_db()
    assert (provisional.gaming_day, provisional.provisional, provisional.status) == (day, True, "done")
    assert provisional.chain_head == "" and provisional.summary["chain_problem"] == PROVISIONAL_NO_HEAD
    assert set(provisional.files) == {"csv", "xlsx"}  # never the PDF, the signed format
    floor = ReportLine.objects.get(report=provisional, level="floor")
    expected = independent_totals(casino, day)["floor"]
    assert (floor.rounds, floor.handle, floor.win) == (expected["rounds"], expected["handle"], expected["win"])
    files = {fmt: (reports_root / rel) for fmt, rel in provisional.files.items()}
    first = next(csv.reader(io.StringIO(files["csv"].read_bytes().decode("utf-8-sig"))))
    assert first[0] == "provisional" and first[1].startswith(MARK)
    book = load_workbook(files["xlsx"])
    assert book.sheetnames[0] == "Provisional" and book["Provisional"]["A1"].value.startswith(MARK)
    seen = _rows(provisional)
    assert seen["lines"] and seen["wagers"] and seen["dealers"]

    final = report_request(casino=casino, gaming_day=day, via="command", now=sim["end"] + timedelta(hours=1))
    final.refresh_from_db()
    assert final.status == "done" and not final.provisional and final.chain_head
    assert _rows(final) == seen  # the same code gave the same figures for the same rounds
    assert not DailyReport.objects.filter(casino=casino, gaming_day=day, provisional=True).exists()
    assert not any(path.exists() for path in files.values())  # its files went with it
    assert set(final.files) == {"csv", "xlsx", "pdf"}


def test_the_beat_task_refreshes_every_casino_and_skips_one_still_running(reports_root):
    here, there = CasinoFactory(), CasinoFactory(name="Other Casino", time_zone="Europe/London")
    assert provisional_refresh() == 2
    for casino in (here, there):
        report = DailyReport.objects.get(casino=casino, provisional=True)
        assert (report.gaming_day, report.status, report.requested_via) == (current_gaming_day(casino), "done", "beat")
    DailyReport.objects.filter(casino=there).update(status=DailyReport.RUNNING)
    assert provisional_refresh() == 1  # the running refresh is left to finish
    assert DailyReport.objects.get(casino=here, provisional=True).runs == 2


def test_page_for_finance_and_managers_marked_and_refreshed(reports_root):
    casino = CasinoFactory()
    simulated_day(day=current_gaming_day(casino), rounds_per_table=1, seed=43, casino=casino)
    finance = _page(user_with_role("finance"))
    today = reverse("reports-today") + f"?casino={casino.pk}"
    assert "Today so far (provisional)" in finance.get(reverse("reports")).content.decode()

    # Opening the page builds it: nobody has to press anything first.
    opened = finance.get(today)
    report = DailyReport.objects.get(casino=casino, provisional=True)
    assert opened.status_code == 200  # the report itself, at the page's own address
    assert (report.status, report.requested_via, report.runs) == ("done", "page open", 1)
    body = opened.content.decode()
    assert MARK in body and "Refresh now" in body and "Download CSV" in body
    assert "Download PDF" not in body and "Re-run" not in body
    assert str(ReportLine.objects.get(report=report, level="floor").handle) in body
    as_of = local_time_text(report.as_of, casino, "time")
    assert re.search(r"\d\d:\d\d E[SD]T$", as_of)
    assert f'id="report-status">Provisional — as of {as_of}</span>' in body and ">done<" not in body

    # A fresh one is shown as it is; a refresh is asked for.
    assert finance.get(today).status_code == 200
    assert DailyReport.objects.get(pk=report.pk).runs == 1
    started = finance.post(reverse("reports-today"), {"casino": casino.pk})
    assert started.status_code == 302 and started["Location"] == reverse("reports-day", args=[report.pk])
    report.refresh_from_db()
    assert report.runs == 2
    pdf = finance.get(reverse("reports-file", args=[report.pk]) + "?file=pdf")
    assert pdf.status_code == 404
    csv_file = finance.get(reverse("reports-file", args=[report.pk]) + "?file=csv")
    assert csv_file.status_code == 200 and csv_file["Content-Disposition"].find("provisional-") > 0

    first_read = report.started_at
    _page(user_with_role("gaming_manager")).post(reverse("reports-today"), {"casino": casino.pk})
    report.refresh_from_db()
    assert (report.runs, report.status) == (3, "done") and report.started_at > first_read
    # Not in the list of days, which holds final reports.
    assert reverse("reports-day", args=[report.pk]) not in finance.get(reverse("reports")).content.decode()


def test_surveillance_pit_bosses_and_other_casinos_do_not_see_it(reports_root):
    casino = CasinoFactory()
    report = provisional_request(casino=casino, via="command")
    surveillance = api_as(user_with_role("surveillance"))
    assert surveillance.get(reverse("reports-today")).status_code == 403
    assert surveillance.get(reverse("reports-day", args=[report.pk])).status_code == 404
    assert surveillance.get(reverse("reports-progress", args=[report.pk])).status_code == 404
    assert api_as(user_with_role("pit_boss")).post(reverse("reports-today")).status_code == 403
    other = CasinoFactory(name="Elsewhere")
    outsider = _page(user_with_role("finance", username="outsider", casinos=[other]))
    assert outsider.get(reverse("reports-day", args=[report.pk])).status_code == 404
    assert outsider.post(reverse("reports-today"), {"casino": casino.pk}).status_code == 404
    assert DailyReport.objects.filter(casino=casino).count() == 1


def test_api_reads_and_refreshes_today_so_far(reports_root):
    casino = CasinoFactory()
    other = CasinoFactory(name="Elsewhere")
    finance = api_as(user_with_role("finance"))
    url = reverse("dailyreport-provisional")
    assert finance.get(url).json() == []
    started = finance.post(url, {"casino": casino.pk}, format="json")
    assert started.status_code == 202, started.json()
    assert started.json()["provisional"] is True
    body = finance.get(url, {"casino": casino.pk}).json()
    assert len(body) == 1 and body[0]["notice"].startswith(MARK) and body[0]["status"] == "done"
    assert [line["level"] for line in body[0]["lines"]] == ["floor"]
    assert set(body[0]["downloads"]) == {"csv", "xlsx"}
    assert finance.get(url, {"casino": "x"}).json() == {"casino": ['"x" is not a casino id']}
    refused = finance.post(url, {"casino": other.pk}, format="json")
    assert refused.status_code == 400 and "casino" in refused.json()
    assert finance.get(reverse("dailyreport-list")).json()["results"] == []  # final reports only
    pk = body[0]["id"]
    assert finance.get(reverse("dailyreport-detail", args=[pk])).status_code == 404
    assert finance.get(reverse("dailyreport-download", args=[pk]), {"file": "pdf"}).status_code == 400
    for role in ("surveillance", "pit_boss"):
        client = api_as(user_with_role(role))
        assert client.get(url).status_code == 403
        assert client.post(url, {"casino": casino.pk}, format="json").status_code == 403


def test_a_refresh_is_refused_while_one_is_running(reports_root):
    casino = CasinoFactory()
    report = provisional_request(casino=casino, via="command")
    DailyReport.objects.filter(pk=report.pk).update(status=DailyReport.RUNNING)
    response = _page(user_with_role("finance")).post(reverse("reports-today"), {"casino": casino.pk})
    assert response.status_code == 400 and "already running" in response.content.decode()


def test_opening_the_page_rebuilds_a_stale_one_and_leaves_a_fresh_or_running_one(reports_root, settings):
    settings.REPORTS_PROVISIONAL_MINUTES = 15
    casino = CasinoFactory()
    finance = _page(user_with_role("finance"))
    today = reverse("reports-today") + f"?casino={casino.pk}"
    report = provisional_request(casino=casino, via="beat")
    report.refresh_from_db()
    read = report.started_at
    # Read 14 minutes ago: fresh, shown as it is.
    DailyReport.objects.filter(pk=report.pk).update(started_at=read - timedelta(minutes=14))
    finance.get(today)
    assert DailyReport.objects.get(pk=report.pk).runs == 1
    # Read 16 minutes ago (beat late, or stopped): opening the page builds it again.
    DailyReport.objects.filter(pk=report.pk).update(started_at=read - timedelta(minutes=16))
    finance.get(today)
    report.refresh_from_db()
    assert (report.runs, report.status, report.requested_via) == (2, "done", "page open")
    # Being built right now: left to that run, and shown as running.
    DailyReport.objects.filter(pk=report.pk).update(status=DailyReport.RUNNING, heartbeat_at=timezone.now())
    page = finance.get(today).content.decode()
    assert DailyReport.objects.get(pk=report.pk).runs == 2
    assert 'data-status="running"' in page and "Provisional — as of" not in page


def test_with_the_broker_down_opening_the_page_queues_the_build_in_the_outbox(reports_root, monkeypatch):
    """The run waits in the outbox (casino/outbox.py): the page answers as usual."""
    from casino.models import OutboxTask
    from tests.casino.test_outages import _broker, _closed_port

    casino = CasinoFactory()
    finance = _page(user_with_role("finance"))
    with _broker(f"redis://127.0.0.1:{_closed_port()}/0"):
        page = finance.get(reverse("reports-today") + f"?casino={casino.pk}")
        report = DailyReport.objects.get(casino=casino, provisional=True)
    assert page.status_code == 200 and 'data-status="queued"' in page.content.decode()
    waiting = OutboxTask.objects.get()
    assert (waiting.task, waiting.args) == ("reports.reconcile_start", [report.pk, str(report.run_id), False])
