"""Table accounting over the API: chip sets, openers and closers, fills and credits, findings.

Every write calls a service (tables/accounting/services/); a refusal is a field-level 400
and stores nothing. Chip counts are validated by the one rule all slips share
(services/counts.py), so their errors name the entry: ``counts[1].count``.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from casino.api_fields import MoneyField, StrictCharField
from casino.api_history import HistorySerializer
from casino.models import Casino
from casino.pagination import paginated
from casino.periods import PERIOD_PARAMETERS, PeriodBoundedListMixin
from casino.roles import (
    ALL_ROLES,
    CAGE,
    COMPLIANCE,
    FINANCE,
    GAMING_MANAGER,
    PIT_BOSS,
    SURVEILLANCE,
)
from casino.scoping import CasinoScopedMixin, CasinoScopedRelatedField
from tables.accounting.models import (
    AccountingFinding,
    ChipSet,
    ChipSlip,
    ChipSlipLine,
    Denomination,
    InventoryLine,
    InventorySlip,
)
from tables.accounting.services.chips import chip_set_save
from tables.accounting.services.inventory import inventory_close, inventory_open
from tables.accounting.services.transfers import (
    chip_slip_issue,
    chip_slip_receive,
    chip_slip_request,
    chip_slip_void_confirm,
    chip_slip_void_request,
)
from tables.models import Table

#: Who may void a fill or credit (first or second signature): the table, the cage, a manager.
VOIDERS = (PIT_BOSS, CAGE, GAMING_MANAGER)
FINDING_READERS = (SURVEILLANCE, FINANCE, GAMING_MANAGER, COMPLIANCE)


def _drf_error(exc: ValidationError) -> serializers.ValidationError:
    return serializers.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)


class ChipCountSerializer(serializers.Serializer):
    denomination = StrictCharField(help_text='A chip value of the casino\'s chip set, e.g. "25.00".')
    count = serializers.IntegerField(min_value=0, help_text="Whole chips, 0 or more.")


@extend_schema_field(ChipCountSerializer(many=True))
class ChipCountsField(serializers.JSONField):
    """Taken whole and checked by the slips' one rule (services/counts.py), which names the entry."""


# --- chip sets -------------------------------------------------------------------------------


class DenominationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Denomination
        fields = ["id", "value", "active"]


class ChipSetSerializer(serializers.ModelSerializer):
    denominations = DenominationSerializer(many=True, read_only=True)

    class Meta:
        model = ChipSet
        fields = ["id", "casino", "name", "denominations"]


class ChipSetWriteSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    name = StrictCharField(max_length=120)
    denominations = serializers.ListField(child=StrictCharField(max_length=20), max_length=100,
                                          help_text="Every chip value in use; values left out are retired.")
    reason = StrictCharField(max_length=2000)


CHIP_SET_EXAMPLE = OpenApiExample(
    "Set a casino's chips", request_only=True,
    value={"casino": 1, "name": "House chips", "denominations": ["1", "2.50", "5", "25", "100", "500", "1000", "5000"],
           "reason": "chip set approved by the regulator"})


