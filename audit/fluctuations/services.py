"""Writes of the fluctuation app: the bounds (with author and reason), the check that opens
investigations, and the investigation's steps (assign, conclude, sign off or send back).

A refusal is a ``ValidationError`` naming the field (the API answers 400, the pages show it)
or ``PermissionDenied`` for a role that may not act (403); either way nothing is stored.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from audit.reports.explain import win_explanation
from casino.audit_guard import allow_audit_write
from casino.roles import FINANCE, GAMING_MANAGER, has_role
from casino.scoping import may_see_casino

from . import bounds
from .models import DAY, MONTH, FluctuationSettings, Investigation
from .periods import PeriodHold, UnitHolds, holds_over

#: Who owns an investigation and writes its conclusion; who signs it off.
OWNER_ROLES = (FINANCE, GAMING_MANAGER)
SIGNER_ROLES = (GAMING_MANAGER,)
SETTINGS_FIELDS = ("preset", "prior_year_interval", "z", "monthly_swing", "swing_points", "band", "band_min",
                   "band_max")


def _reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": ["Say why this change is made; it is kept in the history."]})
    return reason


def settings_for(casino) -> FluctuationSettings:
    """The casino's bounds; a casino nobody configured yet has Maryland's (the default preset),
    unsaved, so reading never writes."""
    found = FluctuationSettings.objects.filter(casino=casino).first()
    return found or FluctuationSettings(casino=casino)


@transaction.atomic
def settings_save(*, casino, author, reason: str, **values) -> FluctuationSettings:
    """Create or change a casino's bounds (a gaming manager's): history keeps author and reason."""
    if not has_role(author, GAMING_MANAGER):
        raise PermissionDenied("Only a gaming manager changes the fluctuation bounds.")
    reason = _reason(reason)
    unknown = set(values) - set(SETTINGS_FIELDS)
    if unknown:
        raise ValidationError({name: ["Not a setting."] for name in sorted(unknown)})
    obj = FluctuationSettings.objects.select_for_update().filter(casino=casino).first() or \
        FluctuationSettings(casino=casino)
    for name, value in values.items():
        setattr(obj, name, value)
    obj.full_clean()
    obj._history_user, obj._change_reason = author, reason
    obj.save()
    return obj


# --- the check -------------------------------------------------------------------------------

def _last_of_month(day: date) -> date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def check_ranges(day: date) -> dict[str, tuple[date, date]]:
    """The periods the check of ``day`` looks at: the day; on a month's last day, also the
    month, the month before it and the same month of the prior year (whole months)."""
    ranges = {"day": (day, day)}
    if day == _last_of_month(day):
        first = day.replace(day=1)
        previous_end = first - timedelta(days=1)
        prior_first = first.replace(year=first.year - 1)
        ranges.update(month=(first, day), previous_month=(previous_end.replace(day=1), previous_end),
                      month_py=(prior_first, _last_of_month(prior_first)))
    return ranges


def _breaches(unit: UnitHolds, rules: FluctuationSettings):
    """(period kind, period, breach) for every rule the unit's figures break."""
    periods = unit.periods
    if rules.band:
        yield DAY, periods["day"], bounds.band(periods["day"].drop_hold_pct, rules.band_min, rules.band_max)
    if "month" not in periods:
        return
    month = periods["month"]
    if rules.band:
        yield MONTH, month, bounds.band(month.drop_hold_pct, rules.band_min, rules.band_max)
    if rules.monthly_swing:
        yield MONTH, month, bounds.monthly_swing(month.drop_hold_pct, periods["previous_month"].drop_hold_pct,
                                                 rules.swing_points)
    if rules.prior_year_interval:
        yield MONTH, month, bounds.prior_year_interval(month.drop_hold_pct, periods["month_py"].drop_hold_pct,
                                                       month.play.theo_sd, month.drop, rules.z)


def _money(value) -> str | None:
    return None if value is None else f"{value:.2f}"


def snapshot(period: PeriodHold, breach: bounds.Breach) -> dict:
    """The figures an investigation keeps, as they were when it was opened (strings: exact)."""
    cash, play = period.cash, period.play
    stat_win = period.stat_win
    return {
        "period_start": period.start.isoformat(), "period_end": period.end.isoformat(),
        "opener": _money(cash.opener), "closer": _money(cash.closer), "fills": _money(cash.fills),
        "credits": _money(cash.credits), "drop": _money(period.drop), "estimated_drop": _money(cash.estimated_drop),
        "stat_win": _money(stat_win), "drop_hold_pct": f"{breach.drop_hold_pct}", "table_days": cash.tables,
        "table_days_incomplete": cash.incomplete,
        "recorded_win": _money(play.win), "expected_win": _money(play.expected_win),
        "theo_win": _money(play.theo_win), "theo_sd": _money(play.theo_sd), "report_days": play.days,
        "stat_minus_recorded": _money(None if stat_win is None else stat_win - play.win),
        "compared_with": None if breach.compared_with is None else f"{breach.compared_with}",
        "bound_low": None if breach.low is None else f"{breach.low}",
        "bound_high": None if breach.high is None else f"{breach.high}", "why": breach.why,
    }


