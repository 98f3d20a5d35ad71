"""Finance's pages: the gaming days and their status, a run's progress, the report, the files.

Surveillance sees the outlier and dealer sections of a report, not the money tables or the
files. Files are served only from here (role-checked), never as public static files.
"""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from casino.db_routing import replica_reads
from casino.gaming_day import gaming_day_of
from casino.models import Casino
from casino.periods import page_period, today_of
from casino.permissions import role_required
from casino.roles import FINANCE, GAMING_MANAGER, SURVEILLANCE, has_role
from casino.scoping import scope

from .exporters import (
    FORMATS,
    decisions_pending_notice,
    edges_pending_notice,
    period_file_write,
    provisional_banner,
    provisional_status,
    report_formats,
    reports_root,
)
from .legend import COLUMNS, legend
from .models import DailyReport, DealerLine, ReportLine, ReportWagerLine
from .services.runs import (
    current_gaming_day,
    provisional_on_open,
    provisional_request,
    report_request,
    run_is_stale,
)

READERS = (FINANCE, GAMING_MANAGER, SURVEILLANCE)
RUNNERS = (FINANCE, GAMING_MANAGER)


def report_file_response(report: DailyReport, fmt: str) -> FileResponse:
    if fmt not in report_formats(report):
        raise Http404(
            f"A provisional report has no {fmt.upper()}: only the final report of a day that has "
            f"ended is printed to be signed (take {' or '.join(report_formats(report)).upper()})"
        )
    rel = (report.files or {}).get(fmt)
    if report.status != DailyReport.DONE or not rel:
        raise Http404(
            f"The {fmt.upper()} of {report.gaming_day} is not ready (status: {report.status})"
        )
    root = reports_root().resolve()
    path = (root / rel).resolve()
    if root not in path.parents or not path.is_file():
        raise Http404(f"The {fmt.upper()} of {report.gaming_day} is missing; re-run the day")
    return FileResponse(
        path.open("rb"), as_attachment=True, filename=path.name, content_type=FORMATS[fmt][1]
    )


def readable_reports(user):
    """The reports ``user`` may open: their casinos'; provisional ones only for finance and
    gaming managers (surveillance reads final reports' outlier and dealer sections)."""
    reports = scope(DailyReport.objects.select_related("casino"), user)
    return reports if has_role(user, *RUNNERS) else reports.filter(provisional=False)


#: What the list of reports shows of each (a report row also holds its summary and files).
INDEX_FIELDS = ("id", "casino", "gaming_day", "provisional", "status", "error", "runs", "chunks_total",
                "chunks_done", "finished_at", "casino__name", "casino__time_zone",
                "casino__gaming_day_start_hour")


def _casino(request) -> Casino | None:
    casinos = scope(Casino.objects.all(), request.user, "pk")
    wanted = request.GET.get("casino") or request.POST.get("casino")
    if wanted and wanted.isdigit():
        return casinos.filter(pk=int(wanted)).first()
    return casinos.first()


@replica_reads
@role_required(*READERS)
@require_http_methods(["GET", "POST"])
def reports_index(request):
    casino = _casino(request)
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        if not has_role(request.user, *RUNNERS):
            raise PermissionDenied("Your role may read reports, not run them.")
        try:
            if casino is None:
                raise ValidationError({"casino": ["No casino is set up yet"]})
            day = date.fromisoformat(request.POST.get("gaming_day", ""))
            report = report_request(
                casino=casino,
                gaming_day=day,
                requested_by=request.user,
                via="page",
                full=request.POST.get("full") == "on",
            )
        except ValueError:
            errors = {"gaming_day": ["Give a date as YYYY-MM-DD."]}
        except ValidationError as exc:
            errors = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
        else:
            messages.success(request, f"Reconciliation of {day} started.")
            return redirect("reports-day", pk=report.pk)
    reports = scope(DailyReport.objects.select_related("casino"), request.user).filter(provisional=False)
    if casino is not None:
        reports = reports.filter(casino=casino)
    yesterday = None
    today = today_of(request.user)
    if casino is not None:
        today = gaming_day_of(timezone.now(), casino.time_zone, casino.gaming_day_start_hour)
        yesterday = date.fromordinal(today.toordinal() - 1)
    # One period of gaming days, the last DEFAULT_DAYS by default, shown and changeable (issue #20):
    # a page's rows do not pile up with the years kept. A reversed or too long one says why.
    since, until, period_errors = page_period(request.GET, today)
    reports = reports.filter(gaming_day__range=(since, until)).only(*INDEX_FIELDS)
    return render(
        request,
        "reports/index.html",
        {
            "casino": casino,
            "casinos": scope(Casino.objects.all(), request.user, "pk"),
            "reports": reports,
            "period": {"from": since.isoformat(), "to": until.isoformat()},
            "period_errors": period_errors,
            "yesterday": yesterday,
            "entered": request.POST.get("gaming_day") if errors else None,
            "errors": errors,
            "can_run": has_role(request.user, *RUNNERS),
        },
        status=400 if errors else 200,
    )


