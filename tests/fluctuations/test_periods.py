"""Hold by period worked on paper: two tables of one pit (two games) over days in February and
March 2026 and in the prior year; the day, month- and year-to-date beside the prior year's."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal as D

import pytest
from django.db import transaction
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.fluctuations.periods import holds_over, prior_year, standard_ranges
from audit.reports.models import ReportLine
from tests.examples import examples
from tests.factories import TableFactory, user_with_role
from tests.fluctuations.helpers import day, fake_cash, report_line

pytestmark = pytest.mark.django_db
DAY = date(2026, 3, 10)


@pytest.fixture
def two_tables(monkeypatch):
    a = TableFactory(label="A", game="ante_up_21")
    b = TableFactory(label="B", pit=a.pit, game="blackjack_tie")
    data = {
        (a.pk, date(2026, 2, 20)): day(10000, 9000, 2000),                   # win 1,000
        (a.pk, date(2026, 3, 9)): day(10000, 9500, 2500, fills=1000),       # -500 + 2,500 - 1,000 = 1,000
        (a.pk, date(2026, 3, 10)): day(10000, 10300, 1500, credits=200),    # 300 + 1,500 + 200 = 2,000
        (a.pk, date(2026, 3, 11)): day(10000, 10000, 5000),                 # after the day: left out
        (b.pk, date(2026, 3, 9)): day(5000, 5100, None, estimated=400),     # no count signed: incomplete
        (b.pk, date(2026, 3, 10)): day(5000, 4200, 1000),                   # win 200
        (a.pk, date(2025, 3, 3)): day(10000, 10000, 1200, fills=600),       # win 600
        (a.pk, date(2025, 3, 10)): day(10000, 9800, 1000),                  # win 800
        (a.pk, date(2025, 4, 1)): day(10000, 10000, 999),                   # after the prior-year day
        (b.pk, date(2025, 1, 15)): day(5000, 4500, 2000),                   # win 1,500
        (b.pk, date(2024, 12, 31)): day(5000, 5000, 700),                   # before the prior year
    }
    calls = fake_cash(monkeypatch, data)
    return a, b, calls


def _by_level(units):
    return {(u.level, u.label): u.periods for u in units}


def _figures(period):
    return (period.stat_win, period.drop, period.drop_hold_pct)


def test_the_periods_worked_on_paper(two_tables):
    a, b, calls = two_tables
    units = _by_level(holds_over(None, standard_ranges(DAY)))
    assert len(calls) == 1  # one read of the money for every period (a few queries whatever the span)
    ta, tb = units[("table", f"{a.pit.name} / A")], units[("table", f"{a.pit.name} / B")]
    # Table A: the day 2,000 / 1,500; March 1-10: 3,000 / 4,000; the year: 4,000 / 6,000.
    assert _figures(ta["day"]) == (D("2000"), D("1500"), D("133.3333"))
    assert _figures(ta["mtd"]) == (D("3000"), D("4000"), D("75.0000"))
    assert _figures(ta["ytd"]) == (D("4000"), D("6000"), D("66.6667"))
    # Prior year, to 10 March 2025: the day 800 / 1,000; March 1-10 and the year 1,400 / 2,200.
    assert _figures(ta["day_py"]) == (D("800"), D("1000"), D("80.0000"))
    assert _figures(ta["mtd_py"]) == (D("1400"), D("2200"), D("63.6364"))
    assert _figures(ta["ytd_py"]) == (D("1400"), D("2200"), D("63.6364"))
    # Table B: one complete day (200 / 1,000), the uncounted 9 March kept apart, not as zero.
    assert _figures(tb["day"]) == (D("200"), D("1000"), D("20.0000"))
    assert _figures(tb["mtd"]) == (D("200"), D("1000"), D("20.0000")) and tb["mtd"].cash.incomplete == 1
    assert tb["mtd"].cash.estimated_drop == D("400")
    assert _figures(tb["day_py"]) == (None, None, None)
    assert _figures(tb["ytd_py"]) == (D("1500"), D("2000"), D("75.0000"))
    # The pit (and the floor) add both: day 2,200 / 2,500; MTD 3,200 / 5,000; YTD 4,200 / 7,000;
    # prior year's YTD 2,900 / 4,200.
    pit = units[("pit", a.pit.name)]
    assert _figures(pit["day"]) == (D("2200"), D("2500"), D("88.0000"))
    assert _figures(pit["mtd"]) == (D("3200"), D("5000"), D("64.0000"))
    assert _figures(pit["ytd"]) == (D("4200"), D("7000"), D("60.0000"))
    assert _figures(pit["ytd_py"]) == (D("2900"), D("4200"), D("69.0476"))
    assert _figures(units[("floor", a.pit.casino.name)]["ytd"]) == (D("4200"), D("7000"), D("60.0000"))
    # Each game is its one table here.
    assert _figures(units[("game", "Blackjack Tie")]["ytd"]) == (D("200"), D("1000"), D("20.0000"))
    assert _figures(units[("game", "Ante Up 21")]["mtd"]) == (D("3000"), D("4000"), D("75.0000"))


def test_the_recorded_play_comes_from_final_reports_table_lines(two_tables):
    a, b, _ = two_tables
    casino = a.pit.casino
    report_line(casino, a, date(2026, 3, 9), win="900", expected="950", theo="300", sd="30")
    report_line(casino, a, date(2026, 3, 10), win="1000", expected="1000", theo="400", sd="40")
    report_line(casino, a, date(2026, 3, 10), win="99999", expected="0", theo="0", sd="999", provisional=True)
    report_line(casino, a, date(2026, 3, 10), win="77777", expected="0", theo="0", sd="999", level="pit")
    units = _by_level(holds_over(None, standard_ranges(DAY)))
    play = units[("table", f"{a.pit.name} / A")]["mtd"].play
    # 900 + 1,000; 950 + 1,000; 300 + 400; sd = sqrt(30^2 + 40^2) = 50.
    assert (play.win, play.expected_win, play.theo_win, play.theo_sd, play.days) == (
        D("1900"), D("1950"), D("700"), D("50.00"), 2)
    assert units[("pit", a.pit.name)]["day"].play.theo_win == D("400")


def test_another_casino_is_not_read(two_tables):
    from tests.factories import CasinoFactory, PitFactory

    a, _, _ = two_tables
    other = TableFactory(pit=PitFactory(casino=CasinoFactory(name="Other")))
    assert {u.casino_id for u in holds_over([other.pit.casino_id], standard_ranges(DAY))} == {other.pit.casino_id}


def test_prior_year_of_a_leap_day():
    assert prior_year(date(2028, 2, 29)) == date(2027, 2, 28)


def test_the_api_and_the_csv_carry_the_same_figures(two_tables):
    from tests.conftest import api_as

    a, _, _ = two_tables
    finance = user_with_role("finance")
    rows = api_as(finance).get("/api/v1/period-holds/?gaming_day=2026-03-10").json()
    table_a = next(r for r in rows if r["level"] == "table" and r["label"].endswith("/ A"))
    assert (table_a["mtd"]["stat_win"], table_a["mtd"]["drop"], table_a["mtd"]["drop_hold_pct"]) == (
        "3000.00", "4000.00", "75.0000")
    assert table_a["ytd_py"]["drop_hold_pct"] == "63.6364"
    csv = api_as(finance).get("/holds.csv?day=2026-03-10").content.decode("utf-8-sig")
    assert "75.0000" in csv and "63.6364" in csv
    page = api_as(finance).get("/holds/?day=2026-03-10")
    assert page.status_code == 200 and "133.3333" in page.content.decode()
    assert api_as(user_with_role("pit_boss")).get("/holds/").status_code == 403
    assert api_as(finance).get("/holds/?day=10-03-2026").status_code == 400
    bad = api_as(finance).get("/api/v1/period-holds/?gaming_day=tomorrow")
    assert bad.status_code == 400 and "gaming_day" in bad.json()


def test_a_real_counted_day_through_selectors_win():
    """No stand-in: the accounting records of a table's day (tests/accounting's hand-worked day:
    win 2,600 on a drop of 3,000) reach the period figures."""
    from tests.accounting.test_statistical_win import GAMING_DAY, _played_day

    f = _played_day()
    units = _by_level(holds_over(None, standard_ranges(GAMING_DAY)))
    table = units[("table", f"{f.table.pit.name} / {f.table.label}")]
    assert _figures(table["day"]) == (D("2600"), D("3000"), D("86.6667"))
    assert _figures(table["ytd"]) == (D("2600"), D("3000"), D("86.6667"))
    assert _figures(table["ytd_py"]) == (None, None, None)


def test_a_unit_is_the_sum_of_its_tables_whatever_the_days(monkeypatch):
    """Property: over any table days, a pit's (and the floor's) win, drop and incomplete days are
    its tables' sums, and its hold % is that win over that drop (selectors_win.drop_hold_pct)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tables.accounting.selectors_win import drop_hold_pct

    a = TableFactory(label="A")
    b = TableFactory(label="B", pit=a.pit, game="blackjack_tie")
    money = st.integers(min_value=0, max_value=50_000)
    a_day = st.tuples(st.sampled_from([a.pk, b.pk]), st.dates(date(2025, 1, 1), date(2026, 3, 10)),
                      money, money, st.one_of(st.none(), money), money, money)

    @settings(max_examples=examples(120, 10), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(a_day, max_size=12, unique_by=lambda d: (d[0], d[1])))
    def check(days):
        fake_cash(monkeypatch, {(t, d): day(o, c, dr, fills=f, credits=cr) for t, d, o, c, dr, f, cr in days})
        units = _by_level(holds_over(None, standard_ranges(DAY)))
        tables = [units[("table", f"{a.pit.name} / {label}")] for label in ("A", "B")]
        for name in ("day", "mtd", "ytd", "day_py", "mtd_py", "ytd_py"):
            parts = [t[name] for t in tables if t[name].stat_win is not None]
            pit = units[("pit", a.pit.name)][name]
            assert pit.cash.incomplete == sum(t[name].cash.incomplete for t in tables)
            if not parts:
                assert pit.stat_win is None and pit.drop_hold_pct is None
                continue
            win, drop = sum(p.stat_win for p in parts), sum(p.drop for p in parts)
            assert (pit.stat_win, pit.drop, pit.drop_hold_pct) == (win, drop, drop_hold_pct(win, drop))
            assert _figures(units[("floor", a.pit.casino.name)][name]) == _figures(pit)

    check()


