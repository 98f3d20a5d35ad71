"""The files finance downloads: CSV, XLSX (formatted) and PDF (printable summary with a chart).

One neutral :class:`ReportData` (a title, one table per level, the wager types, dealers,
outliers and notes) feeds all three formats, for a gaming day or for a period
(month-to-date, year-to-date). Files are written under ``settings.REPORTS_ROOT`` and served
only through role-checked views.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.db.models import Max, Sum

from audit.decisions.figures import play_quality
from casino.field_words import wager_label
from casino.local_time import local_time_text
from casino.money import money_sum
from tables.games import GAMES

from .legend import COLUMNS as LEGEND
from .legend import legend
from .models import (
    EXACT,
    DailyReport,
    DealerLine,
    ReportLine,
    ReportWagerLine,
)
from .pdf import pdf_bytes
from .theoretical import BASIS_WORDS, PENDING, basis_words

LEVEL_TITLES = (("floor", "Floor"), ("pit", "Pits"), ("game", "Games"), ("table", "Tables"))
#: (field, header, kind) kind: money / pct / int / text / bool
LINE_COLUMNS = (
    ("label", "Unit", "text"),
    ("rounds", "Rounds", "int"),
    ("voided_rounds", "Voided", "int"),
    ("seats_played", "Seats played", "int"),
    ("handle", "Handle", "money"),
    ("paid", "Paid", "money"),
    ("win", "Win", "money"),
    ("handle_hold_pct", "Hold % of handle", "pct"),
    ("expected_win", "Win if settled right", "money"),
    ("theo_win", "Theoretical win", "money"),
    ("theo_basis", "Theo basis", "text"),
    ("decision_cost", "Decisions' cost", "money"),
    ("decision_theo", "Decision theo", "money"),
    ("decision_handle", "Priced handle", "money"),
    ("play_quality_pct", "Play quality (% of priced handle)", "pct"),
    ("ci_low", "95% low", "money"),
    ("ci_high", "95% high", "money"),
    ("outlier", "Outlier", "bool"),
    ("error_cost", "Dealer errors: lost (+) / saved (-)", "money"),
    ("overpaid", "Overpaid", "money"),
    ("underpaid", "Underpaid", "money"),
    ("findings_text", "Findings by kind (count, $ at stake)", "text"),
    ("taxes", "TF taxes", "money"),
    ("jackpots", "TF jackpots", "money"),
    ("liability_opening", "Liability opening", "money"),
    ("liability_closing", "Liability closing", "money"),
    ("opener", "Opener", "money"),
    ("closer", "Closer", "money"),
    ("fills", "Fills", "money"),
    ("credits", "Credits", "money"),
    ("drop", "Drop", "money"),
    ("estimated_drop", "Estimated drop", "money"),
    ("stat_win", "Statistical win", "money"),
    ("drop_hold_pct", "Hold % (win / drop)", "pct"),
    ("cash_text", "Cash figures", "text"),
    ("cash_difference", "Cash - play", "money"),
    ("cash_errors", "of which dealer errors", "money"),
    ("cash_jackpots", "of which TF jackpots", "money"),
    ("cash_unexplained", "Unexplained", "money"),
    ("drop_gap", "Drop - buy-ins", "money"),
    ("why", "Why it won or lost", "text"),
)
WAGER_COLUMNS = (
    ("level", "Level", "text"),
    ("label", "Unit", "text"),
    ("game", "Game", "text"),
    ("wager", "Wager", "text"),
    ("count", "Settlements", "int"),
    ("handle", "Handle", "money"),
    ("paid", "Paid", "money"),
    ("win", "Win", "money"),
    ("handle_hold_pct", "Hold % of handle", "pct"),
    ("house_edge_pct", "House edge %", "edge"),
    ("theo_win", "Theoretical win", "money"),
    ("basis", "Basis", "text"),
    ("error_cost", "Dealer errors", "money"),
)
DEALER_COLUMNS = (
    ("label", "Dealer", "text"),
    ("rounds", "Rounds", "int"),
    ("error_rounds", "Rounds with findings", "int"),
    ("findings", "Findings", "int"),
    ("amount", "$ at stake", "money"),
    ("rate_pct", "Rate %", "pct"),
    ("z_score", "z vs floor", "pct"),
    ("flagged", "Flagged", "bool"),
)
CURRENCY_FORMAT = '"$"#,##0.00;[Red]-"$"#,##0.00'
#: export column -> its entry in legend.COLUMNS (the header's comment in the XLSX)
EXPLAINED = {"rounds": "rounds", "seats_played": "seats_played", "handle": "handle", "paid": "paid",
             "win": "win", "handle_hold_pct": "handle_hold_pct", "expected_win": "expected_win", "theo_win": "theo_win",
             "ci_low": "ci", "ci_high": "ci", "error_cost": "error_cost", "taxes": "taxes",
             "jackpots": "jackpots", "findings_text": "findings", "house_edge_pct": "house_edge_pct",
             "rate_pct": "dealer_rate",
             **{f: f for f in ("decision_cost", "decision_theo", "decision_handle", "play_quality_pct")},
             **{f: f for f in ("opener", "closer", "fills", "credits", "drop", "estimated_drop", "stat_win",
                               "drop_hold_pct", "cash_difference", "cash_errors", "cash_jackpots",
                               "cash_unexplained", "drop_gap", "why")},
             "cash_text": "stat_win"}


@dataclass
class ReportData:
    title: str
    subtitle: str
    levels: dict[str, list[dict]]  # level -> rows (dicts keyed by LINE_COLUMNS fields)
    wagers: list[dict]
    dealers: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: A provisional report's mark, first in every file ("" for a final report).
    banner: str = ""
    #: Where each wager type's house edge comes from (edge_sources): the engine or the house.
    edges: list[dict] = field(default_factory=list)
    #: Which edges were assumed because the exact ones were still being computed ("" if none).
    edges_pending: str = ""
    #: Rounds still queued for the decisions' pricing when the report was built ("" if none).
    decisions_pending: str = ""

    @property
    def notices(self) -> list[str]:
        """What the reader must know before the figures (each shown first, "" ones left out)."""
        return [n for n in (self.edges_pending, self.decisions_pending) if n]

    @property
    def all_notes(self) -> list[str]:
        """The notes with each edge's basis first, for the files that have no table of them (the
        notices before them: the CSV's and XLSX's columns stay where they are)."""
        return self.notices + [edge_note(e) for e in self.edges] + self.notes

    @property
    def outliers(self) -> list[dict]:
        return [r for r in self.levels.get("table", []) if r.get("outlier")]


def _findings_text(findings: dict) -> str:
    return "; ".join(
        f"{k.replace('_', ' ')}: {v['count']} (${v['amount']})" for k, v in sorted(findings.items())
    )


def _line_dict(line) -> dict:
    row = {f: getattr(line, f, None) for f, _, _ in LINE_COLUMNS if f not in ("findings_text", "cash_text", "why")}
    row["findings_text"] = _findings_text(line.findings or {})
    row["cash_text"] = line.cash_text
    why = line.explanation
    row["why"] = why.text
    row["why_split"] = {"edge": why.edge, "luck": why.luck, "errors": why.errors}  # the PDF's columns
    row["game"] = GAMES[line.game].name if line.game in GAMES else line.game
    return row


def _wager_dict(w) -> dict:
    row = {f: getattr(w, f, None) for f, _, _ in WAGER_COLUMNS if f != "house_edge_pct"}
    row["house_edge_pct"] = (
        None if w.house_edge is None else (100 * w.house_edge).quantize(Decimal("0.0001"))
    )
    return row


EXACT_SOURCE = "the engine's game math: every combination of cards counted, for the table's ruleset"


def edge_sources(summary: dict, wagers: list[dict]) -> list[dict]:
    """Each (game, wager type)'s edge: its basis in words and its source, from the report's
    summary (``game/wager`` -> ``basis: note``, as the run recorded it) and the floor's edge %."""
    edge_pct = {(w.get("game"), w.get("wager")): w.get("house_edge_pct") for w in wagers if w.get("level") == "floor"}
    out = []
    for key, text in sorted((summary or {}).get("bases", {}).items()):
        game, _, wager = key.partition("/")
        basis, note = next(((b, text[len(b):].lstrip(": ")) for b in sorted(BASIS_WORDS, key=len, reverse=True)
                            if text == b or text.startswith(f"{b}:")), ("", text))
        if basis == EXACT:  # the stored method names a module: said here as people say it
            note = EXACT_SOURCE
        out.append({
            "game": GAMES[game].name if game in GAMES else game, "wager": wager_label(wager),
            "basis": basis_words(basis) or "not recorded", "source": note,
            "edge_pct": edge_pct.get((game, wager)),
        })
    return out


