"""The floor API: read by every role, written by gaming managers, every write with a reason."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action

from casino.api_history import HistorySerializer
from casino.api_input import PutReplacesMixin
from casino.models import Casino
from casino.pagination import paginated
from casino.roles import ALL_ROLES, GAMING_MANAGER
from casino.scoping import CasinoScopedMixin
from tables.api.serializers import (
    CasinoSerializer,
    DealerSerializer,
    PitSerializer,
    RulesetSerializer,
    RulesetVersionSerializer,
    TableSerializer,
)
from tables.models import Dealer, Pit, Ruleset, Table
from tables.services.floor import floor_object_save, ruleset_create, ruleset_update


def _as_drf_error(exc: ValidationError) -> serializers.ValidationError:
    return serializers.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)


class FloorViewSet(PutReplacesMixin, CasinoScopedMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    read_roles = ALL_ROLES
    write_roles = (GAMING_MANAGER,)

    def perform_create(self, serializer):
        self._save(serializer)

    def perform_update(self, serializer):
        self._save(serializer)

    def _save(self, serializer):
        data = dict(serializer.validated_data)
        reason = data.pop("reason", "")
        obj = serializer.instance or serializer.Meta.model()
        for key, value in data.items():
            setattr(obj, key, value)
        try:
            serializer.instance = floor_object_save(obj=obj, author=self.request.user, reason=reason)
        except ValidationError as exc:
            raise _as_drf_error(exc) from None

    @extend_schema(responses=HistorySerializer(many=True))
    @action(detail=True, methods=["get"])
    def history(self, request, pk=None):
        """Every change of this record: who, when, what changed and why."""
        obj = self.get_object()
        records = obj.history.select_related("history_user").order_by("-history_date", "-history_id")
        return paginated(self, records, HistorySerializer)


class CasinoViewSet(FloorViewSet):
    queryset = Casino.objects.all()
    serializer_class = CasinoSerializer
    casino_path = "pk"


class PitViewSet(FloorViewSet):
    queryset = Pit.objects.select_related("casino")
    serializer_class = PitSerializer
    filterset_fields = ["casino"]


class DealerViewSet(FloorViewSet):
    queryset = Dealer.objects.all()
    serializer_class = DealerSerializer
    filterset_fields = ["casino", "active"]


class TableViewSet(FloorViewSet):
    queryset = Table.objects.select_related("pit", "ruleset")
    casino_path = "pit__casino"
    serializer_class = TableSerializer
    filterset_fields = ["pit", "game", "is_open"]


class RulesetViewSet(FloorViewSet):
    queryset = Ruleset.objects.all()
    serializer_class = RulesetSerializer
    filterset_fields = ["casino", "game"]

    def _save(self, serializer):
        data = serializer.validated_data
        try:
            if serializer.instance is None:
                serializer.instance = ruleset_create(
                    casino=data["casino"], game=data["game"], name=data["name"], config=data.get("config"),
                    author=self.request.user, reason=data.get("reason", ""),
                )
            else:
                serializer.instance = ruleset_update(
                    ruleset=serializer.instance, author=self.request.user, reason=data.get("reason", ""),
                    name=data.get("name"), config=data.get("config"),
                )
        except ValidationError as exc:
            raise _as_drf_error(exc) from None

    @extend_schema(responses=RulesetVersionSerializer(many=True))
    @action(detail=True, methods=["get"])
    def versions(self, request, pk=None):
        """Every frozen configuration of this ruleset, newest first; rounds point at these."""
        ruleset = self.get_object()
        return paginated(self, ruleset.versions.select_related("created_by").order_by("-number"),
                         RulesetVersionSerializer)
