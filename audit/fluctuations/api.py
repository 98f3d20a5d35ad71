"""The API of hold by period, the fluctuation bounds and the investigations. Views parse and
call a service or selector; a refusal is a 400 naming the field (or a 403), nothing stored."""

from __future__ import annotations

from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from casino.api_fields import StrictBooleanField, StrictCharField
from casino.db_routing import replica_reads_for
from casino.gaming_day import current_gaming_day
from casino.models import Casino
from casino.periods import PERIOD_DAY_PARAMETER, PERIOD_PARAMETERS, PeriodBoundedListMixin
from casino.query_dates import query_date
from casino.roles import FINANCE, GAMING_MANAGER
from casino.scoping import (
    CasinoScopedMixin,
    CasinoScopedRelatedField,
    scope,
    user_casino_ids,
    users_visible_to,
)

from . import services
from .models import PRESETS, FluctuationSettings, Investigation
from .periods import holds_over, standard_ranges
from .roles import HOLD_READERS, INVESTIGATION_READERS, SETTINGS_READERS
from .rows import PERIOD_NAMES, period_values

# --- the bounds ------------------------------------------------------------------------------------


class FluctuationSettingsSerializer(serializers.ModelSerializer):
    class Meta:
        model = FluctuationSettings
        fields = ["id", "casino", "preset", "prior_year_interval", "z", "monthly_swing", "swing_points", "band",
                  "band_min", "band_max"]


class FluctuationSettingsWriteSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    preset = serializers.ChoiceField(choices=PRESETS, required=False)
    prior_year_interval = StrictBooleanField(required=False)
    z = serializers.DecimalField(max_digits=4, decimal_places=2, required=False)
    monthly_swing = StrictBooleanField(required=False)
    swing_points = serializers.DecimalField(max_digits=7, decimal_places=2, required=False)
    band = StrictBooleanField(required=False)
    band_min = serializers.DecimalField(max_digits=7, decimal_places=2, required=False, allow_null=True)
    band_max = serializers.DecimalField(max_digits=7, decimal_places=2, required=False, allow_null=True)
    reason = StrictCharField(max_length=500, help_text="Why: kept in the history with your name.")


class FluctuationSettingsViewSet(CasinoScopedMixin, viewsets.ReadOnlyModelViewSet):
    """The casino's fluctuation bounds (one per casino). A gaming manager posts the casino, the
    fields to change and a reason; the history keeps every version with its author and reason."""

    queryset = FluctuationSettings.objects.order_by("casino_id")
    serializer_class = FluctuationSettingsSerializer
    read_roles = SETTINGS_READERS
    write_roles = (GAMING_MANAGER,)

    @extend_schema(request=FluctuationSettingsWriteSerializer, responses={201: FluctuationSettingsSerializer},
                   examples=[
                       OpenApiExample("Kansas's month-to-month swing", request_only=True,
                                      value={"casino": 1, "preset": "kansas", "reason": "K.A.R. 112-108-51"}),
                       OpenApiExample("A house band of 12% to 24%", request_only=True,
                                      value={"casino": 1, "preset": "custom", "band": True, "band_min": "12.00",
                                             "band_max": "24.00", "reason": "board policy of 2026-01"})])
    def create(self, request):
        payload = FluctuationSettingsWriteSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        values = dict(payload.validated_data)
        saved = services.settings_save(casino=values.pop("casino"), reason=values.pop("reason"),
                                       author=request.user, **values)
        return Response(FluctuationSettingsSerializer(saved).data, status=201)


# --- investigations ----------------------------------------------------------------------------------


class InvestigationSerializer(serializers.ModelSerializer):
    owner = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    concluded_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    signed_off_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = Investigation
        fields = ["id", "casino", "level", "key", "label", "period", "period_start", "period_end", "rule",
                  "drop_hold_pct", "bound_low", "bound_high", "figures", "explanation", "opened_at", "status", "owner",
                  "conclusion", "concluded_by", "concluded_at", "review_note", "signed_off_by", "signed_off_at"]


