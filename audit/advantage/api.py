"""GET /api/v1/advantage-play/?gaming_day=&table=&limit=&offset=: the desk page's figures as JSON, the
players a page at a time like every API list (``count``, ``next``, ``previous`` beside the day's
figures)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.renderers import BrowsableAPIRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_fields import StrictCharField
from casino.pagination import MAX_LIMIT, CappedLimitOffsetPagination
from casino.query_dates import query_date
from casino.scoping import user_casino

from .plays import COUNT_WORDS, HOLE_WORDS
from .query import UnknownTable, chosen_table, default_day
from .results import COUNTING, CURRENT, STALE, StoredRow, answer_rows, day_answer
from .roles import ADVANTAGE_READERS
from .selectors import SIGNAL_WORDS, Thresholds
from .serializers import (
    DeviationSerializer,
    MadeJSON,
    MadePairs,
    PairSerializer,
    PairsJSONRenderer,
    pairs_json,
)


class HolePlaySerializer(serializers.Serializer):
    rounds = serializers.IntegerField(help_text="Rounds with a deviation assessed against the hole card.")
    deviations = serializers.IntegerField(help_text="Decisions off the upcard-best play, assessed.")
    observed = serializers.IntegerField(help_text="O: deviations that beat the upcard-best given the actual hole card.")
    expected = serializers.FloatField(help_text="E: the sum of their chances of that with the hole card unknown.")
    z = serializers.FloatField(allow_null=True, help_text="(O - E) / sqrt(sum p(1 - p)).")
    p_value = serializers.FloatField(allow_null=True, help_text="P(O or more) with the hole card unknown (exact).")
    signal = serializers.ChoiceField(choices=list(HOLE_WORDS))
    signal_words = StrictCharField()


class CountPlaySerializer(serializers.Serializer):
    decisions = serializers.IntegerField(help_text="Decisions assessed (insurance declines included).")
    deviations = serializers.IntegerField(help_text="Deviations from the upcard-best with a count direction.")
    informative = serializers.IntegerField(help_text="Decisions in situations met at several counts and played differently.")
    r = serializers.FloatField(allow_null=True, help_text="Within-situation correlation of true count and direction.")
    z = serializers.FloatField(allow_null=True, help_text="Its permutation z.")
    signal = serializers.ChoiceField(choices=list(COUNT_WORDS))
    signal_words = StrictCharField()


class AdvantagePlayerSerializer(serializers.Serializer):
    player = StrictCharField()
    n = serializers.IntegerField(help_text="Rounds (pairs of true count and bet).")
    r = serializers.FloatField(allow_null=True, help_text="Pearson r; null when it does not exist.")
    ci_low = serializers.FloatField(allow_null=True)
    ci_high = serializers.FloatField(allow_null=True)
    min_bet = serializers.DecimalField(max_digits=14, decimal_places=2)
    max_bet = serializers.DecimalField(max_digits=14, decimal_places=2)
    spread = serializers.DecimalField(max_digits=16, decimal_places=2, help_text="Largest bet / smallest bet.")
    mean_bet_low = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True,
                                            help_text="Mean bet at a true count of 0 or less.")
    mean_bet_high = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True,
                                             help_text="Mean bet at a true count of +2 or more.")
    signal = serializers.ChoiceField(choices=list(SIGNAL_WORDS))
    signal_words = StrictCharField()
    hole_card = HolePlaySerializer(help_text="Hole-card play: deviations that win against the hole card.")
    count_play = CountPlaySerializer(help_text="Play deviations against the Hi-Lo true count.")
    pairs = MadePairs(child=PairSerializer())
    deviations = MadePairs(child=DeviationSerializer(), help_text="The player's deviations from the upcard-best play.")


class ThresholdsSerializer(serializers.Serializer):
    lower_bound = serializers.FloatField()
    min_rounds = serializers.IntegerField()
    play_flag_p = serializers.FloatField(help_text="The play signals' one-sided level.")
    play_min_deviations = serializers.IntegerField()


class AdvantageDaySerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Players of the day (rows of every page).")
    next = serializers.URLField(read_only=True, allow_null=True, help_text="The next page of players; null on the last.")
    previous = serializers.URLField(read_only=True, allow_null=True, help_text="The previous page of players; null on the first.")
    gaming_day = serializers.DateField()
    table = serializers.IntegerField(allow_null=True)
    rounds = serializers.IntegerField(allow_null=True, help_text="null while the day is being counted.")
    shoes = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=[CURRENT, STALE, COUNTING], help_text=(
        "current: the day as it stands; stale: the figures as of `as_of`, the day has changed since and is being "
        "recounted; counting: too large to count in the request and not counted yet (no rows)."))
    as_of = serializers.DateTimeField(allow_null=True, help_text="When the figures were counted.")
    lines = serializers.IntegerField(allow_null=True, help_text="The day's count lines (its size) when not current.")
    unpriced = serializers.IntegerField(help_text=(
        "The day's rounds still queued for their decisions' prices when counted: not in the play signals yet."))
    thresholds = ThresholdsSerializer()
    rows = AdvantagePlayerSerializer(many=True, help_text="This page's players, flagged first (see the README).")


def _r4(x: float | None) -> float | None:
    return round(x, 4) if x is not None else None


def _player(row) -> dict:
    c = row.correlation
    hole, count = row.plays.hole, row.plays.count
    return {"player": row.player, "n": row.n, "r": round(c.r, 4) if c else None,
            "ci_low": round(c.low, 4) if c else None, "ci_high": round(c.high, 4) if c else None,
            "min_bet": row.min_bet, "max_bet": row.max_bet, "spread": row.spread, "mean_bet_low": row.mean_bet_low,
            "mean_bet_high": row.mean_bet_high, "signal": row.signal, "signal_words": row.signal_words,
            "hole_card": {"rounds": hole.rounds, "deviations": hole.deviations, "observed": hole.observed,
                          "expected": round(hole.expected, 4), "z": _r4(hole.z), "p_value": hole.p_value,
                          "signal": hole.signal, "signal_words": hole.words},
            "count_play": {"decisions": count.decisions, "deviations": count.deviations,
                           "informative": count.informative, "r": _r4(count.r), "z": _r4(count.z),
                           "signal": count.signal, "signal_words": count.words},
            # A stored row's pairs were made when it was counted; a row counted now makes them.
            "pairs": MadeJSON(row.pairs_json if isinstance(row, StoredRow) else pairs_json(row.pairs)),
            "deviations": MadeJSON(row.deviations_text)}


class AdvantagePlayView(APIView):
    """Bet spread against the shoe's running count, per player, for one gaming day: the Hi-Lo true
    count before each round beside the player's base wager, Pearson r with its 95% interval
    (Fisher z), the spread and a signal; and the two play signals of the player's priced decisions
    (hole-card play, play deviations against the count) with the deviations behind them. Surveillance and gaming managers. The players come a page
    at a time (``?limit=``, default 50, at most 500, from ``?offset=``), flagged first; the day's
    figures (rounds, shoes) are the whole day's on every page."""

    read_roles = ADVANTAGE_READERS
    renderer_classes = [PairsJSONRenderer, BrowsableAPIRenderer]

    @extend_schema(parameters=[
        OpenApiParameter("gaming_day", str, description="YYYY-MM-DD; default: the current gaming day"),
        OpenApiParameter("table", int, description="One table's id (default: all of your tables)"),
        OpenApiParameter("limit", int, description=f"Players per page (default 50, at most {MAX_LIMIT})"),
        OpenApiParameter("offset", int, description="Players to skip"),
    ], responses=AdvantageDaySerializer, operation_id="advantage_play_day")
    def get(self, request):
        day = query_date(request.query_params)
        try:
            table = chosen_table(request.user, request.query_params.get("table"))
        except UnknownTable as exc:
            raise serializers.ValidationError({"table": [str(exc)]}) from None
        paginator = CappedLimitOffsetPagination()
        paginator.get_limit(request), paginator.get_offset(request)  # a bad page is a 400 before the day is read
        day = day or default_day(request.user, table)
        # One casino's day: the table's, or for all tables the reader's first (as the default day).
        casino = table.pit.casino if table is not None else user_casino(request.user)
        result = day_answer(day, casino_id=casino.pk, table_id=table.pk if table else None) if casino else None
        page = paginator.paginate_queryset(answer_rows(result) if result else [], request, view=self)
        thresholds = result.thresholds if result else Thresholds.from_settings()
        payload = {"count": paginator.count, "next": paginator.get_next_link(),
                   "previous": paginator.get_previous_link(),
                   "gaming_day": day, "table": table.pk if table else None,
                   "rounds": result.rounds if result else 0, "shoes": result.shoes if result else 0,
                   "status": result.status if result else CURRENT, "as_of": result.as_of if result else None,
                   "lines": result.lines if result else None, "unpriced": result.unpriced if result else 0,
                   "thresholds": {"lower_bound": thresholds.lower_bound, "min_rounds": thresholds.min_rounds,
                                  "play_flag_p": thresholds.play_alpha,
                                  "play_min_deviations": thresholds.play_min},
                   "rows": [_player(r) for r in page]}
        return Response(AdvantageDaySerializer(payload).data)
