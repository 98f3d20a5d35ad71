"""The daily (or period) report as a PDF a finance director can sign.

Landscape letter. Every page carries the casino and the day (the report's title) and
"Page x of y". A heading is never left alone at the foot of a page: a conditional page
break before it asks for room for the heading and the first rows of its table (the table
then splits across pages with its header row repeated); a chart moves with its heading. Sections: summary of the floor,
pits, the tables of each pit, games, the players' decisions (decision theo beside theo), two charts
by table with labelled axes (hold %, and win against theoretical win), outliers, every dealer, the floor's wager types, what each column
counts (audit/reports/legend.py), notes and a sign-off block.
"""

from __future__ import annotations

import io
from decimal import Decimal
from xml.sax.saxutils import escape

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    CondPageBreak,
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from audit.decisions.figures import DECISION_THEO, PLAY_QUALITY, play_quality_text
from casino.field_words import wager_label
from tables.games import GAMES

from .legend import legend
from .theoretical import basis_words

PAGE = landscape(letter)
MARGIN = 0.5 * inch
#: The width a table may take: the page less its margins.
FRAME_WIDTH = PAGE[0] - 2 * MARGIN
#: A cell's left plus right padding (reportlab's default of 6 points each side).
PADDING = 12
MIN_COLUMN = PADDING + 12
FONT, BOLD, SIZE = "Helvetica", "Helvetica-Bold", 7.5
HEADER_COLOR = colors.HexColor("#333333")
WIN_COLOR, THEO_COLOR = colors.HexColor("#2f6f9f"), colors.HexColor("#c8a040")
#: Tables per chart: more would make the bar labels unreadable; a bigger floor gets more charts.
TABLES_PER_CHART = 24


def money(value) -> str:
    if value is None:
        return ""
    return f"{Decimal(value):,.2f}"


def pct(value) -> str:
    return "–" if value is None else f"{Decimal(value):.2f}"


def count(value) -> str:
    return "" if value is None else f"{value:,}"


def interval(row) -> str:
    low, high = row.get("ci_low"), row.get("ci_high")
    return "" if low is None or high is None else f"{money(low)} to {money(high)}"


def table_name(row) -> str:
    return str(row["label"]).split(" / ")[-1]


def _styles():
    base = getSampleStyleSheet()
    return {
        "title": ParagraphStyle("title", parent=base["Title"], fontSize=18, spaceAfter=4),
        "subtitle": ParagraphStyle("subtitle", parent=base["Normal"], fontSize=9, textColor=colors.grey),
        "h2": ParagraphStyle("h2", parent=base["Heading2"], spaceBefore=10, spaceAfter=4),
        "h3": ParagraphStyle("h3", parent=base["Heading3"], spaceBefore=6, spaceAfter=3),
        "body": ParagraphStyle("body", parent=base["Normal"], fontSize=8.5, leading=11),
        "cell": ParagraphStyle("cell", parent=base["Normal"], fontSize=7.5, leading=9),
        "summary": ParagraphStyle("summary", parent=base["Normal"], fontSize=8.5, leading=10.5),
        "summary_right": ParagraphStyle("summary_right", parent=base["Normal"], fontSize=8.5, leading=10.5,
                                        alignment=TA_RIGHT),
        "right": ParagraphStyle("right", parent=base["Normal"], fontSize=7.5, leading=9, alignment=TA_RIGHT),
    }


#: A header cell: white on the dark header row, wrapped at spaces to its column's width.
HEAD = ParagraphStyle("head", fontName=BOLD, fontSize=SIZE, leading=9, textColor=colors.white)


class NumberedCanvas(Canvas):
    """Draws the running header and "Page x of y" once the number of pages is known."""

    header = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pages: list[dict] = []

    def showPage(self):  # noqa: N802 (reportlab's name)
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self):
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            self._furniture(total)
            super().showPage()
        super().save()

    def _furniture(self, total: int) -> None:
        width, height = PAGE
        self.saveState()
        self.setFont("Helvetica", 8)
        self.setFillColor(colors.HexColor("#444444"))
        self.drawString(MARGIN, height - 0.38 * inch, self.header)
        self.drawRightString(width - MARGIN, height - 0.38 * inch, "Confidential: finance")
        self.setStrokeColor(colors.lightgrey)
        self.line(MARGIN, height - 0.44 * inch, width - MARGIN, height - 0.44 * inch)
        self.line(MARGIN, 0.42 * inch, width - MARGIN, 0.42 * inch)
        self.drawString(MARGIN, 0.28 * inch, "Amounts in the casino's currency; money columns to the cent, "
                                             "percentages to 2 decimals.")
        self.drawRightString(width - MARGIN, 0.28 * inch, f"Page {self._pageNumber} of {total}")
        self.restoreState()


