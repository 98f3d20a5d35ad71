"""Each column says what it counts (page tooltips and legend, CSV, XLSX); hold % to 2 decimals.

Hold'em Blackjack's handle is the chips contested in the raked pots, not the stakes the
players put in (which count uncalled bets): without a word the two disagree on the page.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from audit.reports.models import ReportLine
from tests.conftest import api_as
from tests.factories import user_with_role
from tests.reports.helpers import done_report

pytestmark = pytest.mark.django_db(transaction=True)
DAY = date(2026, 7, 1)


@pytest.fixture
def done(settings, tmp_path):
    return done_report(settings, tmp_path, day=DAY, rounds_per_table=5, seed=13)


def _download(client, report, fmt: str) -> bytes:
    return b"".join(client.get(reverse("reports-file", args=[report.pk]) + f"?file={fmt}").streaming_content)


def test_the_page_explains_each_column_and_shows_hold_to_two_decimals(done):
    html = api_as(user_with_role("finance")).get(reverse("reports-day", args=[done.pk])).content.decode()
    assert "What each column counts" in html
    handle_titles = re.findall(r'<th[^>]*title="([^"]*)"[^>]*>Handle</th>', html)
    assert handle_titles and all("chips contested" in t for t in handle_titles), handle_titles
    assert re.search(r'<th[^>]*title="[^"]*"[^>]*>Hold % of handle</th>', html)
    assert re.search(r'<th[^>]*title="[^"]*drop[^"]*"[^>]*>Hold % \(win / drop\)</th>', html)
    assert not re.search(r'>Hold %</th>', html)  # the two holds are never left unnamed
    floor = ReportLine.objects.get(report=done, level="floor")
    assert floor.handle_hold_pct != floor.handle_hold_pct.quantize(Decimal("0.01"))
    assert f">{floor.handle_hold_pct.quantize(Decimal('0.01'))}<" in html
    assert str(floor.handle_hold_pct) not in html


def test_the_csv_carries_the_legend_and_hold_to_two_decimals(done):
    rows = list(csv.reader(io.StringIO(_download(api_as(user_with_role("finance")), done, "csv").decode("utf-8-sig"))))
    legend = {r[1]: r[2] for r in rows if r and r[0] == "legend"}
    assert "chips contested" in legend["Handle"] and "Hold % of handle" in legend and "Hold %" not in legend
    assert "Statistical win / drop" in legend["Hold % (win / drop)"]
    header = rows[0]
    floor_row = next(r for r in rows if r and r[0] == "floor")
    assert re.fullmatch(r"-?\d+\.\d\d", floor_row[header.index("Hold % of handle")])


def test_the_xlsx_has_a_legend_sheet_and_a_comment_on_each_explained_header(done):
    book = load_workbook(io.BytesIO(_download(api_as(user_with_role("finance")), done, "xlsx")))
    legend = {row[0].value: row[1].value for row in book["Legend"].iter_rows(min_row=2)}
    assert "chips contested" in legend["Handle"]
    headers = {cell.value: cell for cell in book["Games"][1]}
    assert "chips contested" in headers["Handle"].comment.text
    assert headers["Hold % of handle"].comment is not None
    assert "Statistical win / drop" in headers["Hold % (win / drop)"].comment.text


#: Report line columns that name the line, or are shown inside another column's text.
_NAMING = {"id", "report", "level", "key", "label", "game"}
_SHOWN_WITH = {
    "ci_low": "ci", "ci_high": "ci", "theo_sd": "ci", "outlier": "ci", "theo_basis": "theo_win",
    "overpaid": "error_cost", "underpaid": "error_cost", "voided_rounds": "rounds",
    "cash_tables": "stat_win", "cash_incomplete": "stat_win", "cash_pending": "stat_win",
    "liability_opening": "jackpots", "liability_closing": "jackpots",
}


def test_every_report_column_has_its_text_in_the_legend():
    """A column added to the report without a text for the page and the files fails here."""
    from audit.reports.legend import COLUMNS
    from audit.reports.models import ReportLine

    fields = {f.name for f in ReportLine._meta.concrete_fields} - _NAMING
    unexplained = {name for name in fields if name not in COLUMNS and _SHOWN_WITH.get(name) not in COLUMNS}
    assert not unexplained, sorted(unexplained)