class InvestigationAssignSerializer(serializers.Serializer):
    owner = serializers.PrimaryKeyRelatedField(queryset=get_user_model().objects.all(),
                                               help_text="A user in finance or a gaming manager of the casino.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        request = self.context.get("request")
        if request is not None:
            self.fields["owner"].queryset = users_visible_to(request.user)


class InvestigationConcludeSerializer(serializers.Serializer):
    conclusion = StrictCharField(allow_blank=True, help_text="What caused the hold and what was done.")


class InvestigationReviewSerializer(serializers.Serializer):
    note = StrictCharField(allow_blank=True, required=False, default="",
                                 help_text="Sign-off: optional; sending back: what the conclusion lacks.")


class InvestigationCheckSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    gaming_day = serializers.DateField()


@extend_schema_view(list=extend_schema(parameters=[*PERIOD_PARAMETERS, PERIOD_DAY_PARAMETER]))
class InvestigationViewSet(CasinoScopedMixin, PeriodBoundedListMixin, viewsets.ReadOnlyModelViewSet):
    """Hold fluctuations investigated in writing: the owner (finance or a gaming manager) writes
    the conclusion, a gaming manager who did not write it signs it off or sends it back.

    The list reads the investigations of one period of gaming days (casino/periods.py): those
    whose own period (a day, a month) shares a day with it, as the investigations page filters."""

    queryset = Investigation.objects.select_related("owner", "concluded_by", "signed_off_by")
    serializer_class = InvestigationSerializer
    read_roles = INVESTIGATION_READERS
    action_roles = {"assign": services.OWNER_ROLES, "conclude": services.OWNER_ROLES,
                    "sign_off": services.SIGNER_ROLES, "send_back": services.SIGNER_ROLES,
                    "check": (FINANCE, GAMING_MANAGER)}
    filterset_fields = ["status", "period", "rule", "level", "period_start"]

    def period_filter(self, queryset, since, until):
        """An investigation is in the period when its own period overlaps it: a month's is in every
        period that has one of the month's days (``?gaming_day=`` a day: the day's and its month's)."""
        return queryset.filter(period_start__lte=until, period_end__gte=since)

    def _done(self, investigation):
        return Response(InvestigationSerializer(self.get_queryset().get(pk=investigation.pk)).data)

    @extend_schema(request=InvestigationAssignSerializer, responses=InvestigationSerializer,
                   examples=[OpenApiExample("Give it to finance", request_only=True, value={"owner": 7})])
    @action(detail=True, methods=["post"])
    def assign(self, request, pk=None):
        payload = InvestigationAssignSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        return self._done(services.investigation_assign(investigation=self.get_object(), author=request.user,
                                                        owner=payload.validated_data["owner"]))

    @extend_schema(request=InvestigationConcludeSerializer, responses=InvestigationSerializer, examples=[
        OpenApiExample("Luck, confirmed", request_only=True, value={
            "conclusion": "Two players won 14 hands at 500; surveillance reviewed the video: play was fair."})])
    @action(detail=True, methods=["post"])
    def conclude(self, request, pk=None):
        payload = InvestigationConcludeSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        return self._done(services.investigation_conclude(investigation=self.get_object(), author=request.user,
                                                          conclusion=payload.validated_data["conclusion"]))

    @extend_schema(request=InvestigationReviewSerializer, responses=InvestigationSerializer,
                   examples=[OpenApiExample("Signed off", request_only=True, value={"note": "agreed"})])
    @action(detail=True, methods=["post"], url_path="sign-off", url_name="sign-off")
    def sign_off(self, request, pk=None):
        payload = InvestigationReviewSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        return self._done(services.investigation_sign_off(investigation=self.get_object(), author=request.user,
                                                          note=payload.validated_data["note"]))

    @extend_schema(request=InvestigationReviewSerializer, responses=InvestigationSerializer, examples=[
        OpenApiExample("Sent back", request_only=True, value={"note": "attach the count team's recount"})])
    @action(detail=True, methods=["post"], url_path="send-back", url_name="send-back")
    def send_back(self, request, pk=None):
        payload = InvestigationReviewSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        return self._done(services.investigation_send_back(investigation=self.get_object(), author=request.user,
                                                           note=payload.validated_data["note"]))

    @extend_schema(request=InvestigationCheckSerializer, responses={200: InvestigationSerializer(many=True)},
                   examples=[OpenApiExample("Check 31 March", request_only=True,
                                            value={"casino": 1, "gaming_day": "2026-03-31"})])
    @action(detail=False, methods=["post"], pagination_class=None)
    def check(self, request):
        """Run the check for a day (it also runs after each final report): the ones opened now."""
        payload = InvestigationCheckSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        opened = services.check_day(casino=payload.validated_data["casino"],
                                    day=payload.validated_data["gaming_day"], author=request.user)
        return Response(InvestigationSerializer(opened, many=True).data)


# --- hold by period ------------------------------------------------------------------------------------


class PeriodFiguresSerializer(serializers.Serializer):
    start = serializers.DateField()
    end = serializers.DateField()
    stat_win = serializers.DecimalField(max_digits=18, decimal_places=2, allow_null=True)
    drop = serializers.DecimalField(max_digits=18, decimal_places=2, allow_null=True)
    drop_hold_pct = serializers.DecimalField(max_digits=9, decimal_places=4, allow_null=True)
    table_days = serializers.IntegerField()
    incomplete_table_days = serializers.IntegerField()
    recorded_win = serializers.DecimalField(max_digits=18, decimal_places=2)
    expected_win = serializers.DecimalField(max_digits=18, decimal_places=2)
    theo_win = serializers.DecimalField(max_digits=18, decimal_places=2)
    theo_sd = serializers.DecimalField(max_digits=18, decimal_places=2)


class PeriodHoldRowSerializer(serializers.Serializer):
    casino = serializers.IntegerField()
    level = StrictCharField()
    key = StrictCharField()
    label = StrictCharField()
    day = PeriodFiguresSerializer()
    mtd = PeriodFiguresSerializer()
    ytd = PeriodFiguresSerializer()
    day_py = PeriodFiguresSerializer()
    mtd_py = PeriodFiguresSerializer()
    ytd_py = PeriodFiguresSerializer()


_DAY = OpenApiParameter("gaming_day", str, description="YYYY-MM-DD; default: the last gaming day that ended")


def _gaming_day(request) -> date:
    day = query_date(request.query_params)
    if day is not None:
        return day
    casino = scope(Casino.objects.order_by("pk"), request.user, "pk").first()
    return (current_gaming_day(casino) if casino else timezone.now().date()) - timedelta(days=1)


_CASINO = OpenApiParameter("casino", int, description="One casino's units (default: all of yours)")


class PeriodHoldViewSet(viewsets.ViewSet):
    """Statistical win, drop and hold % per table, pit, game and floor for the day, month- and
    year-to-date, each beside the same period of the prior year."""

    read_roles = HOLD_READERS

    @extend_schema(parameters=[_DAY, _CASINO], responses=PeriodHoldRowSerializer(many=True))
    def list(self, request):
        with replica_reads_for(request):
            return self._list(request)

    def _list(self, request):
        ids = user_casino_ids(request.user)
        raw = request.query_params.get("casino")
        if raw:
            casino = scope(Casino.objects.filter(pk=int(raw) if raw.isdigit() else None), request.user, "pk").first()
            if casino is None:
                raise serializers.ValidationError({"casino": [f'"{raw}" is not one of your casinos']})
            ids = [casino.pk]
        rows = []
        for unit in holds_over(ids, standard_ranges(_gaming_day(request))):
            row = {"casino": unit.casino_id, "level": unit.level, "key": unit.key, "label": unit.label}
            row.update({name: period_values(unit.periods[name]) for name in PERIOD_NAMES})
            rows.append(row)
        return Response(PeriodHoldRowSerializer(rows, many=True).data)
