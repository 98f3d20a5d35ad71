"""Forms generated from the engine's ruleset description, so managers edit real fields.

Scalar settings (decks, H17, blackjack pay, rounding...) become typed form fields; pay
tables and other nested settings are edited as JSON with field-level errors.
"""

from __future__ import annotations

import json

from django import forms
from django.core.exceptions import ValidationError

from tables.games import GAMES
from tables.games.settings.config import describe
from tables.models import Ruleset, Table
from tables.services.floor import ruleset_config_clean

SETTING_PREFIX = "setting__"


class ChangeReasonMixin(forms.Form):
    change_reason = forms.CharField(
        max_length=500, required=True, label="Reason for this change",
        help_text="Required: kept in the history with your name and the time.",
    )


def _setting_field(spec: dict, initial) -> forms.Field:
    common = {"label": spec["name"].replace("_", " ").capitalize(), "help_text": spec["help"], "initial": initial}
    kind = spec["kind"]
    if kind == "bool":
        return forms.BooleanField(required=False, **common)
    if kind == "int":
        return forms.IntegerField(min_value=spec["min"], max_value=spec["max"], **common)
    if kind == "decimal":
        return forms.DecimalField(required=spec["default"] is not None, **common)
    if kind == "choice":
        return forms.ChoiceField(choices=[(c, c) for c in spec["choices"]], **common)
    if kind == "text":
        return forms.CharField(**common)
    common["initial"] = json.dumps(initial, indent=2)
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 8, "cols": 60}), **common)


class RulesetAdminForm(ChangeReasonMixin, forms.ModelForm):
    class Meta:
        model = Ruleset
        fields = ["casino", "game", "name"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.specs: list[dict] = []
        if self.instance.pk:
            self.fields["game"].disabled = True
            self.specs = describe(GAMES[self.instance.game].rules_class)
            current = self.instance.config or {}
            for spec in self.specs:
                initial = current.get(spec["name"], spec["default"])
                self.fields[SETTING_PREFIX + spec["name"]] = _setting_field(spec, initial)
        else:
            self.fields["game"].help_text = (
                "Save to create the ruleset with the rule card's defaults, then edit its settings."
            )

    def clean(self):
        cleaned = super().clean()
        if not self.instance.pk:
            return cleaned
        config = {}
        for spec in self.specs:
            key = SETTING_PREFIX + spec["name"]
            if key not in cleaned:
                continue
            value = cleaned[key]
            if spec["kind"] == "object":
                try:
                    value = json.loads(value)
                except json.JSONDecodeError as exc:
                    self.add_error(key, f"not valid JSON: {exc.msg} (line {exc.lineno})")
                    continue
            elif spec["kind"] == "decimal" and value is not None:
                value = str(value)
            config[spec["name"]] = value
        try:
            self.cleaned_config = ruleset_config_clean(game=self.instance.game, config=config)
        except ValidationError as exc:
            for message in exc.message_dict.get("config", []):
                name = message.split(":", 1)[0].split(".", 1)[0].split("[", 1)[0]
                field = SETTING_PREFIX + name
                self.add_error(field if field in self.fields else None, message)
        return cleaned


class TableAdminForm(ChangeReasonMixin, forms.ModelForm):
    class Meta:
        model = Table
        fields = ["pit", "label", "game", "ruleset", "is_open", "min_bet", "max_bet", "seats"]

    def clean(self):
        cleaned = super().clean()
        ruleset, game = cleaned.get("ruleset"), cleaned.get("game")
        if ruleset and game and ruleset.game != game:
            self.add_error("ruleset", f"{ruleset.name} is for {ruleset.get_game_display()}, not this table's game")
        return cleaned