@replica_reads
@role_required(*RUNNERS)
@require_http_methods(["GET", "POST"])
def reports_today(request):
    """Today so far: the current gaming day's provisional report; POST refreshes it."""
    casino = _casino(request)
    if casino is None:
        raise Http404("No casino is set up yet")
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        try:
            report = provisional_request(casino=casino, requested_by=request.user, via="page")
        except ValidationError as exc:
            errors = exc.message_dict
        else:
            messages.success(request, f"Today so far at {casino}: refresh started.")
            return redirect("reports-day", pk=report.pk)
    else:
        # Opening the page builds today so far when none is fresh: nobody has to ask first. The
        # page is the report itself, at a stable address (a bookmark, the progress's reload).
        report = provisional_on_open(casino=casino, requested_by=request.user)
        return render(request, "reports/day.html", _context(request, report))
    report = DailyReport.objects.filter(
        casino=casino, gaming_day=current_gaming_day(casino), provisional=True
    ).first()
    return render(
        request,
        "reports/today.html",
        {"casino": casino, "casinos": scope(Casino.objects.all(), request.user, "pk"),
         "report": report, "errors": errors, "minutes": settings.REPORTS_PROVISIONAL_MINUTES},
        status=400 if errors else 200,
    )


def _context(request, report: DailyReport) -> dict:
    money = has_role(request.user, FINANCE, GAMING_MANAGER)
    lines = ReportLine.objects.filter(report=report)
    levels = (
        [
            (title, lines.filter(level=level).order_by("label"))
            for level, title in (
                ("floor", "Floor"),
                ("pit", "Pits"),
                ("game", "Games"),
                ("table", "Tables"),
            )
        ]
        if money
        else []
    )
    return {
        "report": report,
        "money": money,
        "levels": levels,
        "units": [line for _, rows in levels for line in rows],  # floor, pits, games, tables
        "wagers": ReportWagerLine.objects.filter(report=report, level="floor") if money else [],
        "outliers": lines.filter(level="table", outlier=True).order_by("label"),
        "dealers": DealerLine.objects.filter(report=report),
        "summary": report.summary or {},
        "formats": report_formats(report),
        "banner": provisional_banner(report),
        "edges_pending": edges_pending_notice(report),
        "decisions_pending": decisions_pending_notice(report),
        "running": report.status in (DailyReport.QUEUED, DailyReport.RUNNING),
        "stale": run_is_stale(report),
        "status_words": provisional_status(report),
        "legend": legend(),
        "explain": {key: text for key, (_, text) in COLUMNS.items()},  # header tooltips
    }


@replica_reads
@role_required(*READERS)
def report_day(request, pk: int):
    report = get_object_or_404(readable_reports(request.user), pk=pk)
    return render(request, "reports/day.html", _context(request, report))


@replica_reads
@role_required(*READERS)
def report_progress(request, pk: int):
    """The progress fragment the day page polls (htmx) while a run is going."""
    report = get_object_or_404(readable_reports(request.user), pk=pk)
    response = render(
        request,
        "reports/_progress.html",
        {
            "report": report,
            "running": report.status in (DailyReport.QUEUED, DailyReport.RUNNING),
            "stale": run_is_stale(report),
            "status_words": provisional_status(report),
        },
    )
    if report.status in (DailyReport.DONE, DailyReport.FAILED) and request.htmx:
        response["HX-Refresh"] = "true"  # show the finished report (or the failure) in full
    return response


@replica_reads
@role_required(*RUNNERS)
def report_file(request, pk: int):
    """``?file=csv|xlsx|pdf``: the day's file."""
    report = get_object_or_404(scope(DailyReport.objects.all(), request.user), pk=pk)
    fmt = request.GET.get("file", "pdf")
    if fmt not in FORMATS:
        raise Http404(f'"{fmt}" is not one of {", ".join(FORMATS)}')
    return report_file_response(report, fmt)


@replica_reads
@role_required(*RUNNERS)
def report_period_file(request):
    """``?casino=ID&kind=mtd|ytd&day=YYYY-MM-DD&file=csv|xlsx|pdf``: month- or year-to-date."""
    casino = _casino(request)
    kind, fmt = request.GET.get("kind", "mtd"), request.GET.get("file", "xlsx")
    if casino is None or kind not in ("mtd", "ytd") or fmt not in FORMATS:
        raise Http404("Give casino, kind (mtd or ytd) and file (csv, xlsx or pdf)")
    try:
        day = date.fromisoformat(request.GET.get("day", ""))
    except ValueError:
        done = (
            DailyReport.objects.filter(casino=casino, status=DailyReport.DONE, provisional=False)
            .order_by("-gaming_day")
            .first()
        )
        day = (
            done.gaming_day
            if done
            else gaming_day_of(timezone.now(), casino.time_zone, casino.gaming_day_start_hour)
        )
    path, name = period_file_write(casino, kind, day, fmt)
    return FileResponse(
        path.open("rb"), as_attachment=True, filename=name, content_type=FORMATS[fmt][1]
    )