@settings(max_examples=examples(100, 10), deadline=None)
@given(lines=st.lists(st.tuples(st.integers(0, 1), st.integers(-800, 10), st.integers(-5000, 5000),
                                st.integers(0, 900)), max_size=14, unique_by=lambda line: line[:2]),
       asked=st.integers(-400, 10), check=st.booleans())
def test_each_range_sums_the_lines_of_its_days_whatever_the_bounds(lines, asked, check):
    """The report lines are summed per table and segment between the ranges' bounds, then the
    segments per range: the same as adding, for each range, every line of a day in it."""
    from audit.fluctuations.periods import _play_by_table
    from audit.fluctuations.services import check_ranges

    with transaction.atomic():
        sid = transaction.savepoint()
        a = TableFactory(label="A", game="ante_up_21")
        b = TableFactory(label="B", pit=a.pit, game="blackjack_tie")
        tables = {a.pk: a, b.pk: b}
        anchor = date(2026, 3, 10)
        for which, offset, win, sd in lines:
            report_line(a.pit.casino, (a, b)[which], anchor + timedelta(days=offset), win=str(win),
                        expected=str(win + 1), theo=str(win // 3), sd=f"{sd}.25")
        day = anchor + timedelta(days=asked)
        ranges = check_ranges(day) if check else standard_ranges(day)
        got = _play_by_table([a.pit.casino_id], ranges, tables)
        for name, (start, end) in ranges.items():
            for table in (a, b):
                rows = ReportLine.objects.filter(key=str(table.pk), report__gaming_day__range=(start, end))
                want = sum((D(r.win) for r in rows), D(0)), sum((r.theo_sd * r.theo_sd for r in rows), D(0))
                play = got.get((table.pk, name))
                have = (play.win, play.theo_var, play.days) if play else (D(0), D(0), 0)
                assert have == (*want, len(rows)), (name, table.label)
        transaction.savepoint_rollback(sid)