#: Room a heading asks for below it: itself, a table's header row and its first few rows.
ROOM = 1.8 * inch


def heading(text: str, style) -> list:
    """A heading that does not stay alone at the foot of a page (see the module docstring)."""
    return [CondPageBreak(ROOM), Paragraph(text, style)]


def _text_width(text: str, font: str = FONT, size: float = SIZE) -> float:
    return stringWidth(text, font, size)


def _words_width(text: str, font: str = FONT) -> float:
    """The widest word: a wrapped cell is never narrower than this."""
    return max((_text_width(w, font) for w in str(text).split()), default=0)


def column_widths(body, widths=None, total: float = FRAME_WIDTH) -> list[float]:
    """Widths that keep every cell inside its column and the table inside the page.

    Plain strings (numbers, short labels) are never wrapped, so their column is at least as
    wide as the widest of them; a header and a Paragraph wrap at spaces, so they need only
    their widest word and get what room is left towards their full width. Explicit
    ``widths`` are kept, but a column too narrow for its strings is widened first.
    """
    columns = len(body[0])
    need, want = [0.0] * columns, [0.0] * columns
    for r, row in enumerate(body):
        for c, cell in enumerate(row):
            if isinstance(cell, Paragraph) or r == 0:
                text = cell.getPlainText() if isinstance(cell, Paragraph) else str(cell)
                font = BOLD if r == 0 else FONT
                need[c] = max(need[c], _words_width(text, font) + PADDING)
                want[c] = max(want[c], min(_text_width(text, font), 2.6 * inch) + PADDING)
            else:
                need[c] = max(need[c], _text_width(str(cell)) + PADDING)
    need = [max(n, MIN_COLUMN) for n in need]  # a wrapped cell needs some room, even an empty one
    want = [max(n, w) for n, w in zip(need, want, strict=True)]
    if widths is not None:
        return [max(w, n) for w, n in zip(widths, need, strict=True)]
    if sum(want) <= total:
        return want
    spare, stretch = total - sum(need), sum(w - n for w, n in zip(want, need, strict=True))
    share = max(spare, 0) / stretch if stretch else 0
    return [n + (w - n) * share for n, w in zip(need, want, strict=True)]


def _grid(body, *, widths=None, numeric_from: int = 1, highlight: list[int] | None = None) -> Table:
    """A table with a dark header row whose headers wrap instead of running into each other."""
    widths = column_widths(body, widths)
    body = [[cell if isinstance(cell, Paragraph) or not cell else Paragraph(escape(str(cell)), HEAD)
             for cell in body[0]], *body[1:]]
    grid = Table(body, repeatRows=1, colWidths=widths, hAlign="LEFT")
    style = [
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_COLOR),
        ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
        ("FONTSIZE", (0, 0), (-1, -1), SIZE),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
        ("ALIGN", (numeric_from, 1), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f4f4f4")]),
    ]
    for row in highlight or []:
        style.append(("BACKGROUND", (0, row), (-1, row), colors.HexColor("#fbe3e3")))
    grid.setStyle(TableStyle(style))
    return grid


UNIT_COLUMNS = ("Rounds", "Seats", "Handle", "Paid", "Win", "Hold % of handle", "Theo win", "95% interval",
                "Errors lost(+)/saved(-)", "TF taxes", "TF jackpots")


def _unit_cells(row) -> list[str]:
    return [count(row.get("rounds")), count(row.get("seats_played")), money(row.get("handle")),
            money(row.get("paid")), money(row.get("win")), pct(row.get("handle_hold_pct")),
            money(row.get("theo_win")), interval(row), money(row.get("error_cost")),
            money(row.get("taxes")), money(row.get("jackpots"))]


