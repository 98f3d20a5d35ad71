"""Ratings for the loyalty system: one player's days and sessions, every player's day, and the
day as CSV. Read-only; an unknown player is a 404, a date that is not one a 400 naming the field."""

from __future__ import annotations

from datetime import date

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.decisions.figures import DECISION_COST, DECISION_THEO, PLAY_QUALITY, PRICED_HANDLE
from casino.api_fields import StrictBooleanField, StrictCharField
from casino.gaming_day import current_gaming_day
from casino.models import Casino
from casino.pagination import MAX_LIMIT, CappedLimitOffsetPagination
from casino.query_dates import query_date
from casino.scoping import scope, user_casino_ids
from tables.accounting.exports import download
from tables.players.models import Player
from tables.players.roles import RATING_READERS

from .ranking import day_ranking
from .rows import CSV_COLUMNS, csv_rows, day_dict
from .selectors import check_range, day_ratings, link_players, player_ratings

_DAY = OpenApiParameter("gaming_day", str, description="YYYY-MM-DD; default: the current gaming day")
_FROM = OpenApiParameter("from", str, description="YYYY-MM-DD, with to: a range of at most 31 gaming days")
_TO = OpenApiParameter("to", str, description="YYYY-MM-DD, the range's last gaming day")
_CASINO = OpenApiParameter("casino", int, description="Only this casino (default: all of the caller's)")
_WAGER = inline_serializer("RatingWager", {
    "game": StrictCharField(), "wager": StrictCharField(help_text="wager type, as the daily report's"),
    "count": serializers.IntegerField(help_text="wagers placed"), "stake": StrictCharField(),
    "average": StrictCharField(help_text="per wager placed"), "theo": StrictCharField(),
    "actual": StrictCharField(help_text="the house's win")}, many=True)
_FIGURES = {
    "rounds": serializers.IntegerField(), "minutes": serializers.IntegerField(help_text="time on game"),
    "stake": StrictCharField(), "average_bet": StrictCharField(help_text="stake per round played"),
    "theo": StrictCharField(), "actual": StrictCharField(), "wagers": _WAGER}
#: A day's or a session's priced decisions (audit/decisions/figures.py; the daily report's definitions).
_DECISIONS = {
    "decision_cost": StrictCharField(help_text=f"{DECISION_COST[1]} Money, to the cent."),
    "decision_theo": StrictCharField(help_text=f"{DECISION_THEO[1]} Money, to the cent."),
    "priced_handle": StrictCharField(help_text=f"{PRICED_HANDLE[1]} Money, to the cent."),
    "play_quality": StrictCharField(allow_null=True, help_text=(
        f"{PLAY_QUALITY[1]} Given in percent to 2 decimals (\"0.84\" is 0.84% of the priced handle); "
        "null without a priced handle."))}
_SESSION = inline_serializer("RatingSession", {
    "table": serializers.IntegerField(), "table_label": StrictCharField(), "game": StrictCharField(),
    "start": serializers.DateTimeField(), "end": serializers.DateTimeField(), **_FIGURES, **_DECISIONS}, many=True)
_DAY_RATING = inline_serializer("DayRating", {
    "gaming_day": serializers.DateField(), "casino": serializers.IntegerField(),
    "identifier": StrictCharField(), "player": serializers.IntegerField(allow_null=True),
    "registered": StrictBooleanField(),
    "name": StrictCharField(required=False, help_text="pit bosses, gaming managers, compliance"),
    "loyalty_number": StrictCharField(required=False), **_FIGURES, **_DECISIONS, "sessions": _SESSION},
    many=True)
_DAY_SUMMARY = inline_serializer("DayRatingSummary", {
    **{name: field for name, field in _DAY_RATING.child.fields.items() if name != "sessions"},
    "sessions": serializers.IntegerField(help_text="rating sessions in the day: /api/v1/ratings/{identifier}/ "
                                                   "lists them")}, many=True)
_RATINGS = inline_serializer("Ratings", {"gaming_day": serializers.DateField(required=False),
                                         "from": serializers.DateField(required=False),
                                         "to": serializers.DateField(required=False),
                                         "results": _DAY_RATING})
_RATING_PAGE = inline_serializer("RatingPage", {"count": serializers.IntegerField(),
                                                "next": serializers.URLField(allow_null=True),
                                                "previous": serializers.URLField(allow_null=True),
                                                "gaming_day": serializers.DateField(required=False),
                                                "from": serializers.DateField(required=False),
                                                "to": serializers.DateField(required=False),
                                                "results": _DAY_SUMMARY})
_LIMIT = OpenApiParameter("limit", int, description=f"Players per page (default 50, at most {MAX_LIMIT})")
_OFFSET = OpenApiParameter("offset", int, description="Players to skip")


