"""Jackpots over the API: banks and their lines, meters, awards, adjustments, the ledger,
the liability report (JSON and CSV) and the recomputation check. Views parse and call a
service or selector; a service's ValidationError becomes a 400 with the field named."""

from __future__ import annotations

import csv
from datetime import date

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from audit.jackpots import services
from audit.jackpots.models import (
    LINE_CHOICES,
    JackpotAdjustment,
    JackpotAward,
    JackpotBank,
    JackpotLineConfig,
)
from audit.jackpots.reconcile import MAX_CHECK_DAYS, jackpot_recompute
from audit.jackpots.selectors import (
    LiabilityReport,
    bank_states,
    ledger_transactions,
    liability_report,
)
from casino.api_fields import MoneyField, StrictBooleanField, StrictCharField
from casino.gaming_day import gaming_day_of
from casino.models import Casino
from casino.pagination import paginated
from casino.periods import PERIOD_PARAMETERS, PeriodBoundedListMixin
from casino.query_dates import aware_datetime_or_none, query_date
from casino.roles import (
    ALL_ROLES,
    FINANCE,
    GAMING_MANAGER,
    PIT_BOSS,
    SURVEILLANCE,
    may_see_winner_identity,
)
from casino.scoping import CasinoScopedMixin, CasinoScopedRelatedField, scope
from tables.models import Table

READERS = (FINANCE, GAMING_MANAGER)


def _day(request, name: str, default: date | None = None) -> date | None:
    return query_date(request.query_params, name) or default


def _today(user) -> date:
    """The current gaming day of the caller's (first) casino, never the server clock's date."""
    casino = scope(Casino.objects.order_by("pk"), user, "pk").first()
    if casino is None:
        return timezone.now().date()
    return gaming_day_of(timezone.now(), casino.time_zone, casino.gaming_day_start_hour)


def _today_of(casino) -> date:
    return gaming_day_of(timezone.now(), casino.time_zone, casino.gaming_day_start_hour)


def _at(request):
    raw = request.query_params.get("at")
    if not raw:
        return None
    value = aware_datetime_or_none(raw)
    if value is None:
        raise serializers.ValidationError(
            {"at": [f'"{raw}" is not an ISO time with a zone (2025-03-14T18:00:00Z)']}
        )
    return value


class LineConfigSerializer(serializers.ModelSerializer):
    created_by = serializers.StringRelatedField()

    class Meta:
        model = JackpotLineConfig
        fields = [
            "id",
            "line",
            "number",
            "progressive",
            "reset",
            "increment_rate",
            "hidden_rate",
            "cap",
            "status",
            "reason",
            "created_by",
            "created_at",
            "activated_at",
            "activated_by_round",
        ]


class LedgerLegSerializer(serializers.Serializer):
    account = StrictCharField(source="account.kind")
    line = StrictCharField(source="account.line")
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, help_text="Debit positive.")


class LedgerTransactionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = StrictCharField()
    created_at = serializers.DateTimeField()
    gaming_day = serializers.DateField()
    memo = StrictCharField()
    line = StrictCharField()
    round = serializers.IntegerField(source="round_id", allow_null=True)
    reverses = serializers.IntegerField(source="reverses_id", allow_null=True)
    contribution_base = serializers.DecimalField(max_digits=14, decimal_places=2)
    created_by = serializers.StringRelatedField(allow_null=True)
    legs = LedgerLegSerializer(many=True, source="legs.all")


RecomputeSerializer = inline_serializer("JackpotRecompute", {
    "from": serializers.DateField(),
    "to": serializers.DateField(),
    "ok": StrictBooleanField(),
    "rounds": serializers.IntegerField(),
    "differences": serializers.ListField(child=serializers.DictField()),
    "award_mismatches": serializers.ListField(child=StrictCharField()),
    "round_mismatches": serializers.ListField(child=StrictCharField()),
    "rollup_mismatches": serializers.ListField(child=StrictCharField()),
})


class BankSerializer(serializers.ModelSerializer):
    tables = serializers.SerializerMethodField()

    class Meta:
        model = JackpotBank
        fields = ["id", "casino", "name", "defer_changes_until_hit", "amount_max", "tables", "created_at"]
        read_only_fields = ["amount_max"]

    def get_tables(self, bank) -> list[int]:
        # The list prefetches the members (one query for every bank of the page).
        return [m.table_id for m in bank.members.all()]


class BankCreateSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    name = StrictCharField(max_length=120)
    defer_changes_until_hit = StrictBooleanField(default=True)
    tables = CasinoScopedRelatedField(
        queryset=Table.objects.all(), casino_path="pit__casino", many=True, required=False
    )
    amount_max = MoneyField(required=False, help_text="The largest figure the bank takes (default 1,000,000.00).")
    reason = StrictCharField(max_length=500)


