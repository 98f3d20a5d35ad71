from __future__ import annotations

from decimal import Decimal

from rest_framework import serializers

from casino.api_fields import MoneyField, StrictCharField
from casino.models import Casino
from casino.scoping import CasinoScopedRelatedField
from tables.games import GAMES
from tables.models import Dealer, Pit, Ruleset, RulesetVersion, Table


class ReasonField(StrictCharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("write_only", True)
        kwargs.setdefault("max_length", 500)
        kwargs.setdefault("help_text", "Why this change is made; kept in the history with your name.")
        super().__init__(**kwargs)


class CasinoSerializer(serializers.ModelSerializer):
    reason = ReasonField()

    class Meta:
        model = Casino
        fields = ["id", "name", "time_zone", "gaming_day_start_hour", "currency", "reason"]


class PitSerializer(serializers.ModelSerializer):
    reason = ReasonField()
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")

    class Meta:
        model = Pit
        fields = ["id", "casino", "name", "reason"]


class DealerSerializer(serializers.ModelSerializer):
    reason = ReasonField()
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")

    class Meta:
        model = Dealer
        fields = ["id", "casino", "employee_number", "name", "active", "reason"]


class RulesetVersionSerializer(serializers.ModelSerializer):
    created_by = serializers.StringRelatedField(allow_null=True)

    class Meta:
        model = RulesetVersion
        fields = ["id", "number", "game", "config", "created_at", "created_by", "reason"]


class RulesetSerializer(serializers.ModelSerializer):
    reason = ReasonField()
    casino = CasinoScopedRelatedField(queryset=Casino.objects.all(), casino_path="pk")
    config = serializers.JSONField(
        required=False,
        help_text="Settings of the game; omitted settings take the rule card's defaults. "
                  "Every setting is returned, spelled out.",
    )
    game_name = serializers.SerializerMethodField()

    class Meta:
        model = Ruleset
        fields = ["id", "casino", "game", "game_name", "name", "version", "config", "reason"]
        read_only_fields = ["version"]

    def get_game_name(self, obj) -> str:
        return GAMES[obj.game].name

    def validate_game(self, value):
        if self.instance is not None and value != self.instance.game:
            raise serializers.ValidationError("A ruleset's game cannot change; create a new ruleset.")
        return value


class TableSerializer(serializers.ModelSerializer):
    reason = ReasonField()
    pit = CasinoScopedRelatedField(queryset=Pit.objects.all())
    ruleset = CasinoScopedRelatedField(queryset=Ruleset.objects.all())
    min_bet = MoneyField(max_digits=12, min_value=Decimal("0.01"), required=False)
    max_bet = MoneyField(max_digits=12, min_value=Decimal("0.01"), required=False)
    ruleset_version = serializers.SerializerMethodField(help_text="The ruleset version the table runs now.")

    class Meta:
        model = Table
        fields = ["id", "pit", "label", "game", "ruleset", "ruleset_version", "is_open",
                  "min_bet", "max_bet", "seats", "reason"]

    def get_ruleset_version(self, obj) -> int:
        return obj.ruleset.version
