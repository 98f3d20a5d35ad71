"""Title 31 over the API (/api/v1/compliance/...): the settings, the cage's cash-outs, patrons'
identification (compliance only) and a gaming day's MTL, CTRs, flags and sign-off. Views parse
and call a service or selector; a refusal is a 400 naming the field, or a 403; nothing stored."""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from casino.api_fields import MoneyField, StrictBooleanField, StrictCharField
from casino.gaming_day import current_gaming_day
from casino.local_time import local_time_text
from casino.models import Casino
from casino.periods import PERIOD_PARAMETERS, PeriodBoundedListMixin
from casino.query_dates import query_date
from casino.roles import CAGE, COMPLIANCE, FINANCE, GAMING_MANAGER, has_role
from casino.scoping import CasinoScopedMixin, CasinoScopedRelatedField, scope, user_casino

from . import services
from .models import DIRECTIONS, CashOut, ComplianceSettings, PatronIdentification
from .selectors import compliance_day

#: Who reads the day's MTL, CTRs and flags: compliance, and the gaming manager who answers for the floor.
DAY_READERS = (COMPLIANCE, GAMING_MANAGER)
CASH_OUT_READERS = (CAGE, COMPLIANCE, GAMING_MANAGER, FINANCE)
_CASINO = OpenApiParameter("casino", int, description="The casino's id (default: your first casino)")
_DAY = OpenApiParameter("gaming_day", str, description="YYYY-MM-DD; default: the casino's current gaming day")


def _casino_and_day(request):
    errors = {}
    day = query_date(request.query_params)
    raw = request.query_params.get("casino", "")
    if raw and not raw.isdigit():
        errors["casino"] = [f'"{raw}" is not a casino id']
    if errors:
        raise serializers.ValidationError(errors)
    casino = user_casino(request.user, raw)
    if casino is None:  # a query parameter that names nothing of yours: a field error, as a filter's is
        raise serializers.ValidationError(
            {"casino": [f"No casino {raw} among yours." if raw else "You work at no casino; name one."]})
    return casino, day or current_gaming_day(casino)


# --- settings ----------------------------------------------------------------------------------

class ComplianceSettingsSerializer(serializers.ModelSerializer):
    class Meta:
        model = ComplianceSettings
        fields = ["id", "casino", "mtl_threshold", "ctr_threshold", "band_pct", "near_count"]


class ComplianceSettingsWriteSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    mtl_threshold = MoneyField(required=False)
    ctr_threshold = MoneyField(required=False)
    band_pct = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    near_count = serializers.IntegerField(min_value=2, max_value=100, required=False)
    reason = StrictCharField(max_length=500, help_text="Why: kept in the history with your name.")


class ComplianceSettingsViewSet(CasinoScopedMixin, viewsets.ReadOnlyModelViewSet):
    """The casino's Title 31 thresholds. A gaming manager or compliance posts the casino, the
    fields to change and a reason; the history keeps every version."""

    queryset = ComplianceSettings.objects.order_by("casino_id")
    serializer_class = ComplianceSettingsSerializer
    read_roles = DAY_READERS
    write_roles = services.SETTINGS_EDITORS

    @extend_schema(request=ComplianceSettingsWriteSerializer, responses={201: ComplianceSettingsSerializer},
                   examples=[OpenApiExample("Log from $2,500", request_only=True,
                                            value={"casino": 1, "mtl_threshold": "2500.00", "reason": "board policy"})])
    def create(self, request):
        payload = ComplianceSettingsWriteSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        values = dict(payload.validated_data)
        saved = services.settings_save(casino=values.pop("casino"), reason=values.pop("reason"),
                                       author=request.user, **values)
        return Response(ComplianceSettingsSerializer(saved).data, status=201)


# --- cash-outs ---------------------------------------------------------------------------------

class CashOutSerializer(serializers.ModelSerializer):
    recorded_by = serializers.StringRelatedField()
    voided = serializers.SerializerMethodField()
    void_reason = serializers.SerializerMethodField()

    class Meta:
        model = CashOut
        fields = ["id", "casino", "gaming_day", "kind", "amount", "player_identifier", "recorded_at", "recorded_by",
                  "corrects", "voided", "void_reason"]

    def get_voided(self, obj) -> bool:
        return hasattr(obj, "void")

    def get_void_reason(self, obj) -> str | None:
        return obj.void.reason if hasattr(obj, "void") else None


class CashOutCreateSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    kind = serializers.ChoiceField(choices=CashOut.KINDS)
    amount = MoneyField(help_text="More than 0.")
    player_identifier = StrictCharField(max_length=40, required=False, allow_blank=True, allow_null=True,
                                              default=None, help_text="The patron's card or ID, when known.")


class CashOutFixSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=CashOut.KINDS)
    amount = MoneyField()
    player_identifier = StrictCharField(max_length=40, required=False, allow_blank=True, allow_null=True,
                                              default=None)


class CashOutVoidSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=500)
    replacement = CashOutFixSerializer(required=False, allow_null=True, default=None,
                                       help_text="The right cash-out, recorded in its place.")