class AmountMaxSerializer(serializers.Serializer):
    amount_max = MoneyField(help_text="The largest figure the bank takes: an adjustment, the meter or reserve it "
                                      "leaves, a line's reset or cap.")
    reason = StrictCharField(max_length=500)


class LineConfigureSerializer(serializers.Serializer):
    line = serializers.ChoiceField(choices=LINE_CHOICES)
    progressive = StrictBooleanField()
    reset = MoneyField(required=False, default="0")
    increment_rate = serializers.DecimalField(
        max_digits=7, decimal_places=6, required=False, default="0"
    )
    hidden_rate = serializers.DecimalField(
        max_digits=7, decimal_places=6, required=False, default="0"
    )
    cap = MoneyField(required=False, allow_null=True, default=None)
    reason = StrictCharField(max_length=500)


class TableAddSerializer(serializers.Serializer):
    table = CasinoScopedRelatedField(queryset=Table.objects.all(), casino_path="pit__casino")
    reason = StrictCharField(max_length=500)


def _state_json(state) -> dict:
    return {
        "bank": state.bank.pk,
        "name": state.bank.name,
        "tables": state.tables,
        "at": state.at.isoformat() if state.at else None,
        "lines": [
            {
                "line": ln.line,
                "name": ln.name,
                "progressive": ln.progressive,
                "meter": str(ln.meter),
                "reserve": str(ln.reserve),
                "liability": str(ln.liability),
                "reset": str(ln.config.reset) if ln.config else None,
                "increment_rate": str(ln.config.increment_rate) if ln.config else None,
                "cap": str(ln.config.cap) if ln.config and ln.config.cap is not None else None,
                "pending_config": ln.pending.number if ln.pending else None,
                "last_hit": {
                    "amount": str(ln.last_hit.amount),
                    "won_at": ln.last_hit.won_at.isoformat(),
                    "table": ln.last_hit.table.label,
                    "seat": ln.last_hit.seat,
                }
                if ln.last_hit
                else None,
            }
            for ln in state.lines
        ],
        "awards_payable": str(state.payable),
        "total_liability": str(state.total_liability),
        "contribution_base": str(state.contribution_base),
    }


