"""Daily reports over the API: list of days with status, start/retry a run, the report, its files.

Finance and gaming managers read everything and start runs; surveillance reads only the
outlier and dealer sections.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404
from django.urls import reverse
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from audit.decisions.figures import PLAY_QUALITY
from casino.api_fields import StrictBooleanField, StrictCharField
from casino.api_filters import StrictFilterSet
from casino.db_routing import ReplicaReadsMixin
from casino.models import Casino
from casino.periods import PeriodBoundedListMixin, period_parameters
from casino.roles import FINANCE, GAMING_MANAGER, SURVEILLANCE, has_role
from casino.scoping import CasinoScopedMixin, CasinoScopedRelatedField, scope
from tables.accounting.api import AccountingFindingSerializer

from .exporters import FORMATS, decisions_pending_notice, provisional_banner
from .models import DailyReport, DealerLine, ReportLine, ReportWagerLine
from .selectors_cash import open_unexplained_findings
from .services.runs import current_gaming_day, provisional_request, report_request, run_is_stale
from .views import report_file_response

READERS = (FINANCE, GAMING_MANAGER, SURVEILLANCE)
RUNNERS = (FINANCE, GAMING_MANAGER)


class DailyReportSerializer(serializers.ModelSerializer):
    casino_name = StrictCharField(source="casino.name", read_only=True)
    progress = serializers.IntegerField(read_only=True)
    stale = serializers.SerializerMethodField()
    downloads = serializers.SerializerMethodField()
    chains = serializers.SerializerMethodField()
    as_of = serializers.DateTimeField(
        read_only=True, allow_null=True,
        help_text="Play counted until: the day's end, or when a provisional run read the rounds.",
    )
    notice = serializers.SerializerMethodField()
    decisions_pending = serializers.SerializerMethodField()
    decisions_notice = serializers.SerializerMethodField()

    class Meta:
        model = DailyReport
        fields = [
            "id",
            "casino",
            "casino_name",
            "gaming_day",
            "provisional",
            "as_of",
            "notice",
            "decisions_pending",
            "decisions_notice",
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

    def get_notice(self, obj) -> str:
        """A provisional report's mark ("Provisional — today so far, as of ..."); "" when final."""
        return provisional_banner(obj)

    def get_decisions_pending(self, obj) -> int | None:
        """Rounds of the day still queued for the decisions' pricing when the report was built: their
        decisions' cost is not in the lines' ``decision_cost`` and ``decision_theo`` until a re-run (null:
        not built yet, or built before decisions were priced)."""
        return ((obj.summary or {}).get("decisions") or {}).get("pending")

    def get_decisions_notice(self, obj) -> str:
        """What the page says of those rounds ("" when every round's decisions were priced)."""
        return decisions_pending_notice(obj)

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


class WinExplanationSerializer(serializers.Serializer):
    """Why the unit won or lost (audit/reports/explain.py): edge + luck + errors = win."""

    edge = serializers.DecimalField(max_digits=16, decimal_places=2, help_text="House edge: the theoretical win.")
    luck = serializers.DecimalField(max_digits=16, decimal_places=2,
                                    help_text="Win if settled right - theoretical win.")
    errors = serializers.DecimalField(max_digits=16, decimal_places=2,
                                      help_text="Dealer error: win - win if settled right (- the house lost).")
    z = serializers.DecimalField(max_digits=10, decimal_places=2, allow_null=True,
                                 help_text="Luck in standard deviations of the win (null without a spread).")
    percentile = serializers.DecimalField(max_digits=5, decimal_places=1, allow_null=True)
    within_95 = StrictBooleanField(allow_null=True, help_text="The settled-right win is in its 95% interval.")
    text = StrictCharField(help_text="The written explanation.")


class LineSerializer(serializers.ModelSerializer):
    why = serializers.SerializerMethodField()
    cash_text = serializers.SerializerMethodField()
    play_quality_text = StrictCharField(
        read_only=True, help_text=PLAY_QUALITY[1] + ' As the page shows it: "0.84% of the priced handle".')

    class Meta:
        model = ReportLine
        exclude = ["id", "report"]

    @extend_schema_field(WinExplanationSerializer)
    def get_why(self, obj) -> dict:
        why = obj.explanation
        return WinExplanationSerializer({**why.__dict__, "text": why.text}).data

    def get_cash_text(self, obj) -> str:
        """"count pending" (never a zero win) for a table without a statistical win; for a roll-up, how
        many tables its cash figures add and how many they left out."""
        return obj.cash_text


class WagerLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = ReportWagerLine
        exclude = ["id", "report"]


class DealerLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = DealerLine
        exclude = ["id", "report"]