def draft_explanation(period: PeriodHold) -> str:
    """The written "why it won or lost" (audit/reports/explain.py) over the period's sums, and
    the statistical win beside the recorded play's."""
    play = period.play
    if not play.days:
        text = "No final daily report covers this period: the recorded play cannot explain the hold."
    else:
        text = win_explanation(win=play.win, expected_win=play.expected_win, theo_win=play.theo_win,
                               theo_sd=play.theo_sd).text
    if period.stat_win is not None:
        gap = period.stat_win - play.win
        text += (f" The count's statistical win is {period.stat_win:,.2f} against the recorded play's "
                 f"{play.win:,.2f}: {gap:+,.2f} the recorded rounds do not account for "
                 f"(unrecorded rounds, fills or credits, or a miscount).")
    return text


def check_day(*, casino, day: date, author=None) -> list[Investigation]:
    """Open an investigation for every unit whose hold breaks a bound in the periods of ``day``
    (``check_ranges``). Run again, it opens none twice (one per unit, period and rule);
    returns the ones it opened now."""
    rules = settings_for(casino)
    opened = []
    for unit in holds_over([casino.pk], check_ranges(day)):
        for kind, period, breach in _breaches(unit, rules):
            if breach is None:
                continue
            with transaction.atomic():
                investigation, created = Investigation.objects.get_or_create(
                    casino=casino, level=unit.level, key=unit.key, period=kind, period_start=period.start,
                    rule=breach.rule,
                    defaults={"label": unit.label, "period_end": period.end, "drop_hold_pct": breach.drop_hold_pct,
                              "bound_low": breach.low, "bound_high": breach.high,
                              "figures": snapshot(period, breach), "explanation": draft_explanation(period),
                              "opened_at": timezone.now(), "opened_by": author})
            if created:
                opened.append(investigation)
    return opened


# --- an investigation's steps --------------------------------------------------------------------

def _require(author, roles, what: str, investigation: Investigation) -> None:
    if not has_role(author, *roles) or not may_see_casino(author, investigation.casino_id):
        raise PermissionDenied(f"Your role does not allow you to {what}.")


def _locked(investigation: Investigation) -> Investigation:
    allow_audit_write()
    return Investigation.objects.select_for_update().get(pk=investigation.pk)


def _save(investigation: Investigation, author, reason: str) -> Investigation:
    investigation._history_user, investigation._change_reason = author, reason
    investigation.save()
    return investigation


@transaction.atomic
def investigation_assign(*, investigation: Investigation, owner, author) -> Investigation:
    _require(author, OWNER_ROLES, "assign investigations", investigation)
    investigation = _locked(investigation)
    if investigation.status != Investigation.OPEN:
        raise ValidationError({"status": ["Only an open investigation changes owner."]})
    if owner is None or not has_role(owner, *OWNER_ROLES) or not may_see_casino(owner, investigation.casino_id):
        raise ValidationError({"owner": ["The owner is someone in finance or a gaming manager of this casino."]})
    investigation.owner = owner
    return _save(investigation, author, f"assigned to {owner.get_username()}")


@transaction.atomic
def investigation_conclude(*, investigation: Investigation, conclusion: str, author) -> Investigation:
    """The owner writes the conclusion and sends it for review (open > in review)."""
    _require(author, OWNER_ROLES, "write conclusions", investigation)
    investigation = _locked(investigation)
    if investigation.status != Investigation.OPEN:
        raise ValidationError({"status": ["Only an open investigation takes a conclusion."]})
    if investigation.owner_id != author.pk:
        raise ValidationError({"owner": ["Only the investigation's owner writes its conclusion; assign it first."]})
    conclusion = (conclusion or "").strip()
    if not conclusion:
        raise ValidationError({"conclusion": ["Write the conclusion: what caused the hold, and what was done."]})
    investigation.conclusion, investigation.concluded_by = conclusion, author
    investigation.concluded_at, investigation.status = timezone.now(), Investigation.IN_REVIEW
    return _save(investigation, author, "conclusion written")


def _reviewable(investigation: Investigation, author) -> Investigation:
    investigation = _locked(investigation)
    if investigation.status != Investigation.IN_REVIEW:
        raise ValidationError({"status": ["Only an investigation in review is signed off or sent back."]})
    if author.pk in (investigation.concluded_by_id, investigation.owner_id):
        raise ValidationError({"reviewer": ["The reviewer is a gaming manager who neither owns the "
                                            "investigation nor wrote its conclusion."]})
    return investigation


@transaction.atomic
def investigation_sign_off(*, investigation: Investigation, author, note: str = "") -> Investigation:
    _require(author, SIGNER_ROLES, "sign investigations off", investigation)
    investigation = _reviewable(investigation, author)
    investigation.review_note = (note or "").strip()
    investigation.signed_off_by, investigation.signed_off_at = author, timezone.now()
    investigation.status = Investigation.SIGNED_OFF
    return _save(investigation, author, "signed off")


@transaction.atomic
def investigation_send_back(*, investigation: Investigation, author, note: str) -> Investigation:
    """The reviewer returns the conclusion to its owner with what is missing (in review > open)."""
    _require(author, SIGNER_ROLES, "send investigations back", investigation)
    note = (note or "").strip()
    if not note:
        raise ValidationError({"note": ["Say what the conclusion lacks."]})
    investigation = _reviewable(investigation, author)
    investigation.review_note, investigation.status = note, Investigation.OPEN
    return _save(investigation, author, f"sent back: {note}")
