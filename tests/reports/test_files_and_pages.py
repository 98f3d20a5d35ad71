"""Downloads (CSV parsed, XLSX read back, PDF text extracted), the API and the pages, by role."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from audit.reports.exporters import report_data
from audit.reports.models import DailyReport, ReportLine
from audit.reports.selectors import day_bounds
from audit.reports.services.runs import report_request
from casino.local_time import local_time_text
from tests.conftest import api_as
from tests.factories import user_with_role
from tests.reports.helpers import done_report

pytestmark = pytest.mark.django_db(transaction=True)
DAY = date(2026, 7, 1)


@pytest.fixture
def done(settings, tmp_path):
    return done_report(settings, tmp_path, day=DAY, rounds_per_table=6, seed=11)


def _body(response) -> bytes:
    return b"".join(response.streaming_content)


def test_downloads_open_and_agree(done):
    finance = user_with_role("finance")
    client = api_as(finance)
    floor = ReportLine.objects.get(report=done, level="floor")
    files = {
        fmt: _body(client.get(reverse("reports-file", args=[done.pk]) + f"?file={fmt}"))
        for fmt in ("csv", "xlsx", "pdf")
    }
    rows = list(csv.reader(io.StringIO(files["csv"].decode("utf-8-sig"))))
    header = rows[0]
    floor_row = next(r for r in rows if r and r[0] == "floor")
    assert Decimal(floor_row[header.index("Handle")]) == floor.handle
    assert Decimal(floor_row[header.index("Win")]) == floor.win
    assert any(r and r[0] == "table" for r in rows) and any(r and r[0] == "wager" for r in rows)
    book = load_workbook(io.BytesIO(files["xlsx"]))
    assert {"Floor", "Pits", "Games", "Tables", "Wagers", "Dealers", "Notes"} <= set(
        book.sheetnames
    )
    sheet = book["Floor"]
    headers = [c.value for c in sheet[1]]
    handle = sheet.cell(row=2, column=headers.index("Handle") + 1)
    assert Decimal(str(handle.value)) == floor.handle
    assert "$" in handle.number_format and sheet.freeze_panes == "B2"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(files["pdf"])).pages)
    assert "reconciliation of gaming day 2026-07-01" in text and "Hold % of handle by table" in text
    assert "Outliers" in text and f"{floor.handle:,}".replace(",", "") in text.replace(",", "")


def test_month_and_year_to_date_add_up_the_days(done):
    client = api_as(user_with_role("finance"))
    url = reverse("reports-period") + f"?casino={done.casino_id}&kind=mtd&day=2026-07-31&file=xlsx"
    book = load_workbook(io.BytesIO(_body(client.get(url))))
    sheet = book["Floor"]
    headers = [c.value for c in sheet[1]]
    floor = ReportLine.objects.get(report=done, level="floor")
    assert Decimal(str(sheet.cell(row=2, column=headers.index("Win") + 1).value)) == floor.win
    assert "30 days have no finished report" in book["Notes"]["A3"].value
    response = client.get(
        reverse("reports-period") + f"?casino={done.casino_id}&kind=ytd&day=2026-07-31&file=csv"
    )
    assert response.status_code == 200 and b"floor" in _body(response)


def test_api_status_report_and_role_sections(done):
    finance, surveillance = user_with_role("finance"), user_with_role("surveillance")
    body = api_as(finance).get(reverse("dailyreport-detail", args=[done.pk])).json()
    assert body["status"] == "done" and body["progress"] == 100
    assert {"lines", "wagers", "outliers", "dealers", "summary"} <= set(body)
    assert set(body["downloads"]) == {"csv", "xlsx", "pdf"}
    assert len(body["chain_head"]) == 64 and body["chains"] >= 1, "the day's chain head and what it covers"
    assert isinstance(body["lines"][0]["handle"], str), "amounts are strings"
    seen = api_as(surveillance).get(reverse("dailyreport-detail", args=[done.pk])).json()
    assert (
        "lines" not in seen and "outliers" in seen and "dealers" in seen and seen["downloads"] == {}
    )
    assert (
        api_as(surveillance).get(reverse("dailyreport-download", args=[done.pk])).status_code == 403
    )
    response = api_as(finance).get(reverse("dailyreport-download", args=[done.pk]) + "?file=pdf")
    assert response.status_code == 200 and _body(response).startswith(b"%PDF")


def test_api_start_validation_and_rerun(done):
    client = api_as(user_with_role("finance"))
    bad = client.post(
        reverse("dailyreport-list"),
        {"casino": done.casino_id, "gaming_day": "2999-01-01"},
        format="json",
    )
    assert bad.status_code == 400 and "has not ended yet" in bad.json()["gaming_day"][0]
    bad = client.post(
        reverse("dailyreport-list"),
        {"casino": done.casino_id, "gaming_day": "yesterday"},
        format="json",
    )
    assert bad.status_code == 400 and "gaming_day" in bad.json()
    again = client.post(reverse("dailyreport-rerun", args=[done.pk]), {}, format="json")
    assert again.status_code == 202 and again.json()["runs"] == 2
    assert DailyReport.objects.get(pk=done.pk).status == "done"


def test_pages_by_role(done):
    finance, surveillance = user_with_role("finance"), user_with_role("surveillance")
    page = api_as(finance).get(reverse("reports"), {"from": str(DAY), "to": str(DAY)}).content.decode()
    assert str(DAY) in page and "Run" in page
    day = api_as(finance).get(reverse("reports-day", args=[done.pk])).content.decode()
    assert "Tables" in day and "Download PDF" in day and "Dealers" in day and "Outliers" in day
    seen = api_as(surveillance).get(reverse("reports-day", args=[done.pk])).content.decode()
    assert (
        "Dealers" in seen
        and "Outliers" in seen
        and "Download PDF" not in seen
        and "Wager types" not in seen
    )
    assert (
        api_as(surveillance).post(reverse("reports"), {"gaming_day": "2026-07-01"}).status_code
        == 403
    )
    progress = (
        api_as(surveillance).get(reverse("reports-progress", args=[done.pk])).content.decode()
    )
    assert 'aria-valuenow="100"' in progress


def test_page_starts_a_run(done):
    client = api_as(user_with_role("finance"))
    response = client.post(
        reverse("reports"),
        {"casino": done.casino_id, "gaming_day": "2026-07-01"},
        format="multipart",
    )
    assert [str(m) for m in response.wsgi_request._messages] == [
        "Reconciliation of 2026-07-01 started."
    ]
    assert response.status_code == 302 and response["Location"] == reverse(
        "reports-day", args=[done.pk]
    )
    assert DailyReport.objects.get(pk=done.pk).runs == 2


def test_the_report_shows_its_day_in_the_casinos_time(done):
    """Issue #15: the day's bounds in New York time with the zone named, never a -04:00 time
    labelled "UTC"; the API keeps UTC."""
    bounds = "2026-07-01 06:00 EDT to 2026-07-02 06:00 EDT"
    client = api_as(user_with_role("finance"))
    page = client.get(reverse("reports-day", args=[done.pk])).content.decode()
    assert bounds in page and "UTC" not in page
    index = client.get(reverse("reports"), {"from": str(DAY), "to": str(DAY)}).content.decode()
    assert f"<td>{local_time_text(done.finished_at, done.casino)}</td>" in index
    book = load_workbook(io.BytesIO(_body(client.get(reverse("reports-file", args=[done.pk]) + "?file=xlsx"))))
    notes = [row[0].value for row in book["Notes"].iter_rows()]
    assert any(bounds in (n or "") for n in notes) and not any("UTC" in (n or "") for n in notes)
    pdf = _body(client.get(reverse("reports-file", args=[done.pk]) + "?file=pdf"))
    assert bounds in "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    api = client.get(reverse("dailyreport-detail", args=[done.pk])).json()
    assert api["period_start"] in ("2026-07-01T10:00:00Z", "2026-07-01T10:00:00+00:00")


def test_the_period_is_local_before_the_report_is_read_back(done):
    """The run sets the bounds in the casino's zone (-04:00): the text must not call them UTC."""
    done.period_start, done.period_end = day_bounds(done.casino, DAY)
    assert report_data(done).subtitle.startswith("2026-07-01 06:00 EDT to 2026-07-02 06:00 EDT (America/New_York")