@extend_schema_view(list=extend_schema(parameters=PERIOD_PARAMETERS))
class CashOutViewSet(CasinoScopedMixin, PeriodBoundedListMixin, viewsets.ReadOnlyModelViewSet):
    """Currency the cage paid patrons (chips redeemed, other cash): the cage records them; the
    cashier who recorded one, or a gaming manager, voids it with a reason. The list reads one
    period of gaming days (casino/periods.py)."""

    queryset = CashOut.objects.select_related("recorded_by", "void").order_by("-recorded_at", "-id")
    serializer_class = CashOutSerializer
    read_roles = CASH_OUT_READERS
    write_roles = (CAGE,)
    action_roles = {"void": (CAGE, GAMING_MANAGER)}
    filterset_fields = ["casino", "gaming_day", "kind"]

    @extend_schema(request=CashOutCreateSerializer, responses={201: CashOutSerializer}, examples=[
        OpenApiExample("Chips redeemed", request_only=True,
                       value={"casino": 1, "kind": "chip_redemption", "amount": "4200.00",
                              "player_identifier": "CARD-10442"})])
    def create(self, request):
        payload = CashOutCreateSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        cash_out = services.cash_out_record(author=request.user, **payload.validated_data)
        return Response(CashOutSerializer(cash_out).data, status=201)

    @extend_schema(request=CashOutVoidSerializer, responses=CashOutSerializer)
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        payload = CashOutVoidSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        cash_out = self.get_object()
        services.cash_out_void(cash_out=cash_out, author=request.user, **payload.validated_data)
        return Response(CashOutSerializer(CashOut.objects.select_related("void").get(pk=cash_out.pk)).data)


# --- identification (compliance only) ---------------------------------------------------------

class IdentificationSerializer(serializers.ModelSerializer):
    identifier = StrictCharField(source="player.identifier", read_only=True)
    recorded_by = serializers.StringRelatedField()

    class Meta:
        model = PatronIdentification
        fields = ["id", "identifier", "player", "last_name", "first_name", "address", "date_of_birth", "tin",
                  "occupation", "document_type", "document_number", "document_issuer", "document_expiry",
                  "reason", "recorded_at", "recorded_by"]


class IdentificationWriteSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    identifier = StrictCharField(max_length=40, help_text="As recorded at the seat or the cage.")
    name = StrictCharField(max_length=120, required=False, default="",
                                 help_text="The name the floor knows, when the patron is not yet a player.")
    last_name = StrictCharField(max_length=80, required=False, allow_blank=True)
    first_name = StrictCharField(max_length=80, required=False, allow_blank=True)
    address = StrictCharField(max_length=500, required=False, allow_blank=True)
    date_of_birth = serializers.DateField(required=False, allow_null=True)
    tin = StrictCharField(max_length=20, required=False, allow_blank=True)
    occupation = StrictCharField(max_length=80, required=False, allow_blank=True)
    document_type = StrictCharField(max_length=40, required=False, allow_blank=True)
    document_number = StrictCharField(max_length=40, required=False, allow_blank=True)
    document_issuer = StrictCharField(max_length=80, required=False, allow_blank=True)
    document_expiry = serializers.DateField(required=False, allow_null=True)
    reason = StrictCharField(max_length=500, help_text="Why: 'ID shown at the cage', 'address corrected'.")


class IdentificationViewSet(viewsets.ReadOnlyModelViewSet):
    """Patrons' identification from their documents (FinCEN Form 112's Part I): compliance reads
    and records it; every other role is refused (403). A newer record supersedes the last."""

    queryset = PatronIdentification.objects.select_related("player", "recorded_by").order_by("-recorded_at", "-id")
    serializer_class = IdentificationSerializer
    read_roles = (COMPLIANCE,)
    write_roles = (COMPLIANCE,)
    filterset_fields = ["player"]

    def get_queryset(self):
        return scope(super().get_queryset(), self.request.user, "player__casino")

    @extend_schema(request=IdentificationWriteSerializer, responses={201: IdentificationSerializer}, examples=[
        OpenApiExample("A driver's license", request_only=True, value={
            "casino": 1, "identifier": "CARD-10442", "last_name": "Doe", "first_name": "Jane",
            "address": "1 Main St, Atlantic City, NJ 08401, USA", "date_of_birth": "1970-01-02", "tin": "123-45-6789",
            "document_type": "driver's license", "document_number": "D123-4567", "document_issuer": "NJ",
            "document_expiry": "2029-01-02", "reason": "ID shown at the cage"})])
    def create(self, request):
        payload = IdentificationWriteSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        values = dict(payload.validated_data)
        record = services.identification_record(casino=values.pop("casino"), identifier=values.pop("identifier"),
                                                reason=values.pop("reason"), author=request.user, **values)
        return Response(IdentificationSerializer(record).data, status=201)


# --- the day -----------------------------------------------------------------------------------

