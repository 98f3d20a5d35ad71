"""Each preset opens an investigation exactly when the hold crosses its bound: a hold just
inside (on the bound) opens none, one just outside opens one per unit; a rerun opens none twice."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError

from audit.fluctuations import bounds
from audit.fluctuations.models import FluctuationSettings, Investigation
from audit.fluctuations.services import check_day, check_ranges, settings_save
from tests.factories import TableFactory, user_with_role
from tests.fluctuations.helpers import day, fake_cash, report_line

pytestmark = pytest.mark.django_db
MARCH_31 = date(2026, 3, 31)
LEVELS = {"table", "pit", "game", "floor"}


@pytest.fixture
def table():
    return TableFactory(label="A")


def _settings(table, **values):
    manager = user_with_role("gaming_manager")
    return settings_save(casino=table.pit.casino, author=manager, reason="test bounds", **values)


def _opened(table, monkeypatch, data, on=MARCH_31):
    fake_cash(monkeypatch, {(table.pk, d): figures for d, figures in data.items()})
    return check_day(casino=table.pit.casino, day=on)


# --- Maryland: the prior year's hold +/- 1.96 x sd / drop --------------------------------------

def _maryland_month(table, monkeypatch, march_win: str):
    # Prior year's March: 2,000 on 10,000 = 20%. This March's drop 10,000, its win's sd 500:
    # 1.96 x 100 x 500 / 10,000 = 9.80 points, so the interval is 10.20% to 29.80%.
    report_line(table.pit.casino, table, date(2026, 3, 15), win="0", expected="0", theo="0", sd="500")
    return _opened(table, monkeypatch, {date(2025, 3, 12): day(10000, 10000, 10000, fills=8000),
                                         date(2026, 3, 15): day(10000, 10000, 10000, fills=10000 - int(march_win))})


def test_maryland_on_the_bound_is_inside(table, monkeypatch):
    _settings(table, preset="maryland")
    assert _maryland_month(table, monkeypatch, "2980") == []  # 29.80%


def test_maryland_just_outside_opens_one_per_unit(table, monkeypatch):
    _settings(table, preset="maryland")
    opened = _maryland_month(table, monkeypatch, "2981")  # 29.81%
    assert {i.level for i in opened} == LEVELS and {i.rule for i in opened} == {"prior_year_interval"}
    one = next(i for i in opened if i.level == "table")
    assert (one.period, one.period_start, one.period_end) == ("month", date(2026, 3, 1), MARCH_31)
    assert (one.drop_hold_pct, one.bound_low, one.bound_high) == (D("29.8100"), D("10.2000"), D("29.8000"))
    assert one.figures["compared_with"] == "20.0000" and one.figures["theo_sd"] == "500.00"
    assert one.figures["stat_win"] == "2981.00" and one.figures["drop"] == "10000.00"
    assert "luck" in one.explanation and "statistical win is 2,981.00" in one.explanation


def test_maryland_low_side_and_no_prior_year(table, monkeypatch):
    _settings(table, preset="maryland")
    assert bounds.prior_year_interval(D("10.20"), D("20"), D("500"), D("10000"), D("1.96")) is None
    assert bounds.prior_year_interval(D("10.19"), D("20"), D("500"), D("10000"), D("1.96")) is not None
    # No spread (no final report for the month): no interval, so nothing to be outside of.
    assert bounds.prior_year_interval(D("35"), D("20"), D("0"), D("10000"), D("1.96")) is None
    # No prior year to compare with: nothing is opened (not a guess).
    assert _opened(table, monkeypatch, {date(2026, 3, 15): day(10000, 10000, 10000, fills=9000)}) == []


def test_the_month_is_checked_only_once_it_has_ended(table, monkeypatch):
    _settings(table, preset="maryland")
    report_line(table.pit.casino, table, date(2026, 3, 15), win="0", expected="0", theo="0", sd="500")
    data = {date(2025, 3, 12): day(10000, 10000, 10000, fills=8000),
            date(2026, 3, 15): day(10000, 10000, 10000, fills=5000)}
    assert _opened(table, monkeypatch, data, on=date(2026, 3, 30)) == []
    assert set(check_ranges(date(2026, 3, 30))) == {"day"}
    assert len(check_day(casino=table.pit.casino, day=MARCH_31)) == 4


# --- Kansas: more than 3 points from the previous month --------------------------------------------

def _kansas(table, monkeypatch, march_win: int):
    # February: 2,000 on 10,000 = 20%; March on a drop of 10,000.
    return _opened(table, monkeypatch, {date(2026, 2, 10): day(10000, 10000, 10000, fills=8000),
                                         date(2026, 3, 10): day(10000, 10000, 10000, fills=10000 - march_win)})


@pytest.mark.parametrize(("march_win", "opens"), [(2300, False), (2301, True), (1700, False), (1699, True)])
def test_kansas_swing(table, monkeypatch, march_win, opens):
    _settings(table, preset="kansas")
    opened = _kansas(table, monkeypatch, march_win)
    assert bool(opened) is opens
    if opens:
        assert {i.level for i in opened} == LEVELS and {i.rule for i in opened} == {"monthly_swing"}
        assert opened[0].figures["compared_with"] == "20.0000"


# --- the band (Ohio's review, or a house policy) ------------------------------------------------------

@pytest.mark.parametrize(("win", "opens"), [(2500, False), (2501, True), (1000, False), (999, True)])
def test_band_on_a_day(table, monkeypatch, win, opens):
    _settings(table, preset="ohio", band_min=D("10.00"), band_max=D("25.00"))
    on = date(2026, 3, 10)
    opened = _opened(table, monkeypatch, {on: day(10000, 10000, 10000, fills=10000 - win)}, on=on)
    assert bool(opened) is opens
    if opens:
        assert {(i.period, i.period_start, i.rule) for i in opened} == {("day", on, "band")}


def test_a_rerun_opens_nothing_twice(table, monkeypatch):
    _settings(table, preset="ohio", band_min=D("10.00"), band_max=D("25.00"))
    on = date(2026, 3, 10)
    first = _opened(table, monkeypatch, {on: day(10000, 10000, 10000, fills=7000)}, on=on)
    assert len(first) == 4
    assert check_day(casino=table.pit.casino, day=on) == []
    assert Investigation.objects.count() == 4


def test_an_incomplete_day_opens_nothing(table, monkeypatch):
    _settings(table, preset="ohio", band_min=D("10.00"), band_max=D("25.00"))
    on = date(2026, 3, 10)
    assert _opened(table, monkeypatch, {on: day(10000, 10000, None, estimated=5000)}, on=on) == []


# --- the settings ---------------------------------------------------------------------------------------

def test_a_preset_sets_its_rule_and_history_keeps_author_and_reason(table):
    saved = _settings(table, preset="kansas")
    assert (saved.monthly_swing, saved.prior_year_interval, saved.swing_points) == (True, False, D("3.00"))
    last = saved.history.first()
    assert last.history_change_reason == "test bounds" and last.history_user.username == "gaming_manager"


@pytest.mark.parametrize(("values", "field"), [
    ({"preset": "ohio"}, "band_min"),
    ({"preset": "custom", "band": True, "band_min": D("25"), "band_max": D("10"), "prior_year_interval": False},
     "band_max"),
    ({"preset": "custom", "z": D("0")}, "z"),
    ({"preset": "custom", "prior_year_interval": False}, "preset"),
    ({"preset": "custom", "band": True, "band_min": D("-150"), "band_max": D("10")}, "band_min"),
])
def test_bad_bounds_are_field_errors_and_nothing_is_stored(table, values, field):
    with pytest.raises(ValidationError) as refused:
        _settings(table, **values)
    assert field in refused.value.message_dict
    assert not FluctuationSettings.objects.exists()


def test_a_reason_is_required(table):
    with pytest.raises(ValidationError) as refused:
        settings_save(casino=table.pit.casino, author=user_with_role("gaming_manager"), reason=" ", preset="kansas")
    assert "reason" in refused.value.message_dict