def edge_note(edge: dict) -> str:
    source = f": {edge['source']}" if edge["source"] else ""
    return f"House edge of {edge['game']}, {edge['wager']}: the {edge['basis']}{source}"


def provisional_banner(report: DailyReport) -> str:
    """How a provisional report is marked, on the page and in its files ("" when final)."""
    if not report.provisional:
        return ""
    as_of = local_time_text(report.as_of, report.casino, 'time') if report.as_of else "(not read yet)"
    return (
        f"Provisional — today so far, as of {as_of}. Not the final report: the day has not "
        "ended; the final report replaces this one at the close"
    )


def edges_pending_notice(report: DailyReport) -> str:
    """Said of a report whose run met ruleset versions not priced yet ("" otherwise): which
    wager types' theoretical win used the house's assumed edge, and that a re-run reads the
    exact one once stored. The cash side is not touched by it."""
    pending = [e for e in edge_sources(report.summary or {}, []) if e["source"].startswith(PENDING)]
    if not pending:
        return ""
    names = ", ".join(f"{e['game']} {e['wager']}" for e in pending)
    return (f"Theoretical win of {names} used the house's assumed edge: the engine's exact figure "
            "was still being computed when this report ran (it is stored within minutes of a new "
            "ruleset version). Run the report again to use it; the cash figures do not change")


