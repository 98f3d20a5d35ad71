"""A closed gaming day for the role matrix (written directly: the matrix checks roles, the
close rule has its own tests)."""

from __future__ import annotations

from datetime import date


def closing_matrix_objects(casino) -> dict:
    from tests.closing.closed_today import close_directly

    return {"dayclose": close_directly(casino, date(2026, 3, 10))}


def reopened_and_closed_again(report, manager) -> dict:
    """The report's day closed, reopened with a reason, its re-run's changes recorded (one
    table's win and paid), and closed again: the history's widest form, for the layout tests."""
    import copy
    from datetime import timedelta

    from django.utils import timezone

    from audit.reports.closing import report_figures
    from tables.closing.models import DayClose, DayReopen, FinalRun, ReopenRerun
    from tables.closing.services.changes import report_changes

    now = timezone.now()
    before_lines = report_figures(report)
    after_lines = copy.deepcopy(before_lines)
    line = next(k for k in after_lines if k.startswith("table:"))
    after_lines[line]["win"], after_lines[line]["paid"] = "-1234567.89", "1234567.89"
    casino, day = report.casino, report.gaming_day

    def run(n, lines, at):
        return FinalRun.objects.create(casino=casino, gaming_day=day, report_id=report.pk,
                                       run_id=f"00000000-0000-0000-0000-00000000000{n}", requested_at=at,
                                       finished_at=at, recorded_at=at, lines=lines)

    before = run(1, before_lines, now - timedelta(hours=2))
    first = DayClose.objects.create(casino=casino, gaming_day=day, closed_at=before.recorded_at, final_run=before)
    reopen = DayReopen.objects.create(
        close=first, casino=casino, gaming_day=day, before=before, reopened_by=manager,
        reopened_at=now - timedelta(hours=1),
        reason="fill F-000001 was received at the wrong table; voided and re-keyed at the right one")
    after = run(2, after_lines, now - timedelta(minutes=30))
    ReopenRerun.objects.create(reopen=reopen, after=after, recorded_at=after.recorded_at,
                               changes=report_changes(before_lines, after_lines))
    return {"dayclose": DayClose.objects.create(casino=casino, gaming_day=day, closed_at=after.recorded_at,
                                                final_run=after)}