def _units(rows, first: str, label=lambda r: r["label"], extra=None):
    """One row per unit (pit, game or table); ``extra``: (header, cell) columns after the label."""
    extra = extra or []
    body = [[first, *(h for h, _ in extra), *UNIT_COLUMNS]]
    highlight = []
    for i, row in enumerate(rows, start=1):
        name = label(row) + (" (outlier)" if row.get("outlier") else "")
        body.append([name, *(cell(row) for _, cell in extra), *_unit_cells(row)])
        if row.get("outlier"):
            highlight.append(i)
    return _grid(body, numeric_from=1 + len(extra), highlight=highlight)


def _summary(floor: dict | None, s) -> list:
    if floor is None:
        return [Paragraph("No rounds were recorded.", s["body"])]
    pairs = [
        ("Rounds (voided)", f"{count(floor.get('rounds'))} ({count(floor.get('voided_rounds')) or 0})"),
        ("Handle", money(floor.get("handle"))), ("Paid", money(floor.get("paid"))),
        ("Win", money(floor.get("win"))), ("Hold % of handle", pct(floor.get("handle_hold_pct"))),
        ("Win if settled right", money(floor.get("expected_win"))),
        ("Theoretical win", money(floor.get("theo_win"))), ("95% interval", interval(floor)),
        ("Dealer errors lost(+)/saved(-)", money(floor.get("error_cost"))),
        ("Overpaid / underpaid", f"{money(floor.get('overpaid'))} / {money(floor.get('underpaid'))}"),
        ("TF taxes / jackpots", f"{money(floor.get('taxes'))} / {money(floor.get('jackpots'))}"),
        ("Drop (estimated)", f"{money(floor.get('drop')) or 'count pending'} ({money(floor.get('estimated_drop'))})"),
        ("Statistical win", cash_win(floor)),
        ("Hold % (win / drop)", pct(floor.get("drop_hold_pct"))),
        ("Unexplained (cash - play)", money(floor.get("cash_unexplained")) or "–"),
        ("Jackpot liability opening / closing",
         f"{money(floor.get('liability_opening')) or '–'} / {money(floor.get('liability_closing')) or '–'}"),
    ]
    half = (len(pairs) + 1) // 2
    rows = [["Figure", "Amount", "Figure", "Amount"]]
    for i in range(half):
        right = pairs[half + i] if half + i < len(pairs) else ("", "")
        # Paragraphs, so that a long amount ("count pending" and why) wraps inside its cell.
        rows.append([Paragraph(escape(text), s["summary"] if n % 2 == 0 else s["summary_right"])
                     for n, text in enumerate([*pairs[i], *right])])
    return [_grid(rows, widths=[2.1 * inch, 1.6 * inch, 2.4 * inch, 1.9 * inch], numeric_from=1)]


def cash_win(row) -> str:
    """The statistical win, or why it is unknown ("count pending": never shown as zero)."""
    if row.get("stat_win") is None:
        return row.get("cash_text") or "unknown"
    return money(row["stat_win"])


_LEVEL_ORDER = (("floor", "Floor"), ("pit", "Pit"), ("game", "Game"), ("table", "Table"))


def _all_units(levels) -> list[tuple[str, dict]]:
    return [(title, row) for level, title in _LEVEL_ORDER for row in levels.get(level, [])]


def _decisions(levels, s) -> list:
    """The players' decisions beside theo: decisions' cost, decision theo, priced handle and play
    quality for the floor, every pit, game and table (audit/decisions/figures.py)."""
    units = _all_units(levels)
    if not units:
        return []
    body = [["Level", "Unit", "Theo win", "Decisions' cost", "Decision theo", "Priced handle", "Play quality"]]
    for title, r in units:
        body.append([title, Paragraph(escape(str(r["label"])), s["cell"]), money(r.get("theo_win")),
                     money(r.get("decision_cost")), money(r.get("decision_theo")), money(r.get("decision_handle")),
                     play_quality_text(r.get("play_quality_pct"))])
    return [*heading("Players' decisions: decision theo = theo win + the decisions' cost", s["h2"]),
            _grid(body, numeric_from=2),
            Paragraph(escape(f"{DECISION_THEO[1]} {PLAY_QUALITY[1]}"), s["body"])]


