"""Buy-ins, drop boxes and the count over the API. Views parse and call a service or selector;
a service's ValidationError becomes a 400 with the field named, and nothing is stored."""

from __future__ import annotations

from datetime import date

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from casino.api_fields import MoneyField, StrictCharField
from casino.gaming_day import current_gaming_day
from casino.models import Casino
from casino.periods import PERIOD_DAY_PARAMETER, PERIOD_PARAMETERS, PeriodBoundedListMixin
from casino.query_dates import query_date
from casino.roles import (
    ALL_ROLES,
    COMPLIANCE,
    COUNT,
    FINANCE,
    GAMING_MANAGER,
    PIT_BOSS,
    SURVEILLANCE,
)
from casino.scoping import CasinoScopedMixin, CasinoScopedRelatedField, scope, user_casino_ids
from tables.accounting import exports, exports_drop
from tables.accounting.models import BuyIn, DropBox, SoftCount, SoftCountLine
from tables.accounting.selectors_drop import estimated_drop
from tables.accounting.services.buyins import buy_in_record, buy_in_void
from tables.accounting.services.drop_boxes import drop_box_drop
from tables.accounting.services.soft_count import soft_count_enter, soft_count_sign
from tables.models import Table

#: Who reads the drop and the count: the count room, finance, and those who check them.
COUNT_READERS = (COUNT, FINANCE, GAMING_MANAGER, SURVEILLANCE, COMPLIANCE)
#: Who drops and counts (finance only where the casino's count settings say so: the service
#: refuses it otherwise, naming the field).
COUNTERS = (COUNT, FINANCE)

_DAY = OpenApiParameter("gaming_day", str, description="YYYY-MM-DD; default: the current gaming day")
#: An export answers CSV or XLSX, as ``file`` asks (tables/accounting/exports.py).
_FILE_RESPONSES = {(200, content_type.split(";")[0]): bytes for content_type in exports.FORMATS.values()}
_FORMAT = OpenApiParameter("file", str, enum=list(exports.FORMATS), description="csv (default) or xlsx")


def _gaming_day(request) -> date:
    day = query_date(request.query_params)
    if day is not None:
        return day
    casino = scope(Casino.objects.order_by("pk"), request.user, "pk").first()
    if casino is None:
        return timezone.now().date()
    return current_gaming_day(casino, timezone.now())


def _export(request, kind: str, columns, rows_of) -> HttpResponse:
    fmt = request.query_params.get("file", "csv")
    if fmt not in exports.FORMATS:
        raise serializers.ValidationError({"file": [f'"{fmt}" is not one of {", ".join(exports.FORMATS)}']})
    day = _gaming_day(request)
    return exports.download(fmt, f"{kind}-{day}", f"{kind} {day}", columns, rows_of(user_casino_ids(request.user), day))


# --- buy-ins ---------------------------------------------------------------------------------


class BuyInSerializer(serializers.ModelSerializer):
    table_label = StrictCharField(source="table.label", read_only=True)
    recorded_by = serializers.StringRelatedField()
    voided = serializers.SerializerMethodField()
    void_reason = serializers.SerializerMethodField()

    class Meta:
        model = BuyIn
        fields = ["id", "table", "table_label", "gaming_day", "seat", "kind", "amount", "player_identifier",
                  "recorded_at", "recorded_by", "corrects", "voided", "void_reason"]

    def get_voided(self, obj) -> bool:
        return hasattr(obj, "void")

    def get_void_reason(self, obj) -> str | None:
        return obj.void.reason if hasattr(obj, "void") else None


class BuyInCreateSerializer(serializers.Serializer):
    table = CasinoScopedRelatedField(queryset=Table.objects.all(), casino_path="pit__casino")
    seat = serializers.IntegerField(min_value=1, max_value=7, help_text="As the table shows it.")
    kind = serializers.ChoiceField(choices=BuyIn.KINDS)
    amount = MoneyField(help_text="More than 0.")
    player_identifier = StrictCharField(max_length=40, required=False, allow_blank=True, allow_null=True,
                                              default=None, help_text="The player's card or ID, when known.")


class BuyInFixSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=7)
    kind = serializers.ChoiceField(choices=BuyIn.KINDS)
    amount = MoneyField()
    player_identifier = StrictCharField(max_length=40, required=False, allow_blank=True, allow_null=True,
                                              default=None)


class BuyInVoidSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=500)
    replacement = BuyInFixSerializer(required=False, allow_null=True, default=None,
                                     help_text="The right buy-in, recorded in its place.")


class EstimatedDropSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    cash = MoneyField()
    marker = MoneyField()
    chips = MoneyField()
    estimated_drop = MoneyField(help_text="cash + markers: what went into the drop box")


@extend_schema_view(list=extend_schema(parameters=PERIOD_PARAMETERS))
class BuyInViewSet(CasinoScopedMixin, PeriodBoundedListMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Buy-ins at the tables: the pit boss records them; the pit boss who recorded one, or a
    gaming manager, voids it with a reason (and may record the right one in its place).

    The list reads one period of gaming days (casino/periods.py)."""

    queryset = BuyIn.objects.select_related("table", "recorded_by", "void").order_by("-recorded_at", "-id")
    serializer_class = BuyInSerializer
    read_roles = ALL_ROLES
    write_roles = (PIT_BOSS,)
    action_roles = {"void": (PIT_BOSS, GAMING_MANAGER)}
    filterset_fields = ["table", "gaming_day", "kind", "seat"]

    @extend_schema(request=BuyInCreateSerializer, responses={201: BuyInSerializer}, examples=[
        OpenApiExample("Cash at seat 3", request_only=True,
                       value={"table": 1, "seat": 3, "kind": "cash", "amount": "500.00",
                              "player_identifier": "CARD-10442"}),
        OpenApiExample("A marker, player unknown", request_only=True,
                       value={"table": 1, "seat": 5, "kind": "marker", "amount": "2000.00"}),
    ])
    def create(self, request):
        payload = BuyInCreateSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        buy_in = buy_in_record(author=request.user, **payload.validated_data)
        return Response(BuyInSerializer(buy_in).data, status=201)

    @extend_schema(request=BuyInVoidSerializer, responses=BuyInSerializer, examples=[
        OpenApiExample("Void and record the right amount", request_only=True,
                       value={"reason": "keyed 300 for 200", "replacement": {"seat": 3, "kind": "cash",
                                                                             "amount": "200.00"}}),
    ])
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        payload = BuyInVoidSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        buy_in = self.get_object()
        buy_in_void(buy_in=buy_in, author=request.user, **payload.validated_data)
        return Response(BuyInSerializer(BuyIn.objects.select_related("void").get(pk=buy_in.pk)).data)

    @extend_schema(parameters=[_DAY], responses=EstimatedDropSerializer(many=True))
    # One row per table of the day: not paged, and not filtered (the list's filters, ``?table=``
    # and the rest, are not its parameters: the schema claimed them and the action ignored them).
    @action(detail=False, methods=["get"], url_path="estimated-drop", url_name="estimated-drop",
            pagination_class=None, filter_backends=[])
    def estimated_drop(self, request):
        """Per table, the day's buy-ins that stand, by kind, and the estimated drop."""
        figures = estimated_drop(user_casino_ids(request.user), _gaming_day(request))
        return Response([{"table": t, **{k: str(v) for k, v in f.items()}} for t, f in sorted(figures.items())])

    @extend_schema(parameters=[_DAY, _FORMAT], responses=_FILE_RESPONSES)
    @action(detail=False, methods=["get"], url_path="export", url_name="export")
    def export(self, request):
        return _export(request, "buy-ins", exports_drop.BUY_IN_COLUMNS, exports_drop.buy_in_rows)


# --- drop boxes and the count ------------------------------------------------------------------


class CountLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = SoftCountLine
        fields = ["kind", "value", "quantity", "amount"]


class SoftCountSerializer(serializers.ModelSerializer):
    counted_by = serializers.StringRelatedField()
    signed_by = serializers.SerializerMethodField()
    signed_at = serializers.SerializerMethodField()
    lines = CountLineSerializer(many=True, read_only=True)

    class Meta:
        model = SoftCount
        fields = ["id", "box", "revision", "reason", "counted_by", "counted_at", "signed_by", "signed_at",
                  "currency", "chips", "markers", "coupons", "drop", "lines"]

    def get_signed_by(self, obj) -> str | None:
        return str(obj.signature.signed_by) if hasattr(obj, "signature") else None

    def get_signed_at(self, obj) -> str | None:
        return obj.signature.signed_at.isoformat() if hasattr(obj, "signature") else None


class DropBoxSerializer(serializers.ModelSerializer):
    table_label = StrictCharField(source="table.label", read_only=True)
    dropped_at = serializers.SerializerMethodField()
    current_count = serializers.SerializerMethodField()

    class Meta:
        model = DropBox
        fields = ["id", "table", "table_label", "gaming_day", "created_at", "dropped_at", "current_count"]

    def get_dropped_at(self, obj) -> str | None:
        return obj.drop.dropped_at.isoformat() if hasattr(obj, "drop") else None

    def get_current_count(self, obj) -> int | None:
        """The latest signed revision's id."""
        signed = obj.counts.filter(signature__isnull=False).order_by("-revision").first()
        return signed.pk if signed else None


class DropSerializer(serializers.Serializer):
    table = CasinoScopedRelatedField(queryset=Table.objects.all(), casino_path="pit__casino")
    gaming_day = serializers.DateField()



class CountEnterSerializer(serializers.Serializer):
    currency = serializers.ListField(child=serializers.DictField(), required=False, default=list,
                                     help_text="Notes by value: [{denomination, count}]")
    chips = serializers.ListField(child=serializers.DictField(), required=False, default=list,
                                  help_text="Chips by the chip set's denominations: [{denomination, count}]")
    markers = MoneyField(required=False, default="0")
    coupons = MoneyField(required=False, default="0")
    reason = StrictCharField(max_length=500, required=False, allow_blank=True, default="",
                                   help_text="Required for every revision after the first.")


@extend_schema_view(list=extend_schema(parameters=PERIOD_PARAMETERS))
class DropBoxViewSet(CasinoScopedMixin, PeriodBoundedListMixin, viewsets.ReadOnlyModelViewSet):
    """Each table's drop box per gaming day; the count team drops and counts them. The list reads
    one period of gaming days (casino/periods.py)."""

    queryset = DropBox.objects.select_related("table", "drop").order_by("gaming_day", "table__label")
    serializer_class = DropBoxSerializer
    read_roles = COUNT_READERS
    write_roles = COUNTERS
    filterset_fields = ["table", "gaming_day"]

    @extend_schema(request=DropSerializer, responses={201: DropBoxSerializer}, examples=[
        OpenApiExample("Drop table 1's box", request_only=True, value={"table": 1, "gaming_day": "2026-03-02"})])
    @action(detail=False, methods=["post"])
    def drop(self, request):
        """The box was removed from the table for the count."""
        payload = DropSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        box = drop_box_drop(author=request.user, **payload.validated_data)
        return Response(DropBoxSerializer(DropBox.objects.select_related("drop", "table").get(pk=box.pk)).data,
                        status=201)

    @extend_schema(request=CountEnterSerializer, responses={201: SoftCountSerializer}, examples=[
        OpenApiExample("First count", request_only=True, value={
            "currency": [{"denomination": "100", "count": 42}, {"denomination": "20", "count": 115}],
            "chips": [{"denomination": "25", "count": 4}], "markers": "2000.00", "coupons": "25.00"}),
        OpenApiExample("A revision", request_only=True, value={
            "currency": [{"denomination": "100", "count": 41}, {"denomination": "20", "count": 120}],
            "reason": "one 100 was a 20 stuck to it"}),
    ])
    @action(detail=True, methods=["post"])
    def counts(self, request, pk=None):
        """Enter the next revision of the box's count (the first signature)."""
        payload = CountEnterSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        count = soft_count_enter(box=self.get_object(), author=request.user, **payload.validated_data)
        return Response(SoftCountSerializer(count).data, status=201)


@extend_schema_view(list=extend_schema(parameters=[*PERIOD_PARAMETERS, PERIOD_DAY_PARAMETER]))
class SoftCountViewSet(CasinoScopedMixin, PeriodBoundedListMixin, viewsets.ReadOnlyModelViewSet):
    """Every revision of every count, signed or not; a second counter signs the latest. The list
    reads the counts of one period of their boxes' gaming days (casino/periods.py)."""

    casino_path = "box__casino"
    period_paths = ("box__gaming_day",)
    queryset = (SoftCount.objects.select_related("counted_by", "signature__signed_by")
                .prefetch_related("lines").order_by("box", "revision"))
    serializer_class = SoftCountSerializer
    read_roles = COUNT_READERS
    write_roles = COUNTERS
    filterset_fields = ["box", "box__gaming_day"]

    @extend_schema(request=None, responses=SoftCountSerializer)
    @action(detail=True, methods=["post"])
    def sign(self, request, pk=None):
        """The second signature: another counter than the one who entered it. Posts the drop."""
        count = self.get_object()
        soft_count_sign(count=count, author=request.user)
        return Response(SoftCountSerializer(self.get_queryset().get(pk=count.pk)).data)

    @extend_schema(parameters=[_DAY, _FORMAT], responses=_FILE_RESPONSES)
    @action(detail=False, methods=["get"], url_path="export", url_name="export")
    def export(self, request):
        return _export(request, "counts", exports_drop.COUNT_COLUMNS, exports_drop.count_rows)
