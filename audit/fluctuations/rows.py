"""Hold by period and investigations as flat rows: the page, the API and the CSV/XLSX files read
the same rows (columns named once here)."""

from __future__ import annotations

from casino.field_words import label
from casino.local_time import local_time_text
from tables.templatetags.words import money, pct

from .periods import PeriodHold

PERIOD_NAMES = ("day", "mtd", "ytd", "day_py", "mtd_py", "ytd_py")
PERIOD_TITLES = {"day": "Day", "mtd": "Month to date", "ytd": "Year to date", "day_py": "Day, prior year",
                 "mtd_py": "Month to date, prior year", "ytd_py": "Year to date, prior year"}
_FIGURES = (("stat_win", "statistical win"), ("drop", "drop"), ("drop_hold_pct", "hold % (win / drop)"))


def period_values(period: PeriodHold) -> dict:
    return {"start": period.start, "end": period.end, "stat_win": period.stat_win, "drop": period.drop,
            "drop_hold_pct": period.drop_hold_pct, "table_days": period.cash.tables,
            "incomplete_table_days": period.cash.incomplete, "recorded_win": period.play.win,
            "expected_win": period.play.expected_win, "theo_win": period.play.theo_win,
            "theo_sd": period.play.theo_sd}


HOLD_COLUMNS = [("level", "Level"), ("label", "Unit"),
                *[(f"{name}_{key}", f"{PERIOD_TITLES[name]}: {title}") for name in PERIOD_NAMES
                  for key, title in _FIGURES],
                ("ytd_theo_win", "Year to date: theoretical win"), ("ytd_theo_sd", "Year to date: win sd")]


def hold_rows(units) -> list[dict]:
    rows = []
    for unit in units:
        row = {"level": unit.level, "label": unit.label}
        for name in PERIOD_NAMES:
            period = unit.periods[name]
            row.update({f"{name}_stat_win": period.stat_win, f"{name}_drop": period.drop,
                        f"{name}_drop_hold_pct": period.drop_hold_pct})
        row.update(ytd_theo_win=unit.periods["ytd"].play.theo_win, ytd_theo_sd=unit.periods["ytd"].play.theo_sd)
        rows.append(row)
    return rows


INVESTIGATION_COLUMNS = [
    ("id", "Investigation"), ("casino", "Casino"), ("level", "Level"), ("label", "Unit"), ("period", "Period"),
    ("period_start", "From"), ("period_end", "To"), ("rule", "Rule"), ("drop_hold_pct", "Hold % (win / drop)"),
    ("bound_low", "Bound low"), ("bound_high", "Bound high"), ("stat_win", "Statistical win"), ("drop", "Drop"),
    ("recorded_win", "Recorded play's win"), ("status", "Status"), ("owner", "Owner"),
    ("conclusion", "Conclusion"), ("concluded_by", "Concluded by"), ("signed_off_by", "Signed off by"),
    ("signed_off_at", "Signed off at (casino's time)"), ("explanation", "Drafted explanation"),
]


def _name(user) -> str:
    return user.get_username() if user is not None else ""


def investigation_rows(investigations) -> list[dict]:
    return [{"id": inv.pk, "casino": inv.casino.name, "level": inv.level, "label": inv.label,
             "period": inv.get_period_display(), "period_start": inv.period_start, "period_end": inv.period_end,
             "rule": inv.get_rule_display(), "drop_hold_pct": inv.drop_hold_pct, "bound_low": inv.bound_low,
             "bound_high": inv.bound_high, "stat_win": inv.figures.get("stat_win"), "drop": inv.figures.get("drop"),
             "recorded_win": inv.figures.get("recorded_win"), "status": inv.get_status_display(),
             "owner": _name(inv.owner), "conclusion": inv.conclusion, "concluded_by": _name(inv.concluded_by),
             "signed_off_by": _name(inv.signed_off_by), "signed_off_at": local_time_text(inv.signed_off_at, inv.casino) if inv.signed_off_at else "",
             "explanation": inv.explanation}
            for inv in investigations]


#: An investigation's figures that are not money: hold percentages, counts of days, dates.
_PERCENT_FIGURES = ("drop_hold_pct", "compared_with", "bound_low", "bound_high")
_PLAIN_FIGURES = ("period_start", "period_end", "table_days", "table_days_incomplete", "report_days")


def figure_rows(figures: dict) -> list[tuple[str, str]]:
    """An investigation's figures when opened as (label, value) for the page and the PDF: money
    with thousands separators, hold % to 2 decimals, none as a dash."""
    rows = []
    for key, value in figures.items():
        if key == "why":
            continue
        if value is None:
            text = "–"
        elif key in _PERCENT_FIGURES:
            text = f"{pct(value)}%"
        elif key in _PLAIN_FIGURES:
            text = str(value)
        else:
            text = money(value)
        rows.append((label(key, "field"), text))
    return rows


def investigations_for(queryset):
    return queryset.select_related("casino", "owner", "concluded_by", "signed_off_by")