def _cash_sections(levels, s) -> list:
    """Cash figures, recorded play against cash, and why each unit won or lost (issue #17, 1-3)."""
    units = _all_units(levels)
    if not units or "cash_text" not in units[0][1]:  # a month- or year-to-date file carries no cash yet
        return []
    cash = [["Level", "Unit", "Opener", "Closer", "Fills", "Credits", "Drop", "Estimated drop", "Statistical win",
             "Hold % (win / drop)", "Counted"]]
    play = [["Level", "Unit", "Win (play)", "Settled right", "Statistical win", "Cash - play", "Dealer errors",
             "By kind", "TF jackpots", "Unexplained", "Drop - buy-ins"]]
    why = [["Level", "Unit", "Win", "House edge", "Luck", "Dealer error", "Explanation"]]
    for title, r in units:
        name = Paragraph(escape(str(r["label"])), s["cell"])
        stat_win = Paragraph(escape(cash_win(r)), s["right"])  # a reason when unknown: it wraps
        # Here the reason is the last column's: "unknown" (never a zero) is enough.
        cash_stat_win = cash_win(r) if r.get("stat_win") is not None else "unknown"
        cash.append([title, name, money(r.get("opener")) or "–", money(r.get("closer")) or "–", money(r.get("fills")),
                     money(r.get("credits")), money(r.get("drop")) or ("count pending" if r.get("cash_text") ==
                                                                        "count pending" else "–"),
                     money(r.get("estimated_drop")), cash_stat_win, pct(r.get("drop_hold_pct")),
                     Paragraph(escape(str(r.get("cash_text") or "")), s["cell"])])
        play.append([title, name, money(r.get("win")), money(r.get("expected_win")), stat_win,
                     money(r.get("cash_difference")) or "–", money(r.get("cash_errors")) or "–",
                     Paragraph(escape(str(r.get("findings_text") or "")), s["cell"]),
                     money(r.get("cash_jackpots")) or "–", money(r.get("cash_unexplained")) or "–",
                     money(r.get("drop_gap")) or "–"])
        split = r.get("why_split") or {}
        why.append([title, name, money(r.get("win")), money(split.get("edge")), money(split.get("luck")),
                    money(split.get("errors")), Paragraph(escape(str(r.get("why") or "")), s["cell"])])
    explanation = FRAME_WIDTH - sum(column_widths([row[:-1] for row in why]))
    return [
        *heading("Cash figures: statistical win = closer - opener + drop + credits - fills; hold % = win / drop",
                 s["h2"]),
        _grid(cash, numeric_from=2),
        *heading("Recorded play against cash (complete tables only)", s["h2"]),
        _grid(play, numeric_from=2),
        *heading("Why it won or lost: win = house edge + luck + dealer error", s["h2"]),
        _grid(why, numeric_from=2, widths=[*column_widths([row[:-1] for row in why]), explanation]),
    ]


def _axis_title(drawing: Drawing, x, y, text: str, angle: int = 0) -> None:
    label = String(0, 0, text, fontSize=8, fontName="Helvetica-Bold", textAnchor="middle")
    if angle:
        from reportlab.graphics.shapes import Group

        group = Group(label)
        group.translate(x, y)
        group.rotate(angle)
        drawing.add(group)
    else:
        label.x, label.y = x, y
        drawing.add(label)


def _bar_chart(rows, series: list[tuple[str, str, object]], y_title: str) -> Drawing:
    """Bars by table; ``series``: (field, legend name, colour). Axis titles on both axes."""
    width, height = 9.8 * inch, 2.9 * inch
    drawing = Drawing(width, height)
    chart = VerticalBarChart()
    chart.x, chart.y = 62, 62
    chart.width, chart.height = width - chart.x - (110 if len(series) > 1 else 20), height - chart.y - 12
    chart.data = [[float(r.get(f) or 0) for r in rows] for f, _, _ in series]
    chart.categoryAxis.categoryNames = [str(r["label"]) for r in rows]
    chart.categoryAxis.labels.fontSize = 6
    chart.categoryAxis.labels.fontName = "Helvetica"
    chart.categoryAxis.labelAxisMode = "low"  # below the bars, even when a value is negative
    chart.categoryAxis.labels.angle = 25
    chart.categoryAxis.labels.boxAnchor = "ne"
    chart.categoryAxis.labels.dy = -2
    chart.valueAxis.labels.fontSize = 7
    chart.valueAxis.labels.fontName = "Helvetica"
    chart.valueAxis.labelTextFormat = lambda value: f"{value:,.0f}"
    chart.valueAxis.visibleGrid = True
    chart.valueAxis.gridStrokeColor = colors.HexColor("#dddddd")
    values = [v for serie in chart.data for v in serie] or [0]
    chart.valueAxis.valueMin = min(0.0, min(values) * 1.1)
    chart.valueAxis.valueMax = max(1.0, max(values) * 1.1)
    for i, (_, _, colour) in enumerate(series):
        chart.bars[i].fillColor = colour
        chart.bars[i].strokeColor = None
    drawing.add(chart)
    _axis_title(drawing, 14, chart.y + chart.height / 2, y_title, angle=90)
    _axis_title(drawing, chart.x + chart.width / 2, 4, "Table (pit / label)")
    if len(series) > 1:
        key = Legend()
        key.x, key.y = chart.x + chart.width + 14, chart.y + chart.height - 6
        key.fontSize = 7.5
        key.fontName = "Helvetica"
        key.alignment = "right"
        key.colorNamePairs = [(colour, name) for _, name, colour in series]
        drawing.add(key)
    return drawing


