"""When a gaming day closes (README.md beside this package, "When a day closes").

A day closes by itself when both hold: the day's final report has finished a run (``FinalRun``,
recorded when the report announces it) requested after the day's last reopen, if any, whose
lines hold every signed count's drop (a count signed after the report re-runs it: the close
waits for that run); and every drop box of the day has been dropped and its latest count
revision is signed. Whichever comes last closes
it: the report's receiver (audit side) calls :func:`final_run_record`, the count's signal calls
:func:`count_signed_hook`; both end in :func:`day_close_if_due`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone

from tables.accounting.models import BoxDrop, CountSignature, DropBox
from tables.closed_days import day_lock
from tables.closing.models import DayClose, DayReopen, FinalRun, ReopenRerun
from tables.closing.services.changes import report_changes
from tables.closing.services.check import day_close_current

#: Further reasons a day may not close yet, registered by the apps above tables (tables imports
#: none of them): each is ``check(casino_id, gaming_day) -> list[str]``, one line per reason, and
#: its lines are added to :func:`close_waiting`'s. audit/compliance registers the Title 31 check
#: (a CTR required whose patron is not identified) in its AppConfig.ready. Whoever settles what a
#: check waits for calls :func:`day_close_if_due`.
CLOSE_CHECKS: list = []
#: check -> ``where(casino_id, gaming_day) -> (url, what to do there)``: where its reasons are settled.
CHECK_PLACES: dict = {}


@dataclass(frozen=True)
class Blocker:
    """One thing the day's close waits for: what it is, and the page where it is settled."""

    text: str
    url: str = ""
    action: str = ""


def close_check_register(check, where=None) -> None:
    """Add ``check`` to :data:`CLOSE_CHECKS` once (AppConfig.ready may run more than once);
    ``where(casino_id, gaming_day) -> (url, action)`` names the page that settles its reasons."""
    if check not in CLOSE_CHECKS:
        CLOSE_CHECKS.append(check)
    if where is not None:
        CHECK_PLACES[check] = where


def latest_final_run(casino_id: int, gaming_day: date) -> FinalRun | None:
    return FinalRun.objects.filter(casino_id=casino_id, gaming_day=gaming_day).order_by("-recorded_at", "-id").first()


def _last_reopen(casino_id: int, gaming_day: date) -> DayReopen | None:
    return DayReopen.objects.filter(casino_id=casino_id, gaming_day=gaming_day).order_by("-reopened_at", "-id").first()


def counts_waiting(casino_id: int, gaming_day: date) -> list[str]:
    """What the day's boxes still wait for, one line per box ([] when every box is counted).
    A box not dropped waits too: it holds money nobody has counted."""
    return [b.text for b in _count_blockers(casino_id, gaming_day)]


def _count_blockers(casino_id: int, gaming_day: date) -> list[Blocker]:
    boxes = (DropBox.objects.filter(casino_id=casino_id, gaming_day=gaming_day)
             .annotate(dropped=Exists(BoxDrop.objects.filter(box=OuterRef("pk"))))
             .select_related("table").order_by("table__label"))
    count_room = f"{reverse('count-day')}?day={gaming_day:%Y-%m-%d}"
    waiting = []
    for box in boxes:
        latest = box.counts.order_by("-revision").first()
        label = box.table.label
        if not box.dropped:
            waiting.append(Blocker(f"the box of {label} is not dropped",
                                   f"{reverse('count-drop')}?table={box.table_id}&gaming_day={gaming_day:%Y-%m-%d}",
                                   f"Drop the box of {label}"))
        elif latest is None:
            waiting.append(Blocker(f"the box of {label} is not counted", f"{count_room}#box-{label}",
                                   f"Count the box of {label} in the count room"))
        elif not CountSignature.objects.filter(count=latest).exists():
            waiting.append(Blocker(f"revision {latest.revision} of the count of {label} is not signed",
                                   f"{count_room}#box-{label}", "A second counter signs it in the count room"))
    return waiting


def close_waiting(casino_id: int, gaming_day: date) -> list[str]:
    """Why the day is not closed yet ([] when it is due to close, or closed)."""
    return [b.text for b in close_blockers(casino_id, gaming_day)]


