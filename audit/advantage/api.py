"""GET /api/v1/advantage-play/?gaming_day=&table=&limit=&offset=: the desk page's figures as JSON, the
players a page at a time like every API list (``count``, ``next``, ``previous`` beside the day's
figures)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_fields import StrictCharField
from casino.pagination import MAX_LIMIT, CappedLimitOffsetPagination
from casino.query_dates import query_date
from casino.scoping import user_casino

from .query import UnknownTable, chosen_table, default_day
from .results import COUNTING, CURRENT, STALE, answer_rows, day_answer
from .roles import ADVANTAGE_READERS
from .selectors import SIGNAL_WORDS, Thresholds


class PairSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round_id")
    table = StrictCharField(source="table_label")
    sequence = serializers.IntegerField()
    shoe = serializers.IntegerField(help_text="The inferred shoe of the table that day, from 1.")
    running_count = serializers.IntegerField(help_text="Hi-Lo running count before the round.")
    decks_remaining = serializers.FloatField()
    true_count = serializers.FloatField()
    bet = serializers.DecimalField(max_digits=14, decimal_places=2, help_text="The base wager (see the app's README).")


class _MadePairs(serializers.ListSerializer):
    """The pairs of a row, already in PairSerializer's representation (:func:`_pairs`): a busy
    day's page of players is ~16,000 pairs, which DRF's fields, one call per value, took longer
    to write than the rest of the answer. The schema still documents PairSerializer."""

    def to_representation(self, data):
        return data


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
    pairs = _MadePairs(child=PairSerializer())


class ThresholdsSerializer(serializers.Serializer):
    lower_bound = serializers.FloatField()
    min_rounds = serializers.IntegerField()


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
    thresholds = ThresholdsSerializer()
    rows = AdvantagePlayerSerializer(many=True, help_text="This page's players, flagged first (see the README).")


_BET = PairSerializer().fields["bet"]


def _pairs(pairs) -> list[dict]:
    """The pairs as PairSerializer writes them (see _MadePairs); a bet's text once per amount."""
    bets: dict = {}
    return [{"round": p.round_id, "table": p.table_label, "sequence": p.sequence, "shoe": p.shoe,
             "running_count": p.running_count, "decks_remaining": round(p.decks_remaining, 2),
             "true_count": round(p.true_count, 2),
             "bet": bets.get(p.bet) or bets.setdefault(p.bet, _BET.to_representation(p.bet))} for p in pairs]


def _player(row) -> dict:
    c = row.correlation
    return {"player": row.player, "n": row.n, "r": round(c.r, 4) if c else None,
            "ci_low": round(c.low, 4) if c else None, "ci_high": round(c.high, 4) if c else None,
            "min_bet": row.min_bet, "max_bet": row.max_bet, "spread": row.spread, "mean_bet_low": row.mean_bet_low,
            "mean_bet_high": row.mean_bet_high, "signal": row.signal, "signal_words": row.signal_words,
            "pairs": _pairs(row.pairs)}


class AdvantagePlayView(APIView):
    """Bet spread against the shoe's running count, per player, for one gaming day: the Hi-Lo true
    count before each round beside the player's base wager, Pearson r with its 95% interval
    (Fisher z), the spread and a signal. Surveillance and gaming managers. The players come a page
    at a time (``?limit=``, default 50, at most 500, from ``?offset=``), flagged first; the day's
    figures (rounds, shoes) are the whole day's on every page."""

    read_roles = ADVANTAGE_READERS

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
                   "lines": result.lines if result else None,
                   "thresholds": {"lower_bound": thresholds.lower_bound, "min_rounds": thresholds.min_rounds},
                   "rows": [_player(r) for r in page]}
        return Response(AdvantageDaySerializer(payload).data)
