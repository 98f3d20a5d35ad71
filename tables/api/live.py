"""Live play over the API: table sessions and rounds (record, read, correct, void)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Prefetch
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException
from rest_framework.response import Response

from casino.api_fields import StrictCharField
from casino.api_filters import StrictBooleanFilter, StrictFilterSet
from casino.db_routing import ReplicaReadsMixin
from casino.pagination import paginated
from casino.periods import PERIOD_PARAMETERS, PeriodBoundedListMixin
from casino.roles import ALL_ROLES, GAMING_MANAGER, PIT_BOSS
from casino.scoping import CasinoScopedMixin, CasinoScopedRelatedField
from tables.api.examples import ROUND_EXAMPLES
from tables.models import Dealer, Finding, Round, RoundRevision, Table, TableSession, Wager
from tables.services.idempotency import IdempotencyMismatch, idempotent_call
from tables.services.round_pays import PAYS_CHOICES, PAYS_RECORDED
from tables.services.rounds import StaleRevision, round_correct, round_record, round_void
from tables.services.sessions import (
    SLIPLESS_REASON_MAX,
    dealer_on_duty,
    slipless_reason,
    table_session_close,
    table_session_dealer_change,
    table_session_open,
)


class Unprocessable(APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = "Unprocessable"


def _drf_error(exc: ValidationError) -> serializers.ValidationError:
    return serializers.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)


# --- sessions ------------------------------------------------------------------------------


class TableSessionSerializer(serializers.ModelSerializer):
    dealer = serializers.SerializerMethodField(help_text="The dealer on duty now (null when closed).")
    assignments = serializers.SerializerMethodField()

    class Meta:
        model = TableSession
        fields = ["id", "table", "gaming_day", "continues", "opened_at", "opened_by", "closed_at", "closed_by",
                  "dealer", "assignments"]

    def get_dealer(self, obj) -> int | None:
        dealer = dealer_on_duty(obj) if obj.closed_at is None else None
        return dealer.pk if dealer else None

    def get_assignments(self, obj) -> list[dict]:
        return [{"dealer": a.dealer_id, "started_at": a.started_at, "ended_at": a.ended_at}
                for a in obj.assignments.all()]


class SessionOpenSerializer(serializers.Serializer):
    table = CasinoScopedRelatedField(queryset=Table.objects.all(), casino_path="pit__casino")
    dealer = CasinoScopedRelatedField(queryset=Dealer.objects.all())
    reason = StrictCharField(
        allow_blank=True, max_length=SLIPLESS_REASON_MAX,
        help_text="Why the table opens without an opener slip. A table opens with its opener: POST "
                  "/api/v1/inventory-slips/ with kind opener (its chips counted and signed).")


class SessionCloseSerializer(serializers.Serializer):
    reason = StrictCharField(
        allow_blank=True, max_length=SLIPLESS_REASON_MAX,
        help_text="Why the table closes without a closer slip. A table closes with its closer: POST "
                  "/api/v1/inventory-slips/ with kind closer.")


class DealerChangeSerializer(serializers.Serializer):
    dealer = CasinoScopedRelatedField(queryset=Dealer.objects.all())


@extend_schema_view(list=extend_schema(parameters=PERIOD_PARAMETERS))
class TableSessionViewSet(CasinoScopedMixin, PeriodBoundedListMixin, viewsets.ReadOnlyModelViewSet):
    """Open a table for the gaming day, change its dealer, close it. The list reads one period of
    gaming days (casino/periods.py)."""

    casino_path = "table__pit__casino"
    queryset = TableSession.objects.select_related("table").prefetch_related("assignments")
    serializer_class = TableSessionSerializer
    filterset_fields = ["table", "gaming_day"]
    read_roles = ALL_ROLES
    write_roles = (PIT_BOSS,)

    @extend_schema(request=SessionOpenSerializer, responses={201: TableSessionSerializer})
    def create(self, request):
        data = SessionOpenSerializer(data=request.data, context=self.get_serializer_context())
        data.is_valid(raise_exception=True)
        try:
            reason = slipless_reason(data.validated_data["reason"], closing=False)
            session = table_session_open(table=data.validated_data["table"], dealer=data.validated_data["dealer"],
                                         author=request.user, reason=reason)
        except ValidationError as exc:
            raise _drf_error(exc) from None
        return Response(TableSessionSerializer(session).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=SessionCloseSerializer, responses=TableSessionSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        data = SessionCloseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            reason = slipless_reason(data.validated_data["reason"], closing=True)
            session = table_session_close(session=self.get_object(), author=request.user, reason=reason)
        except ValidationError as exc:
            raise _drf_error(exc) from None
        return Response(TableSessionSerializer(session).data)

    @extend_schema(request=DealerChangeSerializer, responses=TableSessionSerializer)
    @action(detail=True, methods=["post"])
    def dealer(self, request, pk=None):
        data = DealerChangeSerializer(data=request.data, context=self.get_serializer_context())
        data.is_valid(raise_exception=True)
        try:
            assignment = table_session_dealer_change(session=self.get_object(), dealer=data.validated_data["dealer"],
                                                     author=request.user)
        except ValidationError as exc:
            raise _drf_error(exc) from None
        # The session changed: after the gaming-day start, the continuation of the one named.
        return Response(TableSessionSerializer(TableSession.objects.get(pk=assignment.session_id)).data)


# --- rounds --------------------------------------------------------------------------------


class WagerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Wager
        fields = ["seat", "player", "wager", "hand", "line", "stake", "expected_net", "recorded_net", "outcome",
                  "explanation"]


class RevisionNumberField(serializers.IntegerField):
    """The finding's revision number: ``revision_number`` where the list's query annotated it
    (audit/api.py: read for the page's rows only, not joined for the whole period), else its
    revision's."""

    def get_attribute(self, instance):
        number = getattr(instance, "revision_number", None)
        return number if number is not None else instance.revision.number


class FindingSerializer(serializers.ModelSerializer):
    revision = RevisionNumberField(source="revision.number", read_only=True)

    class Meta:
        model = Finding
        fields = ["id", "round", "revision", "kind", "code", "message", "path", "rule", "expected", "recorded",
                  "amount", "seat", "player", "status", "review_note", "reviewed_by", "reviewed_at",
                  "reopened_at", "reopened_reason", "created_at"]


class RoundRevisionSerializer(serializers.ModelSerializer):
    author = serializers.StringRelatedField()
    findings = FindingSerializer(many=True, read_only=True)

    class Meta:
        model = RoundRevision
        fields = ["number", "created_at", "author", "reason", "engine_version", "data", "audit", "findings"]


class RoundListSerializer(serializers.ModelSerializer):
    table_label = StrictCharField(source="table.label", read_only=True)
    dealer_name = StrictCharField(source="dealer.name", read_only=True)
    ruleset_version = serializers.IntegerField(source="ruleset_version.number", read_only=True)

    class Meta:
        model = Round
        fields = ["id", "table", "table_label", "sequence", "game", "gaming_day", "dealer", "dealer_name",
                  "ruleset_version", "recorded_by", "recorded_at", "revision", "status", "open_findings"]


class RoundDetailSerializer(RoundListSerializer):
    ruleset = serializers.IntegerField(source="ruleset_version.ruleset_id", read_only=True)
    data = serializers.SerializerMethodField(help_text="The current revision in the engine's canonical JSON.")
    summary = serializers.SerializerMethodField()
    wagers = serializers.SerializerMethodField(help_text="Each wager: stake, what it should pay, what was paid.")
    findings = serializers.SerializerMethodField(help_text="Findings of the current revision.")
    void_reason = StrictCharField(read_only=True)
    pays_attested = serializers.SerializerMethodField(
        help_text='The pit boss attested "paid as shown" for the pays not recorded (wagers with no recorded_net): '
                  "counted apart, never as paid correctly.")

    class Meta(RoundListSerializer.Meta):
        fields = [*RoundListSerializer.Meta.fields, "ruleset", "void_reason", "data", "summary", "wagers",
                  "findings", "pays_attested"]

    def _current(self, obj) -> RoundRevision:
        cached = getattr(obj, "_current_revision", None)
        if cached is None:
            cached = obj._current_revision = obj.revisions.get(number=obj.revision)
        return cached

    def get_data(self, obj) -> dict:
        return self._current(obj).data

    def get_summary(self, obj) -> dict:
        return self._current(obj).audit.get("summary", {})

    def get_pays_attested(self, obj) -> bool:
        return self._current(obj).pays_attested

    def get_wagers(self, obj) -> list[dict]:
        revision = self._current(obj)
        rows = getattr(revision, "wager_rows", None)  # just written: no need to read them back
        # The engine's order (seat by seat, each hand's wagers together), as the round was recorded.
        return WagerSerializer(rows if rows is not None else revision.wagers.order_by("pk"), many=True).data

    def get_findings(self, obj) -> list[dict]:
        revision = self._current(obj)
        rows = getattr(revision, "finding_rows", None)
        return FindingSerializer(rows if rows is not None else revision.findings.select_related("revision").order_by("pk"),
                                 many=True).data


class RoundCreateSerializer(serializers.Serializer):
    # A plain id: the recording service reads the table under its lock (and refuses an unknown one).
    table = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The table's id.")
    dealer = CasinoScopedRelatedField(
        queryset=Dealer.objects.all(), required=False, allow_null=True,
        help_text="The dealer who dealt it; refused unless on duty. Omitted: the dealer on duty.",
    )
    round = serializers.JSONField(help_text="The round in the game's JSON form (see the examples).")
    pays = serializers.ChoiceField(
        choices=PAYS_CHOICES, default=PAYS_RECORDED,
        help_text='"recorded": every settled wager\'s pay is in the round (`seats[].paid`; Hold\'em: the '
                  '`award` and `rake` actions), else 400 with an error per missing pay. "attested": the pit boss '
                  'attests "paid as shown" for those not recorded; they are counted apart, never as paid correctly.')


class RoundCorrectionSerializer(serializers.Serializer):
    revision = serializers.IntegerField(min_value=1, help_text="The revision this corrects (409 if not current).")
    reason = StrictCharField(max_length=500)
    round = serializers.JSONField()
    pays = serializers.ChoiceField(choices=PAYS_CHOICES, default=PAYS_RECORDED,
                                   help_text="As for recording a round.")


class RoundVoidSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=500)