def _rounds(n: int) -> str:
    return f"{n:,} round" if n == 1 else f"{n:,} rounds"


def decisions_pending_notice(report: DailyReport) -> str:
    """Said of a report built before every one of its rounds' decisions was priced ("" otherwise):
    how many rounds were still queued, and that a re-run (a provisional report's next refresh)
    counts them. A report built before decisions were priced at all says that."""
    summary = report.summary or {}
    decisions = summary.get("decisions")
    if decisions is None and "reaudit" in summary:  # built (every build says its re-audit), without them
        return ("Built before the players' decisions were priced: the decisions' cost is not counted "
                "(decision theo = theo). Run the report again to count it")
    pending = (decisions or {}).get("pending", 0)
    if not pending:
        return ""
    again = "the next refresh counts them" if report.provisional else "run the report again to count them"
    were = "was" if pending == 1 else "were"
    return (f"{_rounds(pending)} of the day {were} still queued for pricing when this report was built: "
            f"their decisions' cost is not in it (the pricing takes seconds); {again}")


def decisions_note(report: DailyReport) -> str:
    """The standing note on the decisions: what decision theo is and how many seats were priced."""
    decisions = (report.summary or {}).get("decisions")
    if decisions is None:
        return ""
    seats = decisions.get("seats", 0)
    return (f"Decision theo = theo win + the decisions' cost: the decisions of {seats:,} "
            f"seat{'' if seats == 1 else 's'} priced (the three blackjack games; Hold'em Blackjack and Poker or Bust have none, so "
            "their decision theo is their theo); "
            f"{_rounds(decisions.get('pending', 0))} still queued for pricing when the report was built. "
            "Play quality = decisions' cost / priced handle (lower is better play).")