def test_a_day_not_ended_is_refused_with_its_end_in_local_time(done):
    with pytest.raises(ValidationError) as refused:
        report_request(casino=done.casino, gaming_day=date(2026, 7, 3), via="command",
                       now=datetime(2026, 7, 3, 14, 0, tzinfo=UTC))
    assert "2026-07-03, which ends at 2026-07-04 06:00 EDT" in refused.value.message_dict["gaming_day"][0]


def test_the_list_of_reports_shows_one_period_the_last_30_days_by_default(done):
    """Issue #20: the list does not grow with the years kept; another period is asked for, and a
    reversed or too long one is said to be so next to its field."""
    client = api_as(user_with_role("finance"))
    # Three days back: inside the last 30 of the casino's gaming days whatever the hour in New York.
    recent = DailyReport.objects.create(casino=done.casino, gaming_day=date.today() - timedelta(days=3),
                                        status=DailyReport.DONE)
    page = client.get(reverse("reports")).content.decode()
    assert str(recent.gaming_day) in page and str(DAY) not in page
    asked = client.get(reverse("reports"), {"from": "2026-06-15", "to": "2026-07-15"}).content.decode()
    assert str(DAY) in asked and str(recent.gaming_day) not in asked
    assert 'value="2026-06-15"' in asked and 'value="2026-07-15"' in asked
    reversed_ = client.get(reverse("reports"), {"from": "2026-07-15", "to": "2026-06-15"})
    assert reversed_.status_code == 200
    assert 'id="to-error"' in reversed_.content.decode() and str(recent.gaming_day) in reversed_.content.decode()
