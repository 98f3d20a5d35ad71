"""Writes to the floor: every change has an author and a reason, kept in history."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from casino.models import Casino, CasinoMembership
from tables.games import GAMES
from tables.games.vocabulary.base import InvalidInput
from tables.models import Dealer, Pit, Ruleset, RulesetVersion, Table


def _require_reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": ["Say why this change is made; it is kept in the history."]})
    return reason


def ruleset_config_clean(*, game: str, config: dict | None) -> dict:
    """Validate ``config`` with the engine and return the full snapshot (defaults filled in)."""
    if game not in GAMES:
        raise ValidationError({"game": [f'"{game}" is not a game; choose one of {", ".join(GAMES)}']})
    info = GAMES[game]
    try:
        rules = info.rules_from_dict(config or {})
    except InvalidInput as exc:
        raise ValidationError({"config": [str(e) for e in exc.errors]}) from None
    return info.rules_to_dict(rules)


def _save_with_history(obj, *, author, reason: str) -> None:
    obj._change_reason = reason
    obj._history_user = author
    obj.full_clean()
    obj.save()


@transaction.atomic
def ruleset_create(*, casino: Casino, game: str, name: str, config: dict | None, author, reason: str) -> Ruleset:
    reason = _require_reason(reason)
    snapshot = ruleset_config_clean(game=game, config=config)
    ruleset = Ruleset(casino=casino, game=game, name=name, config=snapshot, version=1)
    _save_with_history(ruleset, author=author, reason=reason)
    RulesetVersion.objects.create(
        ruleset=ruleset, number=1, game=game, config=snapshot, created_by=author, reason=reason
    )
    return ruleset


@transaction.atomic
def ruleset_update(*, ruleset: Ruleset, author, reason: str, name: str | None = None,
                   config: dict | None = None) -> Ruleset:
    """Change a ruleset; a new configuration becomes a new version, the old ones stay."""
    reason = _require_reason(reason)
    ruleset = Ruleset.objects.select_for_update().get(pk=ruleset.pk)
    if name is not None:
        ruleset.name = name
    if config is not None:
        snapshot = ruleset_config_clean(game=ruleset.game, config=config)
        if snapshot != ruleset.config:
            ruleset.config = snapshot
            ruleset.version += 1
            RulesetVersion.objects.create(
                ruleset=ruleset, number=ruleset.version, game=ruleset.game, config=snapshot,
                created_by=author, reason=reason,
            )
    _save_with_history(ruleset, author=author, reason=reason)
    return ruleset


def _check_table(table: Table) -> None:
    if table.ruleset_id and table.ruleset.game != table.game:
        raise ValidationError({"ruleset": [
            f"{table.ruleset.name} is a {table.ruleset.get_game_display()} ruleset; "
            f"table {table.label} deals {table.get_game_display()}"
        ]})
    if table.ruleset_id and table.pit_id and table.ruleset.casino_id != table.pit.casino_id:
        raise ValidationError({"ruleset": ["the ruleset belongs to another casino"]})


@transaction.atomic
def floor_object_save(*, obj: Casino | Pit | Table | Dealer, author, reason: str) -> Casino | Pit | Table | Dealer:
    """Create or change a casino, pit, table or dealer, with its reason in the history."""
    reason = _require_reason(reason)
    if isinstance(obj, Table):
        _check_table(obj)
    new_casino = isinstance(obj, Casino) and obj.pk is None
    _save_with_history(obj, author=author, reason=reason)
    if new_casino and author is not None and not author.is_superuser:
        # Whoever sets up a casino works there (else it would vanish from their view at once).
        CasinoMembership.objects.get_or_create(user=author, casino=obj)
        author._casino_ids = None
    return obj
