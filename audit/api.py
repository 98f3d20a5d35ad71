"""Findings over the API: the surveillance queue and reviews."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import OuterRef, Subquery
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from audit.services import DECISIONS, finding_review
from casino.api_fields import StrictCharField
from casino.api_filters import StrictBooleanFilter, StrictFilterSet
from casino.db_routing import ReplicaReadsMixin
from casino.periods import PERIOD_PARAMETERS, PeriodBoundedListMixin
from casino.roles import FINANCE, GAMING_MANAGER, SURVEILLANCE
from casino.scoping import CasinoScopedMixin
from tables.api.live import FindingSerializer
from tables.models import Finding, RoundRevision


class FindingFilter(StrictFilterSet):
    table = filters.NumberFilter(field_name="round__table")
    pit = filters.NumberFilter(field_name="round__table__pit")
    dealer = filters.NumberFilter(field_name="round__dealer")
    gaming_day = filters.DateFilter(field_name="gaming_day")
    min_amount = filters.NumberFilter(field_name="amount", lookup_expr="gte")
    reopened = StrictBooleanFilter(
        field_name="reopened_at", lookup_expr="isnull", exclude=True,
        help_text="Reviewed findings sent back to surveillance by a correction or void of their round.",
    )
    ordering = filters.OrderingFilter(fields=(("created_at", "created_at"), ("amount", "amount")))

    class Meta:
        model = Finding
        fields = ["status", "kind", "code", "table", "pit", "dealer", "gaming_day", "min_amount", "reopened"]


class ReviewSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=list(DECISIONS))
    note = StrictCharField(max_length=2000)


@extend_schema_view(list=extend_schema(parameters=PERIOD_PARAMETERS))
class FindingViewSet(ReplicaReadsMixin, CasinoScopedMixin, PeriodBoundedListMixin, viewsets.ReadOnlyModelViewSet):
    """Findings of one period of their rounds' gaming days (casino/periods.py), newest first by id
    (the primary key's index: a page never sorts the period) unless ``?ordering=`` asks otherwise."""

    queryset = Finding.objects.order_by("-id")
    casino_path = "round__table__pit__casino"
    # The finding's own day and its round's (the same day): the casino scope joins the rounds.
    period_paths = ("gaming_day", "round__gaming_day")
    object_day = True
    serializer_class = FindingSerializer
    filterset_class = FindingFilter
    read_roles = (SURVEILLANCE, GAMING_MANAGER, FINANCE)
    write_roles = (SURVEILLANCE,)

    def period_filter(self, queryset, since, until):
        # The revision's number is read for the page's rows only, from the period's months: a
        # join to the revisions made the list's count probe the revision of every finding of the
        # period as well (25,000 on the busiest property's day of a million rounds).
        revisions = RoundRevision.objects.filter(pk=OuterRef("revision_id"), gaming_day=OuterRef("gaming_day"),
                                                 gaming_day__range=(since, until))
        return super().period_filter(queryset, since, until).annotate(
            revision_number=Subquery(revisions.order_by().values("number")[:1]))

    @extend_schema(request=ReviewSerializer, responses=FindingSerializer)
    @action(detail=True, methods=["post"])
    def review(self, request, pk=None):
        """Confirm as dealer error, dismiss as a recording mistake, or escalate; with a note.

        A finding sent back by a correction or void (``reopened_at``) takes a new decision:
        confirm keeps it counted, dismiss releases it."""
        payload = ReviewSerializer(data=request.data, context=self.get_serializer_context())
        payload.is_valid(raise_exception=True)
        try:
            finding = finding_review(finding=self.get_object(), author=request.user, **payload.validated_data)
        except ValidationError as exc:
            raise serializers.ValidationError(exc.message_dict) from None
        return Response(FindingSerializer(finding).data)
