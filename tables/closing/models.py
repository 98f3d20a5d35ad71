"""The close of a gaming day and its reopens (issue #17 point 5; README.md beside this package).

* :class:`FinalRun` - a finished run of the day's final report, as the report announced it
  (``report_finished``), with its lines' figures: the "before" and "after" of a reopen. The
  report is audit's: it is named by id, not by a foreign key, so that tables depends on
  nothing in audit.
* :class:`DayClose` - the day closed: when, on which final run and on which signed counts.
* :class:`DayReopen` - a gaming manager reopened a close, with a reason; the close it reopens
  is named once (one reopen per close).
* :class:`ReopenRerun` - the report's re-run after a reopen finished: which lines and columns
  changed, from what to what.

Every row is append-only (PostgreSQL guard, migration 0001): a close is never undone but by a
reopen, and a reopen never forgotten.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from casino.models import Casino

_USER = {"to": settings.AUTH_USER_MODEL, "on_delete": models.PROTECT, "related_name": "+"}


class FinalRun(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    report_id = models.BigIntegerField(help_text="The final DailyReport (audit's reports app).")
    run_id = models.UUIDField()
    requested_at = models.DateTimeField(help_text="When the run was requested (queued).")
    finished_at = models.DateTimeField()
    recorded_at = models.DateTimeField()
    lines = models.JSONField(
        default=dict, help_text='"level:key" -> {"label", column: value}: the run\'s report lines, money as text.')

    class Meta:
        ordering = ["recorded_at", "id"]
        indexes = [models.Index(fields=["casino", "gaming_day"])]
        constraints = [models.UniqueConstraint(fields=["report_id", "run_id"], name="finalrun_once_per_run")]

    def __str__(self) -> str:
        return f"final report {self.report_id} of {self.gaming_day}, run {self.run_id}"


class DayClose(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    closed_at = models.DateTimeField()
    final_run = models.ForeignKey(FinalRun, on_delete=models.PROTECT, related_name="closes")
    counts = models.JSONField(
        default=list, help_text="The signed counts it closed on: [{box, table, revision, signature, drop}].")

    class Meta:
        ordering = ["closed_at", "id"]
        indexes = [models.Index(fields=["casino", "gaming_day"])]

    def __str__(self) -> str:
        return f"{self.gaming_day} closed at {self.closed_at:%Y-%m-%d %H:%M} UTC"


class DayReopen(models.Model):
    close = models.OneToOneField(DayClose, on_delete=models.PROTECT, related_name="reopen")
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    reason = models.TextField()
    reopened_by = models.ForeignKey(**_USER)
    reopened_at = models.DateTimeField()
    before = models.ForeignKey(FinalRun, on_delete=models.PROTECT, related_name="+",
                               help_text="The report's figures when the day was reopened.")

    class Meta:
        ordering = ["reopened_at", "id"]
        indexes = [models.Index(fields=["casino", "gaming_day"])]
        constraints = [models.CheckConstraint(condition=~models.Q(reason=""), name="dayreopen_has_reason")]

    def __str__(self) -> str:
        return f"{self.gaming_day} reopened at {self.reopened_at:%Y-%m-%d %H:%M} UTC"


class ReopenRerun(models.Model):
    reopen = models.OneToOneField(DayReopen, on_delete=models.PROTECT, related_name="rerun")
    after = models.ForeignKey(FinalRun, on_delete=models.PROTECT, related_name="+")
    changes = models.JSONField(
        default=list, help_text='[{"line", "label", "change": "changed|added|removed", "columns": {col: [before, after]}}]')
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["recorded_at", "id"]

    def __str__(self) -> str:
        return f"re-run after {self.reopen}: {len(self.changes)} lines changed"