def provisional_status(report: DailyReport) -> str:
    """A finished provisional report's status: "Provisional — as of 14:05 EDT", not "done"
    (its figures stop at that time; the casino's zone). "" for any other report or state."""
    if not report.provisional or report.status != DailyReport.DONE or report.as_of is None:
        return ""
    return f"Provisional — as of {local_time_text(report.as_of, report.casino, 'time')}"


def report_data(report: DailyReport) -> ReportData:
    levels = {level: [] for level, _ in LEVEL_TITLES}
    for line in ReportLine.objects.filter(report=report).order_by("label"):
        levels[line.level].append(_line_dict(line))
    wagers = [
        _wager_dict(w)
        for w in ReportWagerLine.objects.filter(report=report).order_by(
            "level", "label", "game", "wager"
        )
    ]
    dealers = []
    for d in DealerLine.objects.filter(report=report):
        dealers.append(
            {
                "label": d.label,
                "rounds": d.rounds,
                "error_rounds": d.error_rounds,
                "findings": d.findings,
                "amount": d.amount,
                "rate_pct": (100 * d.rate).quantize(Decimal("0.0001")),
                "z_score": d.z_score,
                "flagged": d.flagged,
            }
        )
    summary = report.summary or {}
    notes = []
    liability = summary.get("liability", {})
    if liability.get("reason"):
        notes.append(liability["reason"])
    reaudit = summary.get("reaudit", {})
    if reaudit:
        notes.append(
            f"Re-audit by engine {reaudit.get('engine_version')}: {reaudit.get('replayed', 0)} rounds "
            f"replayed, {reaudit.get('new_findings', 0)} new findings added, "
            f"{reaudit.get('settlement_changed_count', 0)} rounds now settle differently "
            "(the books keep the recorded revision until it is corrected)."
        )
    if decisions_note(report):
        notes.append(decisions_note(report))
    if summary.get("chain_problem"):
        notes.append(summary["chain_problem"])
    if report.chain_head:
        notes.append(
            f"Chain head at the end of the day: {report.chain_head} ({summary.get('chains', 0)} chains); "
            "keep it: verifying the audit chain against it later proves that nothing before it changed."
        )
    start = local_time_text(report.period_start, report.casino)
    end = local_time_text(report.period_end, report.casino)
    banner = provisional_banner(report)
    return ReportData(
        banner=banner,
        title=f"{banner + ' · ' if banner else ''}{report.casino.name}: reconciliation of gaming day {report.gaming_day}",
        subtitle=f"{start} to {end} ({report.casino.time_zone}, day starts {report.casino.gaming_day_start_hour}:00)",
        levels=levels,
        wagers=wagers,
        dealers=dealers,
        notes=notes,
        edges=edge_sources(summary, wagers),
        edges_pending=edges_pending_notice(report),
        decisions_pending=decisions_pending_notice(report),
    )


_SUMMED = (
    "rounds",
    "voided_rounds",
    "seats_played",
    "handle",
    "paid",
    "win",
    "expected_win",
    "theo_win",
    "decision_cost",
    "decision_theo",
    "decision_handle",
    "error_cost",
    "overpaid",
    "underpaid",
    "taxes",
    "jackpots",
)
#: The money among them: summed to the cent (casino/money.py; SQLite's SUM is a float's).
_MONEY_SUMMED = frozenset(_SUMMED) - {"rounds", "voided_rounds", "seats_played"}


