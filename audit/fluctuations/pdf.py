"""Investigations as PDF (reportlab, landscape letter, the daily report's page furniture from
audit/reports/pdf.py): the list of a period, and one investigation with its figures, drafted
explanation, conclusion and sign-off."""

from __future__ import annotations

import io

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from audit.reports.pdf import MARGIN, PAGE, NumberedCanvas

from .rows import INVESTIGATION_COLUMNS, figure_rows

_STYLES = getSampleStyleSheet()
TITLE = ParagraphStyle("fl-title", parent=_STYLES["Title"], fontSize=16, spaceAfter=4)
H2 = ParagraphStyle("fl-h2", parent=_STYLES["Heading2"], spaceBefore=8, spaceAfter=4)
BODY = ParagraphStyle("fl-body", parent=_STYLES["Normal"], fontSize=8.5, leading=11)
CELL = ParagraphStyle("fl-cell", parent=_STYLES["Normal"], fontSize=7.5, leading=9)
#: The list's columns on paper (the CSV has them all; the explanation would not fit a row).
LIST_COLUMNS = ("id", "label", "period", "period_start", "period_end", "rule", "drop_hold_pct", "bound_low",
                "bound_high", "stat_win", "drop", "status", "owner", "signed_off_by")
_HEADERS = dict(INVESTIGATION_COLUMNS)


def _text(value) -> str:
    return "" if value is None else str(value)


def _grid(body, widths=None) -> Table:
    grid = Table(body, repeatRows=1, colWidths=widths, hAlign="LEFT")
    grid.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#333333")), ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
        ("FONTSIZE", (0, 0), (-1, -1), 7.5), ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return grid


def _document(title: str, story: list) -> bytes:
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=PAGE, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN + 10,
                            bottomMargin=MARGIN + 6, title=title)
    canvas = type("InvestigationCanvas", (NumberedCanvas,), {"header": title})
    doc.build(story, canvasmaker=canvas)
    return out.getvalue()


def list_pdf(title: str, rows: list[dict]) -> bytes:
    body = [[Paragraph(_HEADERS[key], CELL) for key in LIST_COLUMNS]]
    body += [[Paragraph(_text(row.get(key)), CELL) for key in LIST_COLUMNS] for row in rows]
    story = [Paragraph(title, TITLE), Spacer(0, 6)]
    story.append(_grid(body) if rows else Paragraph("No investigation in this period.", BODY))
    return _document(title, story)


def detail_pdf(investigation, row: dict) -> bytes:
    title = f"Investigation {investigation.pk}: {investigation.label}"
    figures = [["Figure", "Value"], *figure_rows(investigation.figures)]
    story = [Paragraph(title, TITLE),
             Paragraph(f"{row['period']} {row['period_start']} to {row['period_end']} · {row['rule']} · "
                       f"status {row['status']}", BODY),
             Paragraph("Figures when opened", H2), _grid([[Paragraph(_text(c), CELL) for c in r] for r in figures]),
             Paragraph("Drafted explanation", H2), Paragraph(investigation.explanation, BODY),
             Paragraph("Conclusion", H2), Paragraph(investigation.conclusion or "Not written yet.", BODY),
             Paragraph(f"Owner: {row['owner'] or '-'} · concluded by: {row['concluded_by'] or '-'}", BODY),
             Paragraph("Sign-off", H2),
             Paragraph(f"Signed off by {row['signed_off_by']} at {row['signed_off_at']}. "
                       f"{investigation.review_note}" if investigation.signed_off_at else
                       f"Not signed off. {investigation.review_note}", BODY)]
    return _document(title, story)
