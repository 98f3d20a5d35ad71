"""The API's pairs (true count, bet) of a player: their serializer, their JSON made once, and the
renderer that writes that JSON into the answer as it is.

A busy day's player has ~1,000 pairs and a page of the API 50 players: DRF's fields, one call per
value, and json.dumps took seconds for it. The pairs of a stored result (results.py) are kept as
the text :func:`pairs_json` makes, which is :class:`PairSerializer`'s representation; the API
hands that text to :class:`PairsJSONRenderer` as :class:`MadeJSON`, written as it is.
"""

from __future__ import annotations

import orjson
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.encoders import JSONEncoder

from audit.advantage.plays import DIRECTION_WORDS
from audit.decisions.selectors import ACTION_WORDS
from casino.api_fields import StrictBooleanField, StrictCharField
from tables.games.vocabulary.cards import TEXT


class PairSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round_id")
    table = StrictCharField(source="table_label")
    sequence = serializers.IntegerField()
    shoe = serializers.IntegerField(help_text="The inferred shoe of the table that day, from 1.")
    running_count = serializers.IntegerField(help_text="Hi-Lo running count before the round.")
    decks_remaining = serializers.FloatField()
    true_count = serializers.FloatField()
    bet = serializers.DecimalField(max_digits=14, decimal_places=2, help_text="The base wager (see the app's README).")


_BET = PairSerializer().fields["bet"]


def pairs_json(pairs) -> str:
    """``pairs`` (selectors.Pair) as PairSerializer writes them, as JSON text: the figures rounded
    as the API gives them (2 places), a bet's text made once per amount by the serializer's field."""
    bets: dict = {}
    return orjson.dumps([
        {"round": p.round_id, "table": p.table_label, "sequence": p.sequence, "shoe": p.shoe,
         "running_count": p.running_count, "decks_remaining": round(p.decks_remaining, 2),
         "true_count": round(p.true_count, 2),
         "bet": bets.get(p.bet) or bets.setdefault(p.bet, _BET.to_representation(p.bet))}
        for p in pairs]).decode()


class MadeJSON:
    """JSON text made beforehand (:func:`pairs_json`), written into the answer as it is."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class MadePairs(serializers.ListSerializer):
    """A row's pairs already made (:class:`MadeJSON`): passed through as they are; the schema
    still documents PairSerializer."""

    def to_representation(self, data):
        return data


_drf_default = JSONEncoder().default


def _default(value):
    return orjson.Fragment(value.text) if isinstance(value, MadeJSON) else _drf_default(value)


class PairsJSONRenderer(JSONRenderer):
    """DRF's JSON (compact, UTF-8) written by orjson, :class:`MadeJSON` as it is; indented (the
    browsable API's) by DRF's own renderer with the made JSON read back."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        if self.get_indent(accepted_media_type, renderer_context or {}):
            return super().render(_expanded(data), accepted_media_type, renderer_context)
        return orjson.dumps(data, default=_default)


def _expanded(data):
    if isinstance(data, MadeJSON):
        return orjson.loads(data.text)
    if isinstance(data, dict):
        return {k: _expanded(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_expanded(v) for v in data]
    return data


class DeviationSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = StrictCharField()
    sequence = serializers.IntegerField()
    hand = serializers.IntegerField(help_text="The seat's hand (0, then the split hands).")
    cards = serializers.ListField(child=StrictCharField(), help_text="The player's cards at the decision.")
    upcard = StrictCharField()
    hole = StrictCharField(allow_null=True, help_text="The dealer's second card.")
    action = StrictCharField(help_text="The action taken.")
    best = StrictCharField(help_text="The upcard-best action (optimal composition-dependent play).")
    true_count = serializers.FloatField(help_text="Hi-Lo true count before the round.")
    cost = serializers.FloatField(help_text="Its cost against the upcard-best, per unit of its stake.")
    chance = serializers.FloatField(allow_null=True, help_text=(
        "p: the chance the action beats the upcard-best given the hole card, the hole card unknown."))
    beats = StrictBooleanField(allow_null=True, help_text="I: it beats the upcard-best given the actual hole card.")
    direction = serializers.IntegerField(help_text="+1 the action gains on the best as the count rises, -1 it loses, 0 neither.")


def deviations_json(deviations, where: dict[int, tuple[str, int]]) -> str:
    """A player's deviations (plays.Deviation) as DeviationSerializer writes them, as JSON text;
    ``where``: round id -> (table label, sequence)."""
    return orjson.dumps([
        {"round": d.round_id, "table": where[d.round_id][0], "sequence": where[d.round_id][1], "hand": d.hand,
         "cards": [TEXT[c] for c in d.cards], "upcard": TEXT[d.upcard],
         "hole": TEXT[d.hole] if d.hole is not None else None, "action": d.action, "best": d.best,
         "true_count": round(d.true_count, 2), "cost": round(d.cost, 6),
         "chance": round(d.chance, 6) if d.chance is not None else None, "beats": d.beats, "direction": d.direction}
        for d in deviations]).decode()


def deviation_rows(text: str) -> list[dict]:
    """The deviations' JSON read back for the page, with the actions and the direction in words."""
    rows = orjson.loads(text)
    for d in rows:
        d["action_words"] = ACTION_WORDS.get(d["action"], d["action"])
        d["best_words"] = ACTION_WORDS.get(d["best"], d["best"])
        d["direction_words"] = DIRECTION_WORDS[d["direction"]]
    return rows
