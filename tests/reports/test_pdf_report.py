"""The PDF a finance director signs: read back page by page, and rendered to PNG to be looked at.

pypdf extracts each page's text (headings kept with their content, the casino and the day
and "Page x of y" on every page, the per-pit and per-table tables, the dealers, the legend);
poppler's pdftoppm renders the pages (var/report-pages/, to look at), skipped without it.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from pypdf import PdfReader

from audit.reports.exporters import pdf_bytes, report_data
from audit.reports.models import DailyReport, DealerLine, ReportLine
from audit.reports.services.runs import report_request
from tests.reports.helpers import simulated_day

pytestmark = pytest.mark.django_db(transaction=True)
DAY = date(2026, 7, 1)
ROOT = Path(__file__).resolve().parents[2]
HEADINGS = ("Summary", "Pits", "Tables by pit", "Games", "Hold % by table",
            "Win against theoretical win by table", "Outliers", "Dealers", "Wager types",
            "What each column counts", "Notes", "Sign-off")


@pytest.fixture
def report(settings, tmp_path):
    settings.REPORTS_ROOT = tmp_path / "reports"
    sim = simulated_day(day=DAY, rounds_per_table=6, seed=12, tables_per_game=2, bad_dealer_rounds=4)
    report = report_request(casino=sim["casino"], gaming_day=DAY, via="command")
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    return report


@pytest.fixture
def pages(report) -> list[str]:
    reader = PdfReader(io.BytesIO(pdf_bytes(report_data(report))))
    return [page.extract_text() for page in reader.pages]


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_every_page_names_the_casino_the_day_and_its_number(report, pages):
    assert len(pages) >= 3
    for number, text in enumerate(pages, start=1):
        assert report.casino.name in text and "2026-07-01" in text, number
        assert f"Page {number} of {len(pages)}" in text


def test_no_heading_is_left_alone_at_the_foot_of_a_page(pages):
    for number, text in enumerate(pages, start=1):
        body = [line for line in _lines(text) if not line.startswith("Page ")]
        last = body[-1]
        assert not any(last.startswith(h) for h in HEADINGS), f"page {number} ends with {last!r}"
    text = "\n".join(pages)
    for heading in HEADINGS:
        assert heading in text


def test_a_table_per_pit_with_each_of_its_tables_and_every_dealer(report, pages):
    text = "\n".join(pages)
    tables = ReportLine.objects.filter(report=report, level="table")
    pits = ReportLine.objects.filter(report=report, level="pit")
    assert pits.count() == 2 and tables.count() == 10
    for pit in pits:
        assert f"Pit: {pit.label}" in text
    for line in tables:
        assert line.label.split(" / ")[-1] in text
    for dealer in DealerLine.objects.filter(report=report):
        assert dealer.label in text
    assert "Careless Dealer" in text and "flagged" in text


def test_hold_percent_has_two_decimals(report, pages):
    text = "\n".join(pages)
    floor = ReportLine.objects.get(report=report, level="floor")
    assert floor.hold_pct is not None and floor.hold_pct != floor.hold_pct.quantize(Decimal("0.01"))
    assert str(floor.hold_pct.quantize(Decimal("0.01"))) in text
    assert str(floor.hold_pct) not in text  # the stored 4 decimals are not printed


def test_charts_have_labelled_axes(pages):
    text = "\n".join(pages)
    assert "Hold % (win / handle x 100)" in text and "Table (pit / label)" in text
    assert "Win and theoretical win ($)" in text


def test_the_legend_says_what_hold_em_handle_counts(pages):
    text = " ".join(" ".join(pages).split())
    assert "What each column counts" in text
    assert "chips contested" in text and "uncalled" in text


def test_the_pages_render_to_png(report, tmp_path):
    if shutil.which("pdftoppm") is None:
        pytest.skip("needs poppler's pdftoppm to render the PDF (apt-get install poppler-utils)")
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(pdf_bytes(report_data(report)))
    out = ROOT / "var" / "report-pages"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("page-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", "80", str(pdf), str(out / "page")], check=True, timeout=120)
    rendered = sorted(out.glob("page-*.png"))
    assert len(rendered) == len(PdfReader(str(pdf)).pages)
    assert all(p.stat().st_size > 5_000 for p in rendered), "a page rendered blank"
