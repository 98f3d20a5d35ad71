"""The gaming-day close over the API: the history (closes, reopens, what each re-run changed),
what a day still waits for, and a gaming manager's reopen. A service's ValidationError becomes
a 400 with the field named, and nothing is stored."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from casino.api_fields import StrictBooleanField, StrictCharField
from casino.gaming_day import current_gaming_day
from casino.models import Casino
from casino.periods import PERIOD_PARAMETERS, PeriodBoundedListMixin
from casino.query_dates import query_date
from casino.roles import GAMING_MANAGER
from casino.scoping import CasinoScopedMixin, scope
from tables.closing.models import DayClose, DayReopen, ReopenRerun
from tables.closing.selectors import HISTORY_READERS, closes
from tables.closing.services.check import day_close_current
from tables.closing.services.close import close_waiting
from tables.closing.services.reopen import day_reopen


class ClosingRerunSerializer(serializers.ModelSerializer):
    report_run = serializers.UUIDField(source="after.run_id", read_only=True)
    changes = serializers.JSONField(help_text='[{"line": "table:12", "label", "change": "changed|added|removed", '
                                              '"columns": {"win": ["1200.00", "1150.00"]}}]')

    class Meta:
        model = ReopenRerun
        fields = ["report_run", "recorded_at", "changes"]


class ClosingReopenSerializer(serializers.ModelSerializer):
    reopened_by = serializers.StringRelatedField()
    report_run_before = serializers.UUIDField(source="before.run_id", read_only=True)
    rerun = serializers.SerializerMethodField(help_text="null until the re-run has finished.")

    class Meta:
        model = DayReopen
        fields = ["id", "reason", "reopened_by", "reopened_at", "report_run_before", "rerun"]

    @extend_schema_field(ClosingRerunSerializer(allow_null=True))
    def get_rerun(self, obj):
        return ClosingRerunSerializer(obj.rerun).data if hasattr(obj, "rerun") else None


class DayCloseSerializer(serializers.ModelSerializer):
    report = serializers.IntegerField(source="final_run.report_id", read_only=True)
    report_run = serializers.UUIDField(source="final_run.run_id", read_only=True)
    counts = serializers.JSONField(help_text="The signed counts it closed on: [{box, table, revision, signature, "
                                             "drop}].")
    reopen = serializers.SerializerMethodField(help_text="null while the close stands.")

    class Meta:
        model = DayClose
        fields = ["id", "casino", "gaming_day", "closed_at", "report", "report_run", "counts", "reopen"]

    @extend_schema_field(ClosingReopenSerializer(allow_null=True))
    def get_reopen(self, obj):
        return ClosingReopenSerializer(obj.reopen).data if hasattr(obj, "reopen") else None


class DayReopenRequestSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=2000, help_text="Why the day's records must change; kept with your name.")


class DayStatusSerializer(serializers.Serializer):
    casino = serializers.IntegerField()
    gaming_day = serializers.DateField()
    closed = StrictBooleanField()
    waiting = serializers.ListField(child=StrictCharField(),
                                    help_text="What the day waits for before it closes ([] when closed).")


_CASINO = OpenApiParameter("casino", int, description="default: your first casino")
_DAY = OpenApiParameter("gaming_day", str, description="YYYY-MM-DD; default: the casino's current gaming day")


@extend_schema_view(list=extend_schema(parameters=PERIOD_PARAMETERS))
class DayCloseViewSet(CasinoScopedMixin, PeriodBoundedListMixin, viewsets.ReadOnlyModelViewSet):
    """Closes of gaming days, each with its reopen (who, when, why) and what the final report's
    re-run changed. A day closes by itself (tables/closing/README.md); a gaming manager reopens it.
    The list reads the closes of one period of gaming days (casino/periods.py)."""

    queryset = closes()
    serializer_class = DayCloseSerializer
    read_roles = HISTORY_READERS
    action_roles = {"reopen": (GAMING_MANAGER,)}
    filterset_fields = ["casino", "gaming_day"]

    @extend_schema(request=DayReopenRequestSerializer, responses={201: DayCloseSerializer}, examples=[
        OpenApiExample("A fill slip keyed on the wrong table", request_only=True,
                       value={"reason": "F-000123 was received at BJ-2, not BJ-1: void and re-key"}),
    ])
    @action(detail=True, methods=["post"])
    def reopen(self, request, pk=None):
        """Reopen the day of this close (it must be the close that stands): its records may change
        again, and the day's final report is re-run; the day closes again by the same rule."""
        close = self.get_object()
        payload = DayReopenRequestSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        day_reopen(casino=close.casino, gaming_day=close.gaming_day, reason=payload.validated_data["reason"],
                   author=request.user)
        return Response(DayCloseSerializer(closes(DayClose.objects.filter(pk=close.pk)).get()).data, status=201)

    @extend_schema(parameters=[_CASINO, _DAY], responses=DayStatusSerializer)
    @action(detail=False, methods=["get"])
    def status(self, request):
        """Whether a day is closed, and if not what it still waits for."""
        casinos = scope(Casino.objects.order_by("pk"), request.user, "pk")
        raw_casino = request.query_params.get("casino", "")
        casino = casinos.filter(pk=raw_casino).first() if raw_casino.isdigit() else (
            None if raw_casino else casinos.first())
        if casino is None:
            raise serializers.ValidationError({"casino": ["give one of your casinos' ids"]})
        day = query_date(request.query_params) or current_gaming_day(casino, timezone.now())
        return Response(DayStatusSerializer({
            "casino": casino.pk, "gaming_day": day, "closed": day_close_current(casino.pk, day) is not None,
            "waiting": close_waiting(casino.pk, day)}).data)