def period_data(casino, first: date, last: date, title: str) -> ReportData:
    """Month- or year-to-date: the finished daily reports of ``[first, last]`` added up in SQL."""
    reports = DailyReport.objects.filter(
        casino=casino, gaming_day__gte=first, gaming_day__lte=last, status=DailyReport.DONE,
        provisional=False,
    )
    days = list(reports.order_by("gaming_day").values_list("gaming_day", flat=True))
    levels = {level: [] for level, _ in LEVEL_TITLES}
    rows = (
        ReportLine.objects.filter(report__in=reports)
        .values("level", "key")
        .annotate(label_=Max("label"), **{f"{f}_": money_sum(f) if f in _MONEY_SUMMED else Sum(f) for f in _SUMMED})
        .order_by("level", "label_")
    )
    for r in rows:
        row = {f: r[f"{f}_"] for f in _SUMMED}
        row["label"] = r["label_"]
        row["handle_hold_pct"] = (
            (100 * row["win"] / row["handle"]).quantize(Decimal("0.0001"))
            if row["handle"]
            else None
        )
        row["play_quality_pct"] = play_quality(row["decision_cost"], row["decision_handle"])
        levels[r["level"]].append(row)
    wrows = (
        ReportWagerLine.objects.filter(report__in=reports)
        .values("level", "key", "game", "wager")
        .annotate(
            label=Max("label"),
            basis=Max("basis"),
            count=Sum("count"),
            handle=money_sum("handle"),
            paid=money_sum("paid"),
            win=money_sum("win"),
            theo_win=money_sum("theo_win"),
            error_cost=money_sum("error_cost"),
        )
        .order_by("level", "label", "game", "wager")
    )
    wagers = []
    for w in wrows:
        w["handle_hold_pct"] = (
            (100 * w["win"] / w["handle"]).quantize(Decimal("0.0001")) if w["handle"] else None
        )
        w["house_edge_pct"] = (
            (100 * w["theo_win"] / w["handle"]).quantize(Decimal("0.0001")) if w["handle"] else None
        )
        wagers.append(w)
    missing = (last - first).days + 1 - len(days)
    notes = [
        f"{len(days)} finished daily reports from {first} to {last}"
        + (f"; {missing} days have no finished report and are not included" if missing else "")
    ]
    return ReportData(
        title=f"{casino.name}: {title}",
        subtitle=f"Gaming days {first} to {last}",
        levels=levels,
        wagers=wagers,
        notes=notes,
    )


# --- formats ------------------------------------------------------------------------------


def _text(value, kind: str) -> str:
    if value is None:
        return ""
    if kind == "bool":
        return "yes" if value else ""
    if kind in ("money", "pct") and isinstance(value, Decimal):
        return str(value.quantize(Decimal("0.01")))  # percentages too: hold % to 2 decimals
    return str(value)


def csv_bytes(data: ReportData) -> bytes:
    """One CSV: a "section" column (floor, pit, game, table, wager, dealer) then that section's columns."""
    out = io.StringIO()
    writer = csv.writer(out)
    if data.banner:
        writer.writerow(["provisional", data.banner])
        writer.writerow([])
    writer.writerow(["section", *(h for _, h, _ in LINE_COLUMNS)])
    for level, _ in LEVEL_TITLES:
        for row in data.levels[level]:
            writer.writerow([level, *(_text(row.get(f), k) for f, _, k in LINE_COLUMNS)])
    writer.writerow([])
    writer.writerow(["section", *(h for _, h, _ in WAGER_COLUMNS)])
    for row in data.wagers:
        writer.writerow(["wager", *(_text(row.get(f), k) for f, _, k in WAGER_COLUMNS)])
    if data.dealers:
        writer.writerow([])
        writer.writerow(["section", *(h for _, h, _ in DEALER_COLUMNS)])
        for row in data.dealers:
            writer.writerow(["dealer", *(_text(row.get(f), k) for f, _, k in DEALER_COLUMNS)])
    if data.all_notes:
        writer.writerow([])
        for note in data.all_notes:
            writer.writerow(["note", note])
    writer.writerow([])
    writer.writerow(["section", "Column", "What it counts"])
    for header, text in legend():
        writer.writerow(["legend", header, text])
    return out.getvalue().encode("utf-8-sig")  # the BOM makes Excel read UTF-8


