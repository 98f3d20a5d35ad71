"""A gaming manager reopens a closed gaming day, with a reason."""

from __future__ import annotations

from datetime import date

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from casino.models import Casino
from casino.roles import GAMING_MANAGER, has_role
from casino.scoping import may_see_casino
from tables.closed_days import day_lock
from tables.closing.models import DayReopen
from tables.closing.services.check import day_close_current


@transaction.atomic
def day_reopen(*, casino: Casino, gaming_day: date, reason: str, author, at=None) -> DayReopen:
    """Reopen the close that stands on ``gaming_day``: the day's records may change again. The
    report's figures at the reopen are the close's final run. The day stays open until a run of
    its final report requested after the reopen has finished (the corrections made, finance or
    the gaming manager re-runs it); that run's figures and what changed are then recorded
    (``services/close.final_run_record``) and the day closes again by the same rule."""
    if not has_role(author, GAMING_MANAGER) or not may_see_casino(author, casino.pk):
        raise PermissionDenied("only a gaming manager of this casino reopens a gaming day")
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": ["say why the day is reopened; it is kept with your name"]})
    day_lock(casino.pk, gaming_day, exclusive=True)
    close = day_close_current(casino.pk, gaming_day)
    if close is None:
        raise ValidationError({"gaming_day": [f"gaming day {gaming_day} is not closed"]})
    return DayReopen.objects.create(close=close, casino=casino, gaming_day=gaming_day, reason=reason,
                                    reopened_by=author, reopened_at=at or timezone.now(), before=close.final_run)
