"""Daily reports over the API: list of days with status, start/retry a run, the report, its files.

Finance and gaming managers read everything and start runs; surveillance reads only the
outlier and dealer sections.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404
from django.urls import reverse
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from casino.roles import FINANCE, GAMING_MANAGER, SURVEILLANCE, has_role
from casino.scoping import CasinoScopedMixin, CasinoScopedRelatedField
from tables.models import Casino

from .models import DailyReport, DealerLine, ReportLine, ReportWagerLine
from .services.runs import report_request, run_is_stale
from .views import report_file_response

READERS = (FINANCE, GAMING_MANAGER, SURVEILLANCE)
RUNNERS = (FINANCE, GAMING_MANAGER)


class DailyReportSerializer(serializers.ModelSerializer):
    casino_name = serializers.CharField(source="casino.name", read_only=True)
    progress = serializers.IntegerField(read_only=True)
    stale = serializers.SerializerMethodField()
    downloads = serializers.SerializerMethodField()
    chains = serializers.SerializerMethodField()

    class Meta:
        model = DailyReport
        fields = [
            "id",
            "casino",
            "casino_name",
            "gaming_day",
            "status",
            "progress",
            "error",
            "runs",
            "chunks_total",
            "chunks_done",
            "requested_via",
            "queued_at",
            "started_at",
            "finished_at",
            "heartbeat_at",
            "stale",
            "period_start",
            "period_end",
            "engine_version",
            "chain_head",
            "chains",
            "downloads",
        ]

    def get_chains(self, obj) -> int:
        """How many of the casino's chains (tables, jackpot banks) ``chain_head`` covers."""
        return (obj.summary or {}).get("chains", 0)

    def get_stale(self, obj) -> bool:
        """Queued or running with no progress for REPORTS_STALE_SECONDS: a retry is accepted."""
        return run_is_stale(obj)

    def get_downloads(self, obj) -> dict:
        request = self.context.get("request")
        if (
            obj.status != DailyReport.DONE
            or request is None
            or not has_role(request.user, *RUNNERS)
        ):
            return {}
        url = reverse("dailyreport-download", args=[obj.pk])
        return {fmt: request.build_absolute_uri(f"{url}?file={fmt}") for fmt in obj.files}


class LineSerializer(serializers.ModelSerializer):
    class Meta:
        model = ReportLine
        exclude = ["id", "report"]


class WagerLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = ReportWagerLine
        exclude = ["id", "report"]


class DealerLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = DealerLine
        exclude = ["id", "report"]


class RequestSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    gaming_day = serializers.DateField()
    full = serializers.BooleanField(
        default=False, help_text="Re-audit every round, not only older-engine ones."
    )


class RerunSerializer(serializers.Serializer):
    full = serializers.BooleanField(default=False)


class DailyReportFilter(filters.FilterSet):
    since = filters.DateFilter(field_name="gaming_day", lookup_expr="gte")
    until = filters.DateFilter(field_name="gaming_day", lookup_expr="lte")

    class Meta:
        model = DailyReport
        fields = ["casino", "status", "gaming_day", "since", "until"]


def _validation(exc: ValidationError):
    return serializers.ValidationError(
        exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
    )


class DailyReportViewSet(CasinoScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Gaming days and their reconciliation: ``POST`` starts (or re-runs) a day."""

    queryset = DailyReport.objects.select_related("casino")
    serializer_class = DailyReportSerializer
    filterset_class = DailyReportFilter
    read_roles = READERS
    write_roles = RUNNERS

    @extend_schema(request=RequestSerializer, responses={202: DailyReportSerializer})
    def create(self, request):
        """Start the reconciliation of a past gaming day (replaces its report when it runs)."""
        payload = RequestSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        try:
            report = report_request(requested_by=request.user, via="api", **payload.validated_data)
        except ValidationError as exc:
            raise _validation(exc) from None
        report.refresh_from_db()
        return Response(self.get_serializer(report).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=RerunSerializer, responses={202: DailyReportSerializer})
    @action(detail=True, methods=["post"])
    def rerun(self, request, pk=None):
        """Retry a failed or stale run, or re-run a finished day."""
        report = self.get_object()
        payload = RerunSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        try:
            report = report_request(
                casino=report.casino,
                gaming_day=report.gaming_day,
                requested_by=request.user,
                via="api",
                **payload.validated_data,
            )
        except ValidationError as exc:
            raise _validation(exc) from None
        report.refresh_from_db()
        return Response(self.get_serializer(report).data, status=status.HTTP_202_ACCEPTED)

    def retrieve(self, request, *args, **kwargs):
        """The report: status, and when done its lines (surveillance: outliers and dealers only)."""
        report = self.get_object()
        body = self.get_serializer(report).data
        if report.status == DailyReport.DONE:
            lines = ReportLine.objects.filter(report=report)
            if has_role(request.user, FINANCE, GAMING_MANAGER):
                body["lines"] = LineSerializer(lines, many=True).data
                body["wagers"] = WagerLineSerializer(
                    ReportWagerLine.objects.filter(report=report), many=True
                ).data
                body["summary"] = report.summary
            body["outliers"] = LineSerializer(
                lines.filter(level="table", outlier=True), many=True
            ).data
            body["dealers"] = DealerLineSerializer(
                DealerLine.objects.filter(report=report), many=True
            ).data
        return Response(body)

    @extend_schema(
        parameters=[OpenApiParameter("file", str, enum=["csv", "xlsx", "pdf"])],
        responses={(200, "application/octet-stream"): bytes},
    )
    @action(detail=True, methods=["get"], read_roles=RUNNERS)
    def download(self, request, pk=None) -> FileResponse:
        """The day's CSV, XLSX or PDF (``?file=csv``)."""
        report = self.get_object()
        fmt = request.query_params.get("file", "csv")
        if fmt not in ("csv", "xlsx", "pdf"):
            raise serializers.ValidationError({"file": [f'"{fmt}" is not one of csv, xlsx, pdf']})
        try:
            return report_file_response(report, fmt)
        except Http404 as exc:
            raise serializers.ValidationError({"file": [str(exc)]}) from None