def _charts(tables: list[dict], title_text: str, series, y_title: str, s) -> list:
    if not tables:
        return [*heading(title_text, s["h2"]), Paragraph("No table had action.", s["body"])]
    chunks = [tables[i:i + TABLES_PER_CHART] for i in range(0, len(tables), TABLES_PER_CHART)]
    out = []
    for n, chunk in enumerate(chunks, start=1):
        title = title_text if len(chunks) == 1 else f"{title_text} ({n} of {len(chunks)})"
        out.append(KeepTogether([Paragraph(title, s["h2"]), _bar_chart(chunk, series, y_title)]))
    return out


def _dealers(dealers: list[dict], s) -> list:
    if not dealers:
        return [Paragraph("No dealer dealt a round.", s["body"])]
    body = [["Dealer", "Rounds", "With findings", "Findings", "$ at stake", "Rate %", "z vs floor", ""]]
    flagged = []
    for i, d in enumerate(dealers, start=1):
        body.append([d["label"], count(d.get("rounds")), count(d.get("error_rounds")), count(d.get("findings")),
                     money(d.get("amount")), pct(d.get("rate_pct")), pct(d.get("z_score")),
                     "flagged" if d.get("flagged") else ""])
        if d.get("flagged"):
            flagged.append(i)
    return [_grid(body, highlight=flagged)]


def _wagers(wagers: list[dict], s) -> list:
    floor = [w for w in wagers if w.get("level") == "floor"]
    if not floor:
        return [Paragraph("No wagers.", s["body"])]
    body = [["Game", "Wager", "Settlements", "Handle", "Paid", "Win", "Hold % of handle", "Edge %", "Theo win",
             "Edge basis"]]
    for w in floor:
        edge = w.get("house_edge_pct")
        game = w.get("game", "")
        body.append([GAMES[game].name if game in GAMES else game, wager_label(w.get("wager", "")),
                     count(w.get("count")), money(w.get("handle")), money(w.get("paid")), money(w.get("win")),
                     pct(w.get("handle_hold_pct")), "–" if edge is None else f"{Decimal(edge):.3f}",
                     money(w.get("theo_win")), Paragraph(escape(basis_words(w.get("basis"))), s["cell"])])
    grid = _grid(body, numeric_from=2)
    grid.setStyle(TableStyle([("ALIGN", (-1, 1), (-1, -1), "LEFT")]))
    return [grid]


def _edges(edges: list[dict], s) -> list:
    """Where each wager type's house edge comes from: the engine's exact math or the house's figure."""
    if not edges:
        return []
    body = [["Game", "Wager", "Edge %", "Basis", "Source"]]
    for e in edges:
        edge = e.get("edge_pct")
        body.append([e["game"], e["wager"], "–" if edge is None else f"{Decimal(edge):.3f}",
                     Paragraph(escape(e["basis"]), s["cell"]), Paragraph(escape(e["source"]), s["cell"])])
    widths = column_widths([row[:-1] for row in body])
    grid = _grid(body, numeric_from=2, widths=[*widths, FRAME_WIDTH - sum(widths)])
    grid.setStyle(TableStyle([("ALIGN", (3, 1), (-1, -1), "LEFT")]))
    return [*heading("Where each house edge comes from: the engine's exact math, or the house's assumed figure "
                     "(Theoretical assumptions)", s["h2"]), grid]


def _legend(s) -> list:
    body = [["Column", "What it counts"]] + [
        [Paragraph(f"<b>{header}</b>", s["cell"]), Paragraph(text, s["cell"])] for header, text in legend()
    ]
    return [_grid(body, widths=[1.6 * inch, 8.3 * inch], numeric_from=2)]


