"""The day's MTL as PDF (reportlab, the daily report's page furniture from audit/reports/pdf.py):
the thresholds, every transaction of each patron on the log, the CTRs and the sign-off."""

from __future__ import annotations

import io

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from audit.reports.pdf import MARGIN, PAGE, NumberedCanvas
from casino.local_time import local_time_text

from .models import CASH_IN
from .rows import MTL_COLUMNS, mtl_rows

_STYLES = getSampleStyleSheet()
TITLE = ParagraphStyle("t31-title", parent=_STYLES["Title"], fontSize=16, spaceAfter=4)
H2 = ParagraphStyle("t31-h2", parent=_STYLES["Heading2"], spaceBefore=8, spaceAfter=4)
BODY = ParagraphStyle("t31-body", parent=_STYLES["Normal"], fontSize=8.5, leading=11)
CELL = ParagraphStyle("t31-cell", parent=_STYLES["Normal"], fontSize=7.5, leading=9)


def _text(value) -> str:
    return "" if value is None else str(value).replace("&", "&amp;").replace("<", "&lt;")


def _grid(body) -> Table:
    grid = Table(body, repeatRows=1, hAlign="LEFT")
    grid.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#333333")), ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
        ("FONTSIZE", (0, 0), (-1, -1), 7.5), ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return grid


def mtl_pdf(state) -> bytes:
    title = f"Multiple transaction log · {state.casino.name} · gaming day {state.gaming_day}"
    rows = mtl_rows(state)
    body = [[Paragraph(header, CELL) for _, header in MTL_COLUMNS]]
    body += [[Paragraph(_text(row.get(key)), CELL) for key, _ in MTL_COLUMNS] for row in rows]
    story = [Paragraph(_text(title), TITLE),
             Paragraph(f"Patrons whose cash in or cash out of the day is over {state.rules.mtl_threshold:,.2f} "
                       f"(each direction on its own, 31 CFR 1021.313). CTR: more than "
                       f"{state.rules.ctr_threshold:,.2f} (31 CFR 1021.311). Digest {state.digest}.", BODY),
             Spacer(0, 6), _grid(body) if rows else Paragraph("No patron over the threshold.", BODY),
             Paragraph("CTRs required", H2)]
    if state.ctrs:
        ctr_body = [[Paragraph(h, CELL) for h in ("Subject", "Direction", "Total", "Missing", "Exception")]]
        ctr_body += [[Paragraph(_text(c.subject), CELL),
                      Paragraph("cash in" if c.direction == CASH_IN else "cash out", CELL),
                      Paragraph(f"{c.total:,.2f}", CELL), Paragraph(_text(", ".join(c.missing) or "-"), CELL),
                      Paragraph(_text(c.exception.reason if c.exception else "-"), CELL)] for c in state.ctrs]
        story.append(_grid(ctr_body))
    else:
        story.append(Paragraph("None.", BODY))
    story.append(Paragraph("Sign-off", H2))
    if state.sign_off is None:
        story.append(Paragraph("Not signed by compliance.", BODY))
    else:
        changed = " The log has changed since." if state.changed_since_signed else ""
        story.append(Paragraph(_text(f"Signed by {state.sign_off.signed_by} at "
                                     f"{local_time_text(state.sign_off.signed_at, state.casino)}.{changed}"), BODY))
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=PAGE, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN + 10,
                            bottomMargin=MARGIN + 6, title=title)
    doc.build(story, canvasmaker=type("MtlCanvas", (NumberedCanvas,), {"header": title}))
    return out.getvalue()
