"""python manage.py reconcile --gaming-day YYYY-MM-DD [--casino NAME|ID] [--full] [--wait]"""

from __future__ import annotations

import time
from datetime import date

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from audit.reports.models import DailyReport
from audit.reports.services.runs import report_request
from casino.models import Casino


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f'--gaming-day: "{text}" is not a date (YYYY-MM-DD)') from None


class Command(BaseCommand):
    help = (
        "Reconcile a past gaming day (replaces its report; a stale run is retried at once). Runs on "
        "the Celery workers when a broker is configured, in this process otherwise."
    )

    def add_arguments(self, parser):
        parser.add_argument("--gaming-day", required=True, help="YYYY-MM-DD")
        parser.add_argument("--casino", help="name or id (default: every casino)")
        parser.add_argument(
            "--full",
            action="store_true",
            help="re-audit every round, not only those audited by an older engine version",
        )
        parser.add_argument(
            "--wait",
            action="store_true",
            help="wait for the workers to finish and print the result",
        )

    def handle(self, *args, **options):
        day = _day(options["gaming_day"])
        casinos = Casino.objects.all()
        if options["casino"]:
            value = options["casino"]
            casinos = (
                casinos.filter(pk=int(value)) if value.isdigit() else casinos.filter(name=value)
            )
            if not casinos.exists():
                raise CommandError(f'--casino: no casino "{value}"')
        reports, refusals = [], []
        for casino in casinos:
            try:
                reports.append(
                    report_request(
                        casino=casino, gaming_day=day, via="command", full=options["full"]
                    )
                )
            except ValidationError as exc:
                problems = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
                refusals.append(
                    "; ".join(
                        f"{casino}: {'--' + field.replace('_', '-') + ': ' if field else ''}{p}"
                        for field, ps in problems.items()
                        for p in ps
                    )
                )
        # Every casino is asked: one that did not exist yet on that day (or whose run is busy)
        # is reported and skipped, and the others are still reconciled.
        if refusals and (options["casino"] or not reports):
            raise CommandError("; ".join(refusals))
        for refusal in refusals:
            self.stderr.write(f"skipped {refusal}")
        for report in reports:
            report.refresh_from_db()
            while options["wait"] and report.status in (DailyReport.QUEUED, DailyReport.RUNNING):
                time.sleep(1)
                report.refresh_from_db()
            line = report.lines.filter(level="floor").first()
            totals = (
                f" rounds {line.rounds}, handle {line.handle}, win {line.win}, hold of handle {line.handle_hold_pct}%,"
                f" statistical win {line.stat_win if line.stat_win is not None else '(no complete table)'},"
                f" hold of drop {line.drop_hold_pct if line.drop_hold_pct is not None else '-'}%"
                if line
                else ""
            )
            self.stdout.write(
                f"{report.casino} {report.gaming_day}: {report.status}"
                f"{' - ' + report.error if report.error else ''}{totals}"
            )
            if report.status == DailyReport.FAILED:
                raise CommandError(report.error)
