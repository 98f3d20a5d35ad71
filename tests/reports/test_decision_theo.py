"""The players' decisions in the daily report: per table, game, pit and the floor, the decisions'
cost and decision theo (theo win + the cost) beside theo, with the priced handle and play quality;
on the page, the API, the CSV, the XLSX and the PDF; and a report built before the pricing reached
every round says how many were still queued, until it is run again.

The day: at a six-deck H17 Blackjack Tie table whose 21 bet the house prices at 0.5%, P-1 stands on
12 against a ten for $100 (the best play hits: $16.47), a seat without a player stands on 16 against
a ten for $10, and P-1 stands on 20 for $50 (free); a Poker or Bust table deals one round (nothing
to price: its decision theo is its theo). Another casino's table makes the same $100 mistake on the
same day: none of it is this report's. The expected figures are the stored rows' sums.
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from audit.decisions.models import SeatDecisions
from audit.decisions.pricing import price_all_pending
from audit.decisions.selectors import table_games
from audit.reports.exporters import csv_bytes, pdf_bytes, report_data, xlsx_bytes
from audit.reports.models import DailyReport, ReportChunk, ReportLine, TheoreticalAssumption
from audit.reports.services import runs
from audit.reports.services.build import combine_partials
from audit.reports.services.runs import report_request
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.advantage.helpers import table_with_decks
from tests.conftest import api_as
from tests.factories import CasinoFactory, DealerFactory, PitFactory, TableFactory, user_with_role
from tests.ratings.helpers import pob_round

pytestmark = pytest.mark.django_db(transaction=True)
GAMING_DAY = date(2026, 3, 10)
START = datetime(2026, 3, 10, 8, 0, tzinfo=ZoneInfo("America/New_York"))
EDGE = Decimal("0.005")
CENT = Decimal("0.01")


def _cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def _seat(number: int, player: str | None, bet: str, cards: list[str]) -> dict:
    seat = {"seat": number, "wagers": {"21": bet}, "hands": [{"cards": cards, "actions": ["stand"]}]}
    if player:
        seat["player"] = player
    return seat


def _tie_table(casino=None):
    extra = {"pit": PitFactory(casino=casino)} if casino else {}
    table, dealer = table_with_decks(6, game="blackjack_tie", **extra)
    boss = user_with_role("pit_boss", username=f"boss-{table.pk}", casinos=[table.pit.casino])
    table_session_open(table=table, dealer=dealer, author=boss, at=START)
    return table, boss


def _deal(table, boss, minute: int, seats: list[dict]) -> None:
    round_record(table=table, data={"dealer": {"cards": ["TH", "7C"]}, "seats": seats}, author=boss,
                 at=START + timedelta(minutes=minute))


def _run(casino) -> DailyReport:
    report = report_request(casino=casino, gaming_day=GAMING_DAY, via="command")
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    return report


@pytest.fixture
def floor(settings, tmp_path):
    settings.REPORTS_ROOT = tmp_path / "reports"
    TheoreticalAssumption.objects.update_or_create(
        game="blackjack_tie", wager="21", defaults={"house_edge": EDGE, "variance": Decimal("1.3"), "note": "test"})
    table, boss = _tie_table()
    _deal(table, boss, 60, [_seat(1, "P-1", "100.00", ["TS", "2D"]), _seat(2, None, "10.00", ["TS", "6D"])])
    _deal(table, boss, 62, [_seat(1, "P-1", "50.00", ["TS", "QD"])])
    pob = TableFactory(game="poker_or_bust", pit=table.pit)
    table_session_open(table=pob, dealer=DealerFactory(casino=table.pit.casino), author=boss, at=START)
    round_record(table=pob, data=pob_round("P-9", "10.00"), author=boss, at=START + timedelta(minutes=61))
    other_table, other_boss = _tie_table(CasinoFactory(name="Other Casino"))
    _deal(other_table, other_boss, 60, [_seat(1, "P-1", "100.00", ["TS", "2D"])])
    return {"casino": table.pit.casino, "table": table, "pob": pob, "other": other_table.pit.casino}


def _line(report, level: str, key) -> ReportLine:
    return ReportLine.objects.get(report=report, level=level, key=str(key))


def test_a_report_built_before_the_pricing_says_so_until_it_runs_again(floor):
    report = _run(floor["casino"])
    # This casino's two Blackjack Tie rounds were queued (its Poker or Bust round has nothing to
    # price: no whole-game solve is stored); the other casino's is not this report's.
    assert report.summary["decisions"] == {"pending": 2, "seats": 0}
    table = _line(report, "table", floor["table"].pk)
    assert (table.decision_cost, table.decision_theo, table.play_quality_pct) == (
        Decimal("0.00"), table.theo_win, None)
    notice = "2 rounds of the day were still queued for pricing when this report was built"
    finance = api_as(user_with_role("finance"))
    page = finance.get(reverse("reports-day", args=[report.pk])).content.decode()
    assert 'id="decisions-pending"' in page and notice in page
    body = finance.get(reverse("dailyreport-detail", args=[report.pk])).json()
    assert body["decisions_pending"] == 2 and body["decisions_notice"].startswith(notice)
    rows = list(csv.reader(io.StringIO(csv_bytes(report_data(report)).decode("utf-8-sig"))))
    assert any(r[:1] == ["note"] and r[1].startswith(notice) for r in rows) and rows[0][0] == "section"
    first_page = PdfReader(io.BytesIO(pdf_bytes(report_data(report)))).pages[0].extract_text()
    assert notice in " ".join(first_page.split())

    price_all_pending()
    report = _run(floor["casino"])
    assert report.summary["decisions"] == {"pending": 0, "seats": 3}
    assert report_data(report).decisions_pending == ""
    page = api_as(user_with_role("finance", username="finance-2")).get(
        reverse("reports-day", args=[report.pk])).content.decode()
    assert 'id="decisions-pending"' not in page


def test_decision_cost_and_decision_theo_per_table_game_and_floor(floor):
    price_all_pending()
    report = _run(floor["casino"])
    rows = SeatDecisions.objects.filter(casino=floor["casino"])
    cost = sum((r.cost for r in rows), Decimal(0))
    handle = sum((r.handle for r in rows), Decimal(0))
    assert handle == Decimal("160.00") and rows.count() == 3
    mistake = rows.get(player="P-1", handle=Decimal("100.00"))
    assert _cents(mistake.cost) == Decimal("16.47")  # standing on 12 against a ten, six decks H17
    table = _line(report, "table", floor["table"].pk)
    assert table.theo_win == _cents(Decimal("160.00") * EDGE) == Decimal("0.80")
    assert (table.decision_cost, table.decision_handle) == (_cents(cost), Decimal("160.00"))
    assert table.decision_theo == Decimal("0.80") + _cents(cost)
    assert table.play_quality_pct == _cents(100 * cost / handle)
    assert table.play_quality_text == f"{_cents(100 * cost / handle)}% of the priced handle"
    game = _line(report, "game", "blackjack_tie")
    assert (game.decision_cost, game.decision_theo) == (table.decision_cost, table.decision_theo)
    pob = _line(report, "table", floor["pob"].pk)
    assert (pob.decision_cost, pob.decision_handle, pob.play_quality_pct) == (Decimal("0.00"), Decimal("0.00"), None)
    assert pob.decision_theo == pob.theo_win != Decimal("0.00") and pob.play_quality_text == "—"
    # The floor: this casino's decisions only (the other casino's $16.47 is not in it).
    floor_line = _line(report, "floor", "floor")
    assert floor_line.decision_cost == _cents(cost)
    assert floor_line.decision_theo == floor_line.theo_win + _cents(cost)

    finance = api_as(user_with_role("finance"))
    lines = {(ln["level"], ln["key"]): ln for ln in
             finance.get(reverse("dailyreport-detail", args=[report.pk])).json()["lines"]}
    api_table = lines[("table", str(floor["table"].pk))]
    assert (api_table["decision_cost"], api_table["decision_theo"], api_table["decision_handle"],
            api_table["play_quality_pct"], api_table["play_quality_text"]) == (
        str(table.decision_cost), str(table.decision_theo), "160.00", str(table.play_quality_pct),
        table.play_quality_text)
    page = finance.get(reverse("reports-day", args=[report.pk])).content.decode()
    section = page[page.index('id="decisions"'):]
    section = section[:section.index("</section>")]
    row = section[section.index(f'data-decisions="table:{floor["table"].pk}"'):]
    row = row[:row.index("</tr>")]
    assert f">{table.decision_cost}<" in row and f">{table.decision_theo}<" in row
    assert f"{table.play_quality_pct}% of the priced handle" in row
    # A reader of another casino sees nothing of this report.
    other = api_as(user_with_role("finance", username="other-finance", casinos=[floor["other"]]))
    assert other.get(reverse("dailyreport-detail", args=[report.pk])).status_code == 404
    assert other.get(reverse("reports-day", args=[report.pk])).status_code == 404


def test_the_files_carry_the_columns_the_legend_and_the_note(floor):
    price_all_pending()
    report = _run(floor["casino"])
    table = _line(report, "table", floor["table"].pk)
    data = report_data(report)
    rows = list(csv.reader(io.StringIO(csv_bytes(data).decode("utf-8-sig"))))
    header = rows[0]
    table_row = next(r for r in rows if r[:1] == ["table"] and r[1] == table.label)
    got = {h: table_row[header.index(h)] for h in ("Theoretical win", "Decisions' cost", "Decision theo",
                                                   "Priced handle", "Play quality (% of priced handle)")}
    assert got == {"Theoretical win": str(table.theo_win), "Decisions' cost": str(table.decision_cost),
                   "Decision theo": str(table.decision_theo), "Priced handle": "160.00",
                   "Play quality (% of priced handle)": str(table.play_quality_pct)}
    legend = {r[1]: r[2] for r in rows if r[:1] == ["legend"]}
    assert "Theo + the decisions' cost" in legend["Decision theo"]
    assert "Hold'em Blackjack tables have no priced decisions" in legend["Decision theo"]
    notes = [r[1] for r in rows if r[:1] == ["note"]]
    assert any(n.startswith("Decision theo = theo win + the decisions' cost: the decisions of 3 seats priced") and
               "0 rounds still queued" in n for n in notes), notes

    book = load_workbook(io.BytesIO(xlsx_bytes(data)))
    sheet = book["Tables"]
    headers = [c.value for c in sheet[1]]
    values = {sheet.cell(r, 1).value: r for r in range(2, sheet.max_row + 1)}
    r = values[table.label]
    assert Decimal(str(sheet.cell(r, headers.index("Decision theo") + 1).value)) == table.decision_theo
    assert Decimal(str(sheet.cell(r, headers.index("Decisions' cost") + 1).value)) == table.decision_cost
    assert "Theo + the decisions' cost" in sheet.cell(1, headers.index("Decision theo") + 1).comment.text

    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf_bytes(data))).pages).split())
    assert "Players' decisions: decision theo = theo win + the decisions' cost" in text
    assert f"{table.decision_cost:,.2f} {table.decision_theo:,.2f} 160.00 {table.play_quality_pct}% of the priced handle" \
        in text
    assert "Decision theo Theo + the decisions' cost" in text  # the legend's row


def test_the_combine_adds_the_slices_figures_and_reads_the_day_when_a_slice_had_rounds_queued(
        floor, settings, monkeypatch):
    settings.REPORTS_CHUNK_ROUNDS = 1  # a slice per round: the sums cross slices
    day_reads = []
    real_table_games = runs.table_games
    monkeypatch.setattr(runs, "table_games", lambda *a, **kw: day_reads.append(a) or real_table_games(*a, **kw))
    # Rounds still queued: every slice says so, and the combine reads the day's rows.
    report = _run(floor["casino"])
    # In id order: the two Blackjack Tie rounds, then the Poker or Bust round (nothing to price: no
    # whole-game solve is stored).
    assert [c.partial["decisions"]["pending"] for c in _chunks(report)] == [1, 1, 0]
    assert len(day_reads) == 1 and report.summary["decisions"] == {"pending": 2, "seats": 0}
    # Priced: each slice summed its own rounds' rows, and the combine added them without a read of
    # the day; added up they are the day's rows, and the report's lines.
    price_all_pending()
    report = _run(floor["casino"])
    chunks = _chunks(report)
    assert len(chunks) == 3 and all(c.partial["decisions"]["pending"] == 0 for c in chunks)
    assert len(day_reads) == 1, "the combine read the day's rows although every slice was priced"
    day = table_games(floor["casino"].pk, GAMING_DAY)
    assert combine_partials([c.partial for c in chunks])["decisions"] == day
    assert sum(f.seats for f in day.values()) == report.summary["decisions"]["seats"] == 3
    table = _line(report, "table", floor["table"].pk)
    assert table.decision_cost == _cents(day[(floor["table"].pk, "blackjack_tie")].cost)
    # A slice without the figures (a run from before they were kept) also sends it to the day's rows.
    old = {k: v for k, v in chunks[0].partial.items() if k != "decisions"}
    assert combine_partials([old, *(c.partial for c in chunks[1:])])["decisions"] is None


def _chunks(report) -> list[ReportChunk]:
    return list(ReportChunk.objects.filter(report=report, run_id=report.run_id).order_by("index"))