def _range(request, default_casino) -> tuple[date, date]:
    """``?gaming_day=`` or ``?from=&to=``; default: the casino's current gaming day."""
    params = request.query_params
    first, last = query_date(params, "from"), query_date(params, "to")
    day = query_date(params)
    if first or last:
        if not (first and last):
            missing = "to" if first else "from"
            raise serializers.ValidationError({missing: ["Give both from and to (or gaming_day)."]})
        check_range(first, last)  # a Django ValidationError: the API's handler names the field
        return first, last
    if day is None:
        day = current_gaming_day(default_casino) if default_casino else timezone.now().date()
    return day, day


def _body(first, last, results) -> dict:
    when = {"gaming_day": first.isoformat()} if first == last else {"from": first.isoformat(), "to": last.isoformat()}
    return {**when, "results": results}


class PlayerRatingsView(APIView):
    read_roles = RATING_READERS

    @extend_schema(parameters=[_DAY, _FROM, _TO], responses={200: _RATINGS, 404: OpenApiResponse(
        description="No such player at your casinos")})
    def get(self, request, pk: int):
        """One player's gaming days, each with its sessions, per wager type totals, theo and actual."""
        player = get_object_or_404(scope(Player.objects.select_related("casino"), request.user), pk=pk)
        first, last = _range(request, player.casino)
        ratings = player_ratings(player=player, first=first, last=last)
        return Response(_body(first, last, [day_dict(r, request.user) for r in ratings]))


def _scope(request):
    """The caller's casinos (``?casino=`` narrows them) and the range asked for."""
    ids = user_casino_ids(request.user)
    wanted = request.query_params.get("casino", "")
    if wanted:
        if not wanted.isdigit():
            raise serializers.ValidationError({"casino": [f'"{wanted}" is not a casino id']})
        if ids is not None and int(wanted) not in ids:
            raise serializers.ValidationError({"casino": [f"No casino {wanted} of yours."]})
        ids = [int(wanted)]
    casinos = Casino.objects.order_by("pk")
    default = (casinos.filter(pk__in=ids) if ids is not None else casinos).first()
    first, last = _range(request, default)
    return ids, first, last


class RatingListView(APIView):
    read_roles = RATING_READERS

    @extend_schema(parameters=[_DAY, _FROM, _TO, _CASINO, _LIMIT, _OFFSET], responses=_RATING_PAGE)
    def get(self, request):
        """Every player's rating for the gaming day (or each day of a range), highest theo first: a
        page of ``?limit=`` (default 50, at most 500) from ``?offset=``, like every API list; the
        CSV file has every player in one download."""
        ids, first, last = _scope(request)
        # Ranked only: the slice a page takes is priced in full.
        ratings = day_ranking(casino_ids=ids, first=first, last=last)
        paginator = CappedLimitOffsetPagination()
        page = link_players(list(paginator.paginate_queryset(ratings, request, view=self)))
        # Each day's figures and wagers with its sessions counted: a player's sessions are
        # /api/v1/ratings/{identifier}/. With them, a page of 50 players of the busiest day was
        # 4,000 sessions and 3 MB.
        return Response({"count": paginator.count, "next": paginator.get_next_link(),
                         "previous": paginator.get_previous_link(),
                         **_body(first, last, [day_dict(r, request.user, sessions=False) for r in page])})


class IdentifierRatingsView(APIView):
    read_roles = RATING_READERS

    @extend_schema(operation_id="v1_ratings_identifier_retrieve", parameters=[_DAY, _FROM, _TO, _CASINO],
                   responses=_RATINGS)
    def get(self, request, identifier: str):
        """The gaming days of the identifier recorded at the seats (registered or not) at the
        caller's casinos, each with its sessions, as ``/api/v1/players/{id}/ratings/`` gives a
        registered player's; no days: an empty list."""
        ids, first, last = _scope(request)
        ratings = day_ratings(casino_ids=ids, first=first, last=last, identifiers=[identifier])
        return Response(_body(first, last, [day_dict(r, request.user) for r in ratings]))


class RatingCsvView(APIView):
    read_roles = RATING_READERS

    @extend_schema(parameters=[_DAY, _FROM, _TO, _CASINO], responses={(200, "text/csv"): bytes})
    def get(self, request):
        """The same ratings as a CSV file, one row per player and gaming day."""
        ids, first, last = _scope(request)
        ratings = day_ratings(casino_ids=ids, first=first, last=last, sessions=False)
        name = f"ratings-{first}" if first == last else f"ratings-{first}-to-{last}"
        return download("csv", name, name, CSV_COLUMNS, csv_rows(link_players(ratings), request.user))