class JackpotBankViewSet(CasinoScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Banks of linked Upcard Luck tables. Configuration: gaming managers, with a reason."""

    queryset = JackpotBank.objects.select_related("casino").prefetch_related("members")
    serializer_class = BankSerializer
    write_roles = (GAMING_MANAGER,)

    @property
    def read_roles(self):
        return {"ledger": READERS, "recompute": (FINANCE, GAMING_MANAGER, SURVEILLANCE)}.get(
            self.action, ALL_ROLES
        )

    @extend_schema(request=BankCreateSerializer, responses=BankSerializer)
    def create(self, request):
        payload = BankCreateSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        bank = services.jackpot_bank_create(author=request.user, **payload.validated_data)
        return Response(BankSerializer(bank).data, status=201)

    @extend_schema(request=LineConfigureSerializer, responses={201: LineConfigSerializer})
    @action(detail=True, methods=["post"])
    def configure(self, request, pk=None):
        """A new version of one line: active now, or pending until the line's next hit."""
        payload = LineConfigureSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        config = services.jackpot_line_configure(
            bank=self.get_object(), author=request.user, **payload.validated_data
        )
        return Response(LineConfigSerializer(config).data, status=201)

    @extend_schema(request=AmountMaxSerializer, responses=BankSerializer)
    @action(detail=True, methods=["post"])
    def limit(self, request, pk=None):
        """Set the bank's plausibility bound (gaming managers, with a reason)."""
        payload = AmountMaxSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        bank = services.jackpot_bank_amount_max_set(bank=self.get_object(), author=request.user,
                                                    **payload.validated_data)
        return Response(BankSerializer(bank).data)

    @extend_schema(request=TableAddSerializer, responses=BankSerializer)
    @action(detail=True, methods=["post"])
    def tables(self, request, pk=None):
        payload = TableAddSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        bank = self.get_object()
        services.jackpot_bank_table_add(bank=bank, author=request.user, **payload.validated_data)
        return Response(BankSerializer(bank).data)

    @extend_schema(responses=LineConfigSerializer(many=True))
    @action(detail=True, methods=["get"])
    def configs(self, request, pk=None):
        configs = self.get_object().line_configs.select_related("created_by").order_by("line", "number")
        return paginated(self, configs, LineConfigSerializer)

    @extend_schema(parameters=[OpenApiParameter("from", str), OpenApiParameter("to", str)],
                   responses=LedgerTransactionSerializer(many=True))
    @action(detail=True, methods=["get"], url_path="ledger")
    def ledger(self, request, pk=None):
        """Every transaction and its legs (debit positive), a page at a time; finance and gaming managers."""
        txns = ledger_transactions(
            bank=self.get_object(), day_from=_day(request, "from"), day_to=_day(request, "to")
        )
        return paginated(self, txns, LedgerTransactionSerializer)

    @extend_schema(parameters=[OpenApiParameter("from", str), OpenApiParameter("to", str)],
                   responses=RecomputeSerializer)
    @action(detail=True, methods=["get"])
    def recompute(self, request, pk=None):
        """Recompute the meters over gaming days ``from`` to ``to`` (default: the current gaming
        day; at most MAX_CHECK_DAYS days) from the recorded rounds and report any difference."""
        bank = self.get_object()
        day_to = _day(request, "to") or _day(request, "from") or _today_of(bank.casino)
        day_from = _day(request, "from") or day_to
        if day_from > day_to:
            raise serializers.ValidationError({"from": ["must not be after to"]})
        if (day_to - day_from).days + 1 > MAX_CHECK_DAYS:
            raise serializers.ValidationError({"to": [f"A range of at most {MAX_CHECK_DAYS} gaming days."]})
        result = jackpot_recompute(bank, day_from=day_from, day_to=day_to)
        return Response(
            {
                "from": day_from.isoformat(),
                "to": day_to.isoformat(),
                "ok": result.ok,
                "rounds": result.rounds,
                "differences": result.differences,
                "award_mismatches": result.award_mismatches,
                "round_mismatches": result.round_mismatches,
                "rollup_mismatches": result.rollup_mismatches,
            }
        )


class JackpotMeterViewSet(viewsets.ViewSet):
    """The meter board: every bank's meters, reserves and liability, now or ``?at=`` a past time."""

    read_roles = ALL_ROLES

    @extend_schema(parameters=[OpenApiParameter("at", str)], responses=None)
    def list(self, request):
        at = _at(request)
        return Response([
            _state_json(state) for state in bank_states(
                scope(JackpotBank.objects.select_related("casino"), request.user).order_by("name"), at=at)
        ])


class AwardSerializer(serializers.ModelSerializer):
    table = serializers.StringRelatedField()
    paid_by = serializers.StringRelatedField(allow_null=True)
    odds_multiple = serializers.DecimalField(max_digits=14, decimal_places=2, read_only=True)
    winner_name = StrictCharField(
        read_only=True, allow_null=True, help_text="null unless the caller is finance or a gaming manager")
    winner_id_reference = StrictCharField(
        read_only=True, allow_null=True, help_text="null unless the caller is finance or a gaming manager")

    def to_representation(self, instance):
        data = super().to_representation(instance)
        request = self.context.get("request")
        if request is None or not may_see_winner_identity(request.user):
            data["winner_name"] = data["winner_id_reference"] = None
        return data

    class Meta:
        model = JackpotAward
        fields = [
            "id",
            "bank",
            "round",
            "table",
            "seat",
            "player",
            "line",
            "progressive",
            "amount",
            "wager",
            "odds_multiple",
            "won_at",
            "gaming_day",
            "status",
            "w2g_required",
            "w2g_reference",
            "winner_name",
            "winner_id_reference",
            "federal_withholding",
            "paid_by",
            "paid_at",
        ]


class PaySerializer(serializers.Serializer):
    w2g_reference = StrictCharField(
        max_length=60, required=False, allow_blank=True, default=""
    )
    winner_name = StrictCharField(
        max_length=120, required=False, allow_blank=True, default=""
    )
    winner_id_reference = StrictCharField(
        max_length=120, required=False, allow_blank=True, default=""
    )
    federal_withholding = MoneyField(required=False, default="0")


@extend_schema_view(list=extend_schema(parameters=PERIOD_PARAMETERS))
class JackpotAwardViewSet(CasinoScopedMixin, PeriodBoundedListMixin, viewsets.ReadOnlyModelViewSet):
    """Jackpots won. An attendant (pit boss or gaming manager) pays a pending one. The list reads
    one period of gaming days (casino/periods.py)."""

    casino_path = "bank__casino"
    queryset = JackpotAward.objects.select_related("table", "paid_by")
    serializer_class = AwardSerializer
    read_roles = ALL_ROLES
    write_roles = (PIT_BOSS, GAMING_MANAGER)
    filterset_fields = ["status", "bank", "line", "gaming_day", "w2g_required"]

    @extend_schema(request=PaySerializer, responses=AwardSerializer)
    @action(detail=True, methods=["post"])
    def pay(self, request, pk=None):
        payload = PaySerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        award = services.jackpot_award_pay(
            award=self.get_object(), author=request.user, **payload.validated_data
        )
        return Response(AwardSerializer(award, context=self.get_serializer_context()).data)


class AdjustmentSerializer(serializers.ModelSerializer):
    bank = CasinoScopedRelatedField(queryset=JackpotBank.objects.all())
    requested_by = serializers.StringRelatedField(read_only=True)
    decided_by = serializers.StringRelatedField(read_only=True, allow_null=True)
    amount = MoneyField(help_text="Signed: negative reduces the liability.")

    class Meta:
        model = JackpotAdjustment
        fields = [
            "id",
            "bank",
            "line",
            "target",
            "amount",
            "reason",
            "note",
            "requested_by",
            "requested_at",
            "status",
            "decided_by",
            "decided_at",
            "decision_note",
            "transaction",
        ]
        read_only_fields = [
            "requested_by",
            "requested_at",
            "status",
            "decided_by",
            "decided_at",
            "decision_note",
            "transaction",
        ]


class DecideSerializer(serializers.Serializer):
    approve = StrictBooleanField()
    note = StrictCharField(max_length=500, required=False, allow_blank=True, default="")


class JackpotAdjustmentViewSet(CasinoScopedMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Requests to change a meter or reserve (finance or gaming manager); a second gaming
    manager approves (posts) or rejects.

    Not period-bounded, on purpose (tests/test_bounded_lists.py): a few manual requests a month,
    none written by play, no gaming day of their own; the ones awaiting approval are a queue."""

    queryset = JackpotAdjustment.objects.select_related("requested_by", "decided_by")
    casino_path = "bank__casino"
    serializer_class = AdjustmentSerializer
    read_roles = READERS
    write_roles = READERS
    action_roles = {"decide": (GAMING_MANAGER,)}
    filterset_fields = ["status", "bank", "line", "reason"]

    def create(self, request):
        payload = AdjustmentSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        adjustment = services.jackpot_adjustment_request(
            bank=data["bank"],
            line=data["line"],
            target=data.get("target", "meter"),
            amount=data["amount"],
            reason=data["reason"],
            note=data["note"],
            author=request.user,
        )
        return Response(AdjustmentSerializer(adjustment).data, status=201)

    @extend_schema(request=DecideSerializer, responses=AdjustmentSerializer)
    @action(detail=True, methods=["post"])
    def decide(self, request, pk=None):
        payload = DecideSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        adjustment = services.jackpot_adjustment_decide(
            adjustment=self.get_object(), author=request.user, **payload.validated_data
        )
        return Response(AdjustmentSerializer(adjustment).data)


def report_csv(report: LiabilityReport, filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow([f"Jackpot liability report, gaming days {report.day_from} to {report.day_to}"])
    writer.writerow(report.CSV_COLUMNS)
    for row in report.rows:
        d = row.as_dict()
        writer.writerow([d[c] for c in report.CSV_COLUMNS])
    writer.writerow([])
    keys = list(report.banks[0]) if report.banks else []
    writer.writerow(keys)
    for summary in report.banks:
        writer.writerow([str(summary[k]) for k in keys])
    return response


class JackpotLiabilityViewSet(viewsets.ViewSet):
    """The liability report for gaming days ``from`` to ``to`` (default: the given or
    latest day), JSON or CSV; finance and gaming managers."""

    read_roles = READERS

    def _report(self, request) -> LiabilityReport:
        day_to = _day(request, "to") or _day(request, "from") or _today(request.user)
        day_from = _day(request, "from") or day_to
        if day_from > day_to:
            raise serializers.ValidationError({"from": ["must not be after to"]})
        banks = scope(JackpotBank.objects.select_related("casino"), request.user).order_by("casino__name", "name")
        return liability_report(day_from=day_from, day_to=day_to, banks=banks)

    @extend_schema(
        parameters=[OpenApiParameter("from", str), OpenApiParameter("to", str)], responses=None
    )
    def list(self, request):
        report = self._report(request)
        return Response(
            {
                "from": report.day_from.isoformat(),
                "to": report.day_to.isoformat(),
                "rows": [r.as_dict() for r in report.rows],
                "banks": [{k: str(v) for k, v in s.items()} for s in report.banks],
            }
        )

    @extend_schema(
        parameters=[OpenApiParameter("from", str), OpenApiParameter("to", str)],
        responses={(200, "text/csv"): bytes},
    )
    @action(detail=False, methods=["get"], url_path="csv", url_name="csv")
    def csv_download(self, request):
        report = self._report(request)
        return report_csv(report, f"jackpot-liability-{report.day_from}-{report.day_to}.csv")