class TxnSerializer(serializers.Serializer):
    ref = StrictCharField(help_text="'buy-in 12' or 'cash-out 3'")
    direction = serializers.ChoiceField(choices=DIRECTIONS)
    amount = MoneyField()
    place = StrictCharField(help_text="The table's label, or 'cage'.")
    seat = serializers.IntegerField(allow_null=True)
    shift = serializers.IntegerField(help_text="1 to 3: eight-hour shifts from the gaming day's start hour.")
    recorded_at = serializers.DateTimeField()
    local_time = serializers.SerializerMethodField(help_text="In the casino's zone.")

    def get_local_time(self, obj) -> str:
        return local_time_text(obj.recorded_at, self.context["casino"])


class MtlPatronSerializer(serializers.Serializer):
    identifier = StrictCharField()
    name = StrictCharField(allow_blank=True)
    cash_in = MoneyField()
    cash_out = MoneyField()
    over_in = StrictBooleanField()
    over_out = StrictBooleanField()
    transactions = TxnSerializer(many=True)


class CtrSerializer(serializers.Serializer):
    subject = StrictCharField()
    identifier = StrictCharField(allow_null=True)
    direction = serializers.ChoiceField(choices=DIRECTIONS)
    total = MoneyField()
    missing = serializers.ListField(child=StrictCharField())
    exception = serializers.SerializerMethodField()
    waiting = StrictBooleanField(help_text="Keeps the day open: identification missing and no exception.")
    transactions = TxnSerializer(many=True)
    identification = IdentificationSerializer(required=False, allow_null=True,
                                              help_text="Compliance only: other roles get no such field.")

    def get_exception(self, obj) -> str | None:
        return obj.exception.reason if obj.exception else None

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not self.context.get("compliance"):
            data.pop("identification", None)
        return data


class FlagSerializer(serializers.Serializer):
    identifier = StrictCharField()
    direction = serializers.ChoiceField(choices=DIRECTIONS)
    kind = serializers.ChoiceField(choices=[("near", "near a threshold"), ("split", "split across tables/shifts")])
    threshold = StrictCharField()
    detail = StrictCharField()
    transactions = TxnSerializer(many=True)


class ComplianceDaySerializer(serializers.Serializer):
    casino = serializers.IntegerField(source="casino.pk")
    gaming_day = serializers.DateField()
    mtl_threshold = MoneyField(source="rules.mtl_threshold")
    ctr_threshold = MoneyField(source="rules.ctr_threshold")
    mtl = MtlPatronSerializer(many=True)
    ctrs = CtrSerializer(many=True)
    flags = FlagSerializer(many=True)
    unidentified = TxnSerializer(many=True)
    digest = StrictCharField()
    signed = StrictBooleanField()
    changed_since_signed = StrictBooleanField()
    signed_by = StrictCharField(source="sign_off.signed_by.username", allow_null=True, default=None)
    signed_at = serializers.DateTimeField(source="sign_off.signed_at", allow_null=True, default=None)


class SignOffSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    gaming_day = serializers.DateField()
    note = StrictCharField(max_length=500, required=False, allow_blank=True, default="")


class CtrExceptionSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    gaming_day = serializers.DateField()
    subject = StrictCharField(max_length=60, help_text="The CTR's subject as the day lists it.")
    direction = serializers.ChoiceField(choices=DIRECTIONS)
    reason = StrictCharField(max_length=500)


class ComplianceDayViewSet(viewsets.GenericViewSet):
    """A gaming day's multiple transaction log, required CTRs, structuring flags and unidentified
    transactions (compliance and gaming managers), signed off and settled by compliance."""

    serializer_class = ComplianceDaySerializer
    read_roles = DAY_READERS
    write_roles = (COMPLIANCE,)
    pagination_class = None

    def _answer(self, request, casino, day):
        context = {"casino": casino, "compliance": has_role(request.user, COMPLIANCE)}
        return Response(ComplianceDaySerializer(compliance_day(casino, day), context=context).data)

    @extend_schema(parameters=[_CASINO, _DAY], responses=ComplianceDaySerializer)
    @action(detail=False, methods=["get"])
    def mtl(self, request):
        casino, day = _casino_and_day(request)
        return self._answer(request, casino, day)

    @extend_schema(request=SignOffSerializer, responses=ComplianceDaySerializer)
    @action(detail=False, methods=["post"], url_path="sign-off", url_name="sign-off")
    def sign_off(self, request):
        payload = SignOffSerializer(data=request.data, context={"request": request})
        payload.is_valid(raise_exception=True)
        values = payload.validated_data
        services.mtl_sign_off(author=request.user, **values)
        return self._answer(request, values["casino"], values["gaming_day"])

    @extend_schema(request=CtrExceptionSerializer, responses=ComplianceDaySerializer)
    @action(detail=False, methods=["post"], url_path="ctr-exception", url_name="ctr-exception")
    def ctr_exception(self, request):
        payload = CtrExceptionSerializer(data=request.data, context={"request": request})
        payload.is_valid(raise_exception=True)
        values = payload.validated_data
        services.ctr_exception_record(author=request.user, **values)
        return self._answer(request, values["casino"], values["gaming_day"])