def xlsx_bytes(data: ReportData) -> bytes:
    """One sheet per level plus Wagers, Dealers and Notes; money as currency, frozen headers."""
    from openpyxl import Workbook
    from openpyxl.comments import Comment
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    book = Workbook()
    book.remove(book.active)
    bold, fill = Font(bold=True), PatternFill("solid", fgColor="DDDDDD")
    if data.banner:  # the first sheet a reader sees
        book.create_sheet("Provisional").append([data.banner])

    def sheet(title: str, columns, rows) -> None:
        ws = book.create_sheet(title)
        ws.append([h for _, h, _ in columns])
        for cell, (f, _, _) in zip(ws[1], columns, strict=True):
            cell.font, cell.fill = bold, fill
            if f in EXPLAINED:  # the header's note in Excel: what the column counts
                cell.comment = Comment(LEGEND[EXPLAINED[f]][1], "Casino table games", width=320, height=110)
        for row in rows:
            values = []
            for f, _, kind in columns:
                v = row.get(f)
                if kind == "bool":
                    v = "yes" if v else ""
                elif isinstance(v, Decimal):
                    v = float(v) if kind in ("pct", "edge") else v
                values.append(v)
            ws.append(values)
        for i, (_, header, kind) in enumerate(columns, start=1):
            letter = get_column_letter(i)
            ws.column_dimensions[letter].width = max(12, min(40, len(header) + 2))
            fmt = {"money": CURRENCY_FORMAT, "pct": "0.00", "edge": "0.000"}.get(kind)
            if fmt:
                for (cell,) in ws.iter_rows(min_row=2, min_col=i, max_col=i):
                    cell.number_format = fmt
        ws.freeze_panes = "B2"

    for level, title in LEVEL_TITLES:
        sheet(title, LINE_COLUMNS, data.levels[level])
    sheet("Wagers", WAGER_COLUMNS, data.wagers)
    if data.dealers:
        sheet("Dealers", DEALER_COLUMNS, data.dealers)
    explained = book.create_sheet("Legend")
    explained.append(["Column", "What it counts"])
    for cell in explained[1]:
        cell.font, cell.fill = bold, fill
    for header, text in legend():
        explained.append([header, text])
    explained.column_dimensions["A"].width = 24
    explained.column_dimensions["B"].width = 110
    for (cell,) in explained.iter_rows(min_row=2, min_col=2, max_col=2):
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    notes = book.create_sheet("Notes")
    for text in (data.title, data.subtitle, *data.all_notes):
        notes.append([text])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


FORMATS = {
    "csv": (csv_bytes, "text/csv; charset=utf-8"),
    "xlsx": (xlsx_bytes, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    "pdf": (pdf_bytes, "application/pdf"),
}


def reports_root() -> Path:
    return Path(settings.REPORTS_ROOT)


def _write(path: Path, content: bytes) -> None:
    """Write next to the target, then rename: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)
    os.replace(tmp, path)


#: A provisional report is never signed: no PDF (the signable format), only the working files.
PROVISIONAL_FORMATS = ("csv", "xlsx")


def report_formats(report: DailyReport) -> tuple[str, ...]:
    return PROVISIONAL_FORMATS if report.provisional else tuple(FORMATS)


def report_files_write(report: DailyReport) -> dict[str, str]:
    """Write the day's CSV, XLSX and PDF (provisional: CSV and XLSX, under their own name);
    return ``{format: path relative to REPORTS_ROOT}``."""
    data = report_data(report)
    files = {}
    stem = f"reconciliation-{report.casino_id}-{report.gaming_day}"
    folder = Path(f"casino-{report.casino_id}") / str(report.gaming_day.year)
    if report.provisional:
        stem, folder = f"provisional-{stem}", folder / "provisional"
    for fmt in report_formats(report):
        render = FORMATS[fmt][0]
        rel = folder / f"{stem}.{fmt}"
        _write(reports_root() / rel, render(data))
        files[fmt] = str(rel)
    return files


def period_file_write(casino, kind: str, day: date, fmt: str) -> tuple[Path, str]:
    """Month- or year-to-date file through ``day``; returns its path and download name."""
    first = day.replace(day=1) if kind == "mtd" else day.replace(month=1, day=1)
    title = "month to date" if kind == "mtd" else "year to date"
    data = period_data(casino, first, day, title)
    name = f"{kind}-{casino.pk}-{day}.{fmt}"
    path = reports_root() / f"casino-{casino.pk}" / "periods" / name
    _write(path, FORMATS[fmt][0](data))
    return path, name