class ChipSetViewSet(CasinoScopedMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """A casino's chip set. POST sets it: new values are added, values left out are retired."""

    queryset = ChipSet.objects.prefetch_related("denominations")
    serializer_class = ChipSetSerializer
    filterset_fields = ["casino"]
    read_roles = ALL_ROLES
    write_roles = (GAMING_MANAGER,)

    @extend_schema(request=ChipSetWriteSerializer, responses={201: ChipSetSerializer}, examples=[CHIP_SET_EXAMPLE])
    def create(self, request):
        data = ChipSetWriteSerializer(data=request.data, context=self.get_serializer_context())
        data.is_valid(raise_exception=True)
        try:
            chip_set = chip_set_save(author=request.user, **data.validated_data)
        except ValidationError as exc:
            raise _drf_error(exc) from None
        return Response(ChipSetSerializer(ChipSet.objects.get(pk=chip_set.pk)).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=HistorySerializer(many=True))
    @action(detail=True, methods=["get"])
    def history(self, request, pk=None):
        """Every change of the chip set's name: who, when, what and why (each denomination
        keeps its own history, shown in the admin)."""
        records = self.get_object().history.select_related("history_user").order_by("-history_date", "-history_id")
        return paginated(self, records, HistorySerializer)


# --- openers and closers -----------------------------------------------------------------------


class ChipLineSerializer(serializers.Serializer):
    denomination = serializers.DecimalField(source="denomination.value", max_digits=12, decimal_places=2)
    count = serializers.IntegerField()
    amount = MoneyField()


class InventorySlipSerializer(serializers.ModelSerializer):
    lines = ChipLineSerializer(many=True, read_only=True)
    table_label = StrictCharField(source="table.label", read_only=True)

    class Meta:
        model = InventorySlip
        fields = ["id", "serial", "kind", "table", "table_label", "session", "gaming_day", "recorded_at",
                  "recorded_by", "dealer", "on_paper", "total", "previous", "transaction", "lines"]


class InventorySlipWriteSerializer(serializers.Serializer):
    table = CasinoScopedRelatedField(queryset=Table.objects.all(), casino_path="pit__casino")
    kind = serializers.ChoiceField(choices=InventorySlip.KINDS, help_text="opener opens the table, closer closes it.")
    dealer = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The dealer who signs.")
    dealer_badge = StrictCharField(max_length=20, help_text="The dealer's badge (employee) number.")
    counts = ChipCountsField(help_text="The chips on the table, per denomination.")


INVENTORY_EXAMPLE = OpenApiExample(
    "Open a table with its opener", request_only=True,
    value={"table": 3, "kind": "opener", "dealer": 7, "dealer_badge": "E0042",
           "counts": [{"denomination": "5", "count": 100}, {"denomination": "25", "count": 80},
                      {"denomination": "100", "count": 40}]})


@extend_schema_view(list=extend_schema(parameters=PERIOD_PARAMETERS))
class InventorySlipViewSet(CasinoScopedMixin, PeriodBoundedListMixin, mixins.CreateModelMixin,
                           viewsets.ReadOnlyModelViewSet):
    """Openers and closers: POST an opener to open a table, a closer to close it. The list reads
    one period of gaming days (casino/periods.py)."""

    queryset = InventorySlip.objects.select_related("table").prefetch_related(
        Prefetch("lines", queryset=InventoryLine.objects.select_related("denomination")))
    serializer_class = InventorySlipSerializer
    filterset_fields = ["table", "gaming_day", "kind"]
    read_roles = ALL_ROLES
    write_roles = (PIT_BOSS,)

    @extend_schema(request=InventorySlipWriteSerializer, responses={201: InventorySlipSerializer},
                   examples=[INVENTORY_EXAMPLE])
    def create(self, request):
        data = InventorySlipWriteSerializer(data=request.data, context=self.get_serializer_context())
        data.is_valid(raise_exception=True)
        v = data.validated_data
        service = inventory_open if v["kind"] == InventorySlip.OPENER else inventory_close
        try:
            slip = service(table=v["table"], dealer=v["dealer"], dealer_badge=v["dealer_badge"], counts=v["counts"],
                           author=request.user)
        except ValidationError as exc:
            raise _drf_error(exc) from None
        return Response(InventorySlipSerializer(self.get_queryset().get(pk=slip.pk)).data,
                        status=status.HTTP_201_CREATED)


# --- fills and credits ---------------------------------------------------------------------------


class ChipSlipSerializer(serializers.ModelSerializer):
    lines = ChipLineSerializer(many=True, read_only=True)
    label = StrictCharField(read_only=True, help_text='The serial as printed: "F-000042", "C-000007".')
    table_label = StrictCharField(source="table.label", read_only=True)

    class Meta:
        model = ChipSlip
        fields = ["id", "label", "serial", "kind", "status", "table", "table_label", "gaming_day", "total",
                  "requested_at", "requested_by", "issued_at", "issued_by", "received_at", "received_by",
                  "received_dealer", "transaction", "void_reason", "void_requested_by", "void_requested_at",
                  "voided_by", "voided_at", "lines"]


class ChipSlipRequestSerializer(serializers.Serializer):
    table = CasinoScopedRelatedField(queryset=Table.objects.all(), casino_path="pit__casino")
    kind = serializers.ChoiceField(choices=ChipSlip.KINDS)
    counts = ChipCountsField(help_text="The chips asked for (fill) or sent back (credit), per denomination.")


class ChipSlipReceiveSerializer(serializers.Serializer):
    dealer = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False, allow_null=True,
                                      help_text="The dealer who signs, with dealer_badge. Required for a credit "
                                      "(without it: 400 on dealer, nothing stored); omitted on a fill: received "
                                      "without the dealer's signature, stored and flagged.")
    dealer_badge = StrictCharField(max_length=20, required=False, allow_blank=True)


class VoidSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=2000)


FILL_EXAMPLE = OpenApiExample("Request a fill", request_only=True,
                              value={"table": 3, "kind": "fill", "counts": [{"denomination": "100", "count": 20},
                                                                            {"denomination": "25", "count": 40}]})
CREDIT_EXAMPLE = OpenApiExample("Send a credit", request_only=True,
                                value={"table": 3, "kind": "credit", "counts": [{"denomination": "500", "count": 4}]})
RECEIVE_EXAMPLE = OpenApiExample("Receive, signed by the dealer", request_only=True,
                                 value={"dealer": 7, "dealer_badge": "E0042"})


@extend_schema_view(list=extend_schema(parameters=PERIOD_PARAMETERS))
class ChipSlipViewSet(CasinoScopedMixin, PeriodBoundedListMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Fills and credits: requested at the table, issued by the cage, received at the table;
    voided by two people."""

    queryset = ChipSlip.objects.select_related("table").prefetch_related(
        Prefetch("lines", queryset=ChipSlipLine.objects.select_related("denomination")))
    serializer_class = ChipSlipSerializer
    filterset_fields = ["table", "gaming_day", "kind", "status"]
    read_roles = ALL_ROLES
    write_roles = (PIT_BOSS,)
    action_roles = {"issue": (CAGE,), "receive": (PIT_BOSS,), "void": VOIDERS, "void_confirm": VOIDERS}

    def _answer(self, slip, code=status.HTTP_200_OK):
        return Response(ChipSlipSerializer(self.get_queryset().get(pk=slip.pk)).data, status=code)

    def _call(self, service, **kwargs):
        try:
            return service(author=self.request.user, **kwargs)
        except ValidationError as exc:
            raise _drf_error(exc) from None

    @extend_schema(request=ChipSlipRequestSerializer, responses={201: ChipSlipSerializer},
                   examples=[FILL_EXAMPLE, CREDIT_EXAMPLE])
    def create(self, request):
        data = ChipSlipRequestSerializer(data=request.data, context=self.get_serializer_context())
        data.is_valid(raise_exception=True)
        return self._answer(self._call(chip_slip_request, **data.validated_data), status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=ChipSlipSerializer)
    @action(detail=True, methods=["post"])
    def issue(self, request, pk=None):
        """The cage issues the slip."""
        return self._answer(self._call(chip_slip_issue, slip=self.get_object()))

    @extend_schema(request=ChipSlipReceiveSerializer, responses=ChipSlipSerializer, examples=[RECEIVE_EXAMPLE])
    @action(detail=True, methods=["post"])
    def receive(self, request, pk=None):
        """The pit boss and the dealer sign at the table; the slip posts."""
        data = ChipSlipReceiveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return self._answer(self._call(chip_slip_receive, slip=self.get_object(), **data.validated_data))

    @extend_schema(request=VoidSerializer, responses=ChipSlipSerializer,
                   examples=[OpenApiExample("Void", value={"reason": "requested for the wrong table"},
                                            request_only=True)])
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        """First signature of a void, with the reason; the slip keeps its number."""
        data = VoidSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return self._answer(self._call(chip_slip_void_request, slip=self.get_object(), **data.validated_data))

    @extend_schema(request=None, responses=ChipSlipSerializer)
    @action(detail=True, methods=["post"], url_path="void-confirm")
    def void_confirm(self, request, pk=None):
        """Second signature: another person voids the slip."""
        return self._answer(self._call(chip_slip_void_confirm, slip=self.get_object()))


# --- findings ------------------------------------------------------------------------------------


class AccountingFindingSerializer(serializers.ModelSerializer):
    class Meta:
        model = AccountingFinding
        fields = ["id", "code", "table", "gaming_day", "message", "amount", "to_regulator", "inventory_slip",
                  "chip_slip", "created_at"]


@extend_schema_view(list=extend_schema(parameters=PERIOD_PARAMETERS))
class AccountingFindingViewSet(CasinoScopedMixin, PeriodBoundedListMixin, viewsets.ReadOnlyModelViewSet):
    """What happened at a table but broke a procedure: inventory discrepancies, receipts
    without the dealer's signature."""

    queryset = AccountingFinding.objects.all()
    serializer_class = AccountingFindingSerializer
    filterset_fields = ["table", "gaming_day", "code", "to_regulator"]
    read_roles = FINDING_READERS