def _sign_off(s) -> list:
    body = [["", "Name", "Signature", "Date"],
            ["Prepared by", "", "", ""],
            ["Reviewed and approved by (finance)", "", "", ""]]
    grid = Table(body, colWidths=[2.6 * inch, 2.6 * inch, 2.6 * inch, 1.6 * inch], rowHeights=[14, 30, 30],
                 hAlign="LEFT")
    grid.setStyle(TableStyle([("FONTSIZE", (0, 0), (-1, -1), 8.5), ("GRID", (0, 1), (-1, -1), 0.5, colors.grey),
                              ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
    return [grid]


def pdf_bytes(data) -> bytes:
    """The report as PDF bytes (``data``: exporters.ReportData, the exports' one reading)."""
    s = _styles()
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=PAGE, title=data.title, author="Casino table games",
                            leftMargin=MARGIN, rightMargin=MARGIN, topMargin=0.65 * inch,
                            bottomMargin=0.6 * inch)
    floor = (data.levels.get("floor") or [None])[0]
    pits = data.levels.get("pit", [])
    tables = data.levels.get("table", [])
    pending = [item for notice in data.notices
               for item in (Paragraph(f"<b>{escape(notice)}.</b>", s["body"]), Spacer(1, 4))]
    story = [Paragraph(data.title, s["title"]), Paragraph(data.subtitle, s["subtitle"]), *pending, Spacer(1, 6),
             Paragraph("Summary", s["h2"]), *_summary(floor, s)]
    story += [*heading("Pits", s["h2"]), _units(pits, "Pit") if pits else Paragraph("No pits.", s["body"])]
    story += heading("Tables by pit", s["h2"])
    by_pit: dict[str, list[dict]] = {}
    for row in tables:
        by_pit.setdefault(str(row["label"]).rsplit(" / ", 1)[0], []).append(row)
    for n, (pit, rows) in enumerate(sorted(by_pit.items())):
        # The first pit's heading shares the room asked for by "Tables by pit".
        story += [*(heading(f"Pit: {pit}", s["h3"]) if n else [Paragraph(f"Pit: {pit}", s["h3"])]),
                  _units(rows, "Table", label=table_name, extra=[("Game", lambda r: r.get("game") or "")])]
    if not by_pit:
        story.append(Paragraph("No table had action.", s["body"]))
    games = data.levels.get("game", [])
    story += [*heading("Games", s["h2"]), _units(games, "Game") if games else Paragraph("None.", s["body"])]
    story += _decisions(data.levels, s)
    story += _cash_sections(data.levels, s)
    story += _charts(tables, "Hold % of handle by table", [("handle_hold_pct", "Hold % of handle", WIN_COLOR)],
                     "Hold % of handle (win / handle x 100)", s)
    story += _charts(tables, "Win against theoretical win by table",
                     [("win", "Win", WIN_COLOR), ("theo_win", "Theoretical win", THEO_COLOR)],
                     "Win and theoretical win ($)", s)
    outliers = [r for r in tables if r.get("outlier")]
    story += heading("Outliers: tables whose win is outside the 95% interval around theoretical win",
                     s["h2"])
    if outliers:
        body = [["Table", "Handle", "Win", "Theo win", "95% low", "95% high"]] + [
            [r["label"], money(r.get("handle")), money(r.get("win")), money(r.get("theo_win")),
             money(r.get("ci_low")), money(r.get("ci_high"))] for r in outliers]
        story.append(_grid(body))
    else:
        story.append(Paragraph("None.", s["body"]))
    if data.dealers:
        story += [*heading("Dealers: rounds with findings against the floor's rate (flagged when z > 3)",
                           s["h2"]), *_dealers(data.dealers, s)]
    story += [*heading("Wager types (floor)", s["h2"]), *_wagers(data.wagers, s), *_edges(data.edges, s)]
    story += [*heading("What each column counts", s["h2"]), *_legend(s)]
    if data.notes:
        story += heading("Notes", s["h2"])
        story += [Paragraph(n, s["body"]) for n in data.notes]
    story.append(KeepTogether([Paragraph("Sign-off", s["h2"]), *_sign_off(s)]))

    canvas = type("ReportCanvas", (NumberedCanvas,), {"header": data.title})
    doc.build(story, canvasmaker=canvas)
    return out.getvalue()