class ProvisionalReportSerializer(DailyReportSerializer):
    """Today so far, with its lines once its run is done (outliers: the table lines flagged)."""

    lines = serializers.SerializerMethodField()
    wagers = serializers.SerializerMethodField()
    dealers = serializers.SerializerMethodField()

    class Meta(DailyReportSerializer.Meta):
        fields = [*DailyReportSerializer.Meta.fields, "summary", "lines", "wagers", "dealers"]

    def _done(self, obj, model, serializer):
        rows = model.objects.filter(report=obj) if obj.status == DailyReport.DONE else model.objects.none()
        return serializer(rows, many=True).data

    @extend_schema_field(LineSerializer(many=True))
    def get_lines(self, obj):
        return self._done(obj, ReportLine, LineSerializer)

    @extend_schema_field(WagerLineSerializer(many=True))
    def get_wagers(self, obj):
        return self._done(obj, ReportWagerLine, WagerLineSerializer)

    @extend_schema_field(DealerLineSerializer(many=True))
    def get_dealers(self, obj):
        return self._done(obj, DealerLine, DealerLineSerializer)


class ProvisionalRequestSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")


class RequestSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    gaming_day = serializers.DateField()
    full = StrictBooleanField(
        default=False, help_text="Re-audit every round, not only older-engine ones."
    )


class RerunSerializer(serializers.Serializer):
    full = StrictBooleanField(default=False)


class DailyReportFilter(StrictFilterSet):
    class Meta:
        model = DailyReport
        fields = ["casino", "status", "gaming_day"]  # since/until: the list's period (casino/periods.py)


def _validation(exc: ValidationError):
    return serializers.ValidationError(
        exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
    )


@extend_schema_view(list=extend_schema(parameters=period_parameters("since", "until")))
class DailyReportViewSet(ReplicaReadsMixin, CasinoScopedMixin, PeriodBoundedListMixin, mixins.ListModelMixin,
                         mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Gaming days and their reconciliation: ``POST`` starts (or re-runs) a day. The list reads
    one period of gaming days, ``?since=&until=`` (its names before periods were the rule; by
    default the last 30 days, casino/periods.py)."""

    period_params = ("since", "until")

    queryset = DailyReport.objects.select_related("casino")
    serializer_class = DailyReportSerializer
    filterset_class = DailyReportFilter
    read_roles = READERS
    write_roles = RUNNERS

    def get_queryset(self):
        """Final reports; a provisional one is read through ``provisional`` (and downloaded)."""
        reports = super().get_queryset()
        return reports if self.action == "download" else reports.filter(provisional=False)

    @extend_schema(
        methods=["GET"],
        parameters=[OpenApiParameter("casino", int, description="One of your casinos (default: all)")],
        responses={200: ProvisionalReportSerializer(many=True)},
    )
    @extend_schema(
        methods=["POST"], request=ProvisionalRequestSerializer, responses={202: DailyReportSerializer}
    )
    @action(detail=False, methods=["get", "post"], read_roles=RUNNERS, pagination_class=None, filter_backends=[])
    def provisional(self, request):
        """Today so far: GET the current gaming day's provisional report of each of your
        casinos; POST ``{"casino": id}`` refreshes one (finance and gaming managers)."""
        if request.method == "POST":
            payload = ProvisionalRequestSerializer(data=request.data, context=self.get_serializer_context())
            payload.is_valid(raise_exception=True)
            try:
                report = provisional_request(
                    casino=payload.validated_data["casino"], requested_by=request.user, via="api"
                )
            except ValidationError as exc:
                raise _validation(exc) from None
            report.refresh_from_db()
            return Response(self.get_serializer(report).data, status=status.HTTP_202_ACCEPTED)
        casinos = scope(Casino.objects.order_by("name"), request.user, "pk")
        wanted = request.query_params.get("casino")
        if wanted is not None:
            if not wanted.isdigit():
                raise serializers.ValidationError({"casino": [f'"{wanted}" is not a casino id']})
            casinos = casinos.filter(pk=int(wanted))
        reports = [
            report
            for casino in casinos
            for report in DailyReport.objects.select_related("casino").filter(
                casino=casino, gaming_day=current_gaming_day(casino), provisional=True
            )
        ]
        return Response(
            ProvisionalReportSerializer(reports, many=True, context=self.get_serializer_context()).data
        )

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
            if not report.provisional:  # the open unexplained differences of the day (README, point 2)
                body["unexplained_differences"] = AccountingFindingSerializer(
                    open_unexplained_findings([report.casino_id], gaming_day=report.gaming_day), many=True
                ).data
        return Response(body)

    @extend_schema(
        parameters=[OpenApiParameter("file", str, enum=list(FORMATS))],
        # Each file with the media type it is served with (exporters.FORMATS), not one generic
        # octet-stream: a client and the schema checks see what the response says.
        responses={(200, content_type.split(";")[0]): bytes for _, content_type in FORMATS.values()},
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