def close_blockers(casino_id: int, gaming_day: date) -> list[Blocker]:
    """:func:`close_waiting`'s reasons, each with the page where it is settled."""
    if day_close_current(casino_id, gaming_day) is not None:
        return []
    waiting = []
    run, reopen = latest_final_run(casino_id, gaming_day), _last_reopen(casino_id, gaming_day)
    # The report's pages are audit's: named by URL, never imported (tables imports nothing from audit).
    reports = f"{reverse('reports')}?casino={casino_id}"
    if run is None:
        waiting.append(Blocker("the final report has not finished", reports,
                               f"Run (or follow) the final report of {gaming_day:%Y-%m-%d} on the reports page"))
    elif reopen is not None and run.requested_at <= reopen.reopened_at:
        waiting.append(Blocker("the final report has not been re-run since the day was reopened (re-run it "
                               "once the corrections are made)", reverse("reports-day", args=[run.report_id]),
                               "Re-run the final report"))
    else:
        behind = [c["table"] for c in _signed_counts(casino_id, gaming_day)
                  if run.lines.get(f"table:{c['table_id']}", {}).get("drop") != c["drop"]]
        if behind:
            waiting.append(Blocker(f"the final report does not hold the signed count of {', '.join(behind)} yet "
                                   "(a signature re-runs a finished report)",
                                   reverse("reports-day", args=[run.report_id]), "Follow the final report's run"))
    waiting += _count_blockers(casino_id, gaming_day)
    for check in CLOSE_CHECKS:
        where = CHECK_PLACES.get(check)
        url, action = where(casino_id, gaming_day) if where else ("", "")
        waiting += [Blocker(text, url, action) for text in check(casino_id, gaming_day)]
    return waiting


def _signed_counts(casino_id: int, gaming_day: date) -> list[dict]:
    signed = (CountSignature.objects.filter(count__box__casino_id=casino_id, count__box__gaming_day=gaming_day)
              .select_related("count__box__table").order_by("count__box__table__label", "count__revision"))
    latest = {}
    for signature in signed:
        latest[signature.count.box_id] = signature
    return [{"box": s.count.box_id, "table": s.count.box.table.label, "table_id": s.count.box.table_id,
             "revision": s.count.revision, "signature": s.pk, "drop": str(s.count.drop)} for s in latest.values()]


@transaction.atomic
def day_close_if_due(casino_id: int, gaming_day: date, *, at=None) -> DayClose | None:
    """Close the day if it is due (see the module); None when it is not, or already closed."""
    day_lock(casino_id, gaming_day, exclusive=True)
    if close_waiting(casino_id, gaming_day) or day_close_current(casino_id, gaming_day) is not None:
        return None
    return DayClose.objects.create(casino_id=casino_id, gaming_day=gaming_day, closed_at=at or timezone.now(),
                                   final_run=latest_final_run(casino_id, gaming_day),
                                   counts=_signed_counts(casino_id, gaming_day))


@transaction.atomic
def final_run_record(*, casino_id: int, gaming_day: date, report_id: int, run_id, requested_at, finished_at,
                     lines: dict, at=None) -> FinalRun:
    """A run of the day's final report finished (the report's receiver calls this with the run's
    lines). The first one requested after a reopen is that reopen's re-run: its changes are kept.
    Then the day closes if it is due. A run announced twice is recorded once."""
    at = at or timezone.now()
    day_lock(casino_id, gaming_day, exclusive=True)
    run, created = FinalRun.objects.get_or_create(
        report_id=report_id, run_id=run_id,
        defaults={"casino_id": casino_id, "gaming_day": gaming_day, "requested_at": requested_at,
                  "finished_at": finished_at,
                  "recorded_at": at, "lines": lines})
    if created:
        pending = (DayReopen.objects.filter(casino_id=casino_id, gaming_day=gaming_day, rerun__isnull=True,
                                            reopened_at__lt=requested_at)
                   .select_related("before").order_by("-reopened_at").first())
        if pending is not None:
            ReopenRerun.objects.create(reopen=pending, after=run, recorded_at=at,
                                       changes=report_changes(pending.before.lines, run.lines))
    day_close_if_due(casino_id, gaming_day, at=at)
    return run


def count_signed_hook(sender, *, casino, gaming_day, signature, **kwargs) -> None:
    """``count_signed`` receiver: the count may be the last thing the day waited for."""
    day_close_if_due(casino.pk, gaming_day)