class RoundFilter(StrictFilterSet):
    pit = filters.NumberFilter(field_name="table__pit")
    has_findings = StrictBooleanFilter(method="filter_has_findings",
                                         help_text="Rounds whose current revision has findings (any status).")

    class Meta:
        model = Round
        fields = ["table", "pit", "gaming_day", "dealer", "game", "status", "has_findings"]

    def filter_has_findings(self, queryset, name, value):
        current = Finding.objects.filter(round=OuterRef("pk"), revision__number=OuterRef("revision"))
        return queryset.filter(Exists(current) if value else ~Exists(current))


_DATETIME, _DAY = serializers.DateTimeField(), serializers.DateField()
_MONEY = serializers.DecimalField(max_digits=14, decimal_places=2)


def _money(value):
    return None if value is None else _MONEY.to_representation(value)


def _detail(audited) -> dict:
    """The response for a round just written, from the objects in hand (no read-back).

    The same document as :class:`RoundDetailSerializer` (a test holds them equal), built
    directly: recording rounds is the hot path, and the serializer machinery cost more
    than the rest of the response.
    """
    rnd, revision = audited.round, audited.revision
    version = rnd.ruleset_version
    return {
        "id": rnd.pk, "table": rnd.table_id, "table_label": rnd.table.label, "sequence": rnd.sequence,
        "game": rnd.game, "gaming_day": _DAY.to_representation(rnd.gaming_day), "dealer": rnd.dealer_id,
        "dealer_name": rnd.dealer.name, "ruleset_version": version.number, "recorded_by": rnd.recorded_by_id,
        "recorded_at": _DATETIME.to_representation(rnd.recorded_at), "revision": rnd.revision, "status": rnd.status,
        "open_findings": rnd.open_findings, "ruleset": version.ruleset_id, "void_reason": rnd.void_reason,
        "data": revision.data, "summary": revision.audit.get("summary", {}),
        "wagers": [
            {"seat": w.seat, "player": w.player, "wager": w.wager, "hand": w.hand, "line": w.line,
             "stake": _money(w.stake), "expected_net": _money(w.expected_net), "recorded_net": _money(w.recorded_net),
             "outcome": w.outcome, "explanation": w.explanation}
            for w in revision.wager_rows
        ],
        "findings": [
            {"id": f.pk, "round": rnd.pk, "revision": revision.number, "kind": f.kind, "code": f.code,
             "message": f.message, "path": f.path, "rule": f.rule, "expected": f.expected, "recorded": f.recorded,
             "amount": _money(f.amount), "seat": f.seat, "player": f.player, "status": f.status,
             "review_note": f.review_note, "reviewed_by": f.reviewed_by_id,
             "reviewed_at": _DATETIME.to_representation(f.reviewed_at) if f.reviewed_at else None,
             "reopened_at": None, "reopened_reason": "",  # a new revision's findings are fresh
             "created_at": _DATETIME.to_representation(f.created_at)}
            for f in revision.finding_rows
        ],
        "pays_attested": revision.pays_attested,
    }


