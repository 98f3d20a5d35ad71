"""The daily report's side of the gaming-day close (tables/closing/README.md).

tables imports nothing from audit, so the report connects here (apps.ready): each finished run of
a final report is handed to the close with its lines' figures.
"""

from __future__ import annotations

from decimal import Decimal

from tables.closing.services.close import final_run_record

from .models import DailyReport, ReportLine

#: Columns of a line that name it rather than measure it.
_NAMING = {"id", "report", "level", "key", "label"}


def _value(value):
    return str(value) if isinstance(value, Decimal) else value


def report_figures(report: DailyReport) -> dict:
    """The report's lines, "level:key" -> {"label", column: value}: every column that measures
    (money as text, so that JSON keeps its cents), including columns added to the report later."""
    columns = [f.attname for f in ReportLine._meta.concrete_fields if f.name not in _NAMING]
    return {f"{line.level}:{line.key}": {"label": line.label, **{c: _value(getattr(line, c)) for c in columns}}
            for line in ReportLine.objects.filter(report=report).order_by("level", "key")}


def report_finished_hook(sender, *, report: DailyReport, **kwargs) -> None:
    """``report_finished`` receiver: a final run is the close's "report final"."""
    if report.provisional:
        return
    final_run_record(casino_id=report.casino_id, gaming_day=report.gaming_day, report_id=report.pk,
                     run_id=report.run_id, requested_at=report.queued_at or report.started_at,
                     finished_at=report.finished_at, lines=report_figures(report))
