"""Players over the API: list, search, detail, register, change (with a reason). Names and loyalty
numbers only for the roles of :data:`tables.players.roles.NAME_ROLES`; the others see identifiers."""

from __future__ import annotations

from django.db.models import Q
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from casino.api_fields import StrictCharField
from casino.models import Casino
from casino.roles import ALL_ROLES
from casino.scoping import CasinoScopedMixin, CasinoScopedRelatedField, scope
from tables.players.models import Player
from tables.players.roles import PLAYER_WRITERS, may_see_names
from tables.players.services.register import player_change, player_register

PERSONAL = ("name", "loyalty_number")


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "casino", "identifier", "name", "loyalty_number", "registered_at"]
        extra_kwargs = {"name": {"help_text": "Only for pit bosses, gaming managers and compliance."},
                        "loyalty_number": {"help_text": "Only for pit bosses, gaming managers and compliance."}}

    def to_representation(self, instance):
        data = super().to_representation(instance)
        request = self.context.get("request")
        if request is None or not may_see_names(request.user):
            for name in PERSONAL:
                data.pop(name, None)
        return data


class PlayerRegisterSerializer(serializers.Serializer):
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk", required=False,
                                      help_text="Needed only by a user of several casinos.")
    identifier = StrictCharField(max_length=40)
    name = StrictCharField(max_length=120, required=False, allow_blank=True)
    loyalty_number = StrictCharField(max_length=40, required=False, allow_blank=True)


class PlayerChangeSerializer(serializers.Serializer):
    name = StrictCharField(max_length=120, required=False, allow_blank=True)
    loyalty_number = StrictCharField(max_length=40, required=False, allow_blank=True)
    reason = StrictCharField(max_length=500)

    def validate(self, attrs):
        if not set(attrs) & set(PERSONAL):
            raise serializers.ValidationError({"name": ["Give the name or the loyalty number to change."]})
        return attrs


def casino_for(user, casino):
    """The casino a write goes to: the one named, else the user's only casino (a field error otherwise)."""
    if casino is not None:
        return casino
    casinos = list(scope(Casino.objects.order_by("pk"), user, "pk")[:2])
    if len(casinos) != 1:
        raise serializers.ValidationError({"casino": ["Say which casino (you work at several)." if casinos
                                                      else "You work at no casino."]})
    return casinos[0]


_SEARCH = OpenApiParameter("search", str, description="Identifier (any role); name or loyalty number for the "
                                                      "roles that see them. Part of the text matches.")


class PlayerViewSet(CasinoScopedMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    queryset = Player.objects.all()
    serializer_class = PlayerSerializer
    read_roles = ALL_ROLES
    write_roles = PLAYER_WRITERS
    filterset_fields = ["casino"]

    def get_queryset(self):
        queryset = super().get_queryset()
        wanted = (self.request.query_params.get("search") or "").strip()
        if wanted and self.action == "list":
            match = Q(identifier__icontains=wanted)
            if may_see_names(self.request.user):  # a name is searched only by those who may read it
                match |= Q(name__icontains=wanted) | Q(loyalty_number__icontains=wanted)
            queryset = queryset.filter(match)
        return queryset

    @extend_schema(parameters=[_SEARCH])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(request=PlayerRegisterSerializer, responses={201: PlayerSerializer}, examples=[
        OpenApiExample("Register a card seen at the seat", request_only=True,
                       value={"identifier": "P-1001", "name": "Ada Lovelace", "loyalty_number": "L-555"})])
    def create(self, request, *args, **kwargs):
        payload = PlayerRegisterSerializer(data=request.data, context={"request": request})
        payload.is_valid(raise_exception=True)
        data = dict(payload.validated_data)
        player = player_register(casino=casino_for(request.user, data.pop("casino", None)), author=request.user,
                                 **data)
        return Response(PlayerSerializer(player, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=PlayerChangeSerializer, responses=PlayerSerializer, examples=[
        OpenApiExample("Enrolled in the loyalty club", request_only=True,
                       value={"loyalty_number": "L-555", "reason": "enrolled at the desk"})])
    @action(detail=True, methods=["post"])
    def change(self, request, pk=None):
        player = self.get_object()
        payload = PlayerChangeSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = dict(payload.validated_data)
        player = player_change(player=player, author=request.user, reason=data.pop("reason"), **data)
        return Response(PlayerSerializer(player, context={"request": request}).data)