@extend_schema_view(list=extend_schema(parameters=PERIOD_PARAMETERS))
class RoundViewSet(ReplicaReadsMixin, CasinoScopedMixin, PeriodBoundedListMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Rounds: record one (audited at once), list and read them, correct or void them.

    The list reads one period of gaming days (casino/periods.py), newest recorded first (an index)."""

    casino_path = "table__pit__casino"
    queryset = Round.objects.select_related("table", "dealer", "ruleset_version").prefetch_related(
        Prefetch("revisions", queryset=RoundRevision.objects.order_by("number")))
    filterset_class = RoundFilter
    read_roles = ALL_ROLES
    write_roles = (PIT_BOSS,)
    action_roles = {"corrections": (PIT_BOSS, GAMING_MANAGER), "void": (PIT_BOSS, GAMING_MANAGER)}

    def get_serializer_class(self):
        return RoundListSerializer if self.action == "list" else RoundDetailSerializer

    @extend_schema(
        request=RoundCreateSerializer, responses={201: RoundDetailSerializer},
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
                                     description="Same key and body: the first response again, no second round. "
                                                 "Same key, other body: 422.")],
        examples=ROUND_EXAMPLES,
    )
    def create(self, request):
        payload = RoundCreateSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        data = payload.validated_data

        def produce():
            try:
                # idempotent_call's transaction is rolled back whole on any error: no savepoint.
                audited = round_record(table=data["table"], data=data["round"], dealer=data.get("dealer"),
                                       author=request.user, savepoint=False, pays=data["pays"])
            except ValidationError as exc:
                raise _drf_error(exc) from None
            return status.HTTP_201_CREATED, _detail(audited), audited.round

        try:
            stored = idempotent_call(user=request.user, key=request.headers.get("Idempotency-Key"),
                                     body=request.data, produce=produce)
        except IdempotencyMismatch as exc:
            raise Unprocessable(str(exc)) from None
        response = Response(stored.body, status=stored.status)
        if stored.replayed:
            response["Idempotent-Replayed"] = "true"
        return response

    @extend_schema(request=RoundCorrectionSerializer, responses={200: RoundDetailSerializer},
                   description="A new revision with a reason; re-audited. 409 when `revision` is not current.")
    @action(detail=True, methods=["post"])
    def corrections(self, request, pk=None):
        payload = RoundCorrectionSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            audited = round_correct(round=self.get_object(), revision=data["revision"], data=data["round"],
                                    reason=data["reason"], author=request.user, pays=data["pays"])
        except StaleRevision as exc:
            return Response({"detail": str(exc), "current_revision": exc.current}, status=status.HTTP_409_CONFLICT)
        except ValidationError as exc:
            raise _drf_error(exc) from None
        return Response(_detail(audited))

    @extend_schema(request=RoundVoidSerializer, responses={200: RoundDetailSerializer})
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        payload = RoundVoidSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        try:
            rnd = round_void(round=self.get_object(), reason=payload.validated_data["reason"], author=request.user)
        except ValidationError as exc:
            raise _drf_error(exc) from None
        return Response(RoundDetailSerializer(Round.objects.select_related(
            "table", "dealer", "ruleset_version").get(pk=rnd.pk)).data)

    @extend_schema(responses=RoundRevisionSerializer(many=True))
    @action(detail=True, methods=["get"])
    def revisions(self, request, pk=None):
        """Every revision, oldest first: what was recorded, by whom, when and why, and its findings."""
        rnd = self.get_object()
        revisions = rnd.revisions.select_related("author").prefetch_related("findings__revision").order_by("number")
        return paginated(self, revisions, RoundRevisionSerializer)
