"""Registering a player and changing their record: every write with its author (and, for a
change, a reason) in the history."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from casino.audit_guard import allow_audit_write
from casino.models import Casino
from tables.players.models import Player

_MAX = {"identifier": 40, "name": 120, "loyalty_number": 40}


def _clean(field: str, value) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValidationError({field: ["Must be text."]})
    value = value.strip()
    if len(value) > _MAX[field]:
        raise ValidationError({field: [f"At most {_MAX[field]} characters."]})
    return value


def _loyalty_free(casino_id: int, loyalty_number: str, *, other_than: int | None = None) -> None:
    if loyalty_number and Player.objects.filter(casino_id=casino_id, loyalty_number=loyalty_number).exclude(
            pk=other_than).exists():
        raise ValidationError({"loyalty_number": ["Another player of this casino holds this loyalty number."]})


@transaction.atomic
def player_register(*, casino: Casino, identifier: str, name: str = "", loyalty_number: str = "",
                    author, at=None) -> Player:
    identifier = _clean("identifier", identifier)
    if not identifier:
        raise ValidationError({"identifier": ["Give the identifier recorded at the seat."]})
    name, loyalty_number = _clean("name", name), _clean("loyalty_number", loyalty_number)
    if Player.objects.filter(casino=casino, identifier=identifier).exists():
        raise ValidationError({"identifier": [f"{identifier} is already registered at {casino}."]})
    _loyalty_free(casino.pk, loyalty_number)
    player = Player(casino=casino, identifier=identifier, name=name, loyalty_number=loyalty_number,
                    registered_at=at or timezone.now(), registered_by=author)
    player._history_user, player._change_reason = author, "registered"
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError as exc:  # a second pit boss registering the same card at the same moment
        raise ValidationError({"identifier": [f"{identifier} is already registered at {casino}."]}) from exc
    return player


@transaction.atomic
def player_change(*, player: Player, author, reason: str, **changes) -> Player:
    """Change the name or loyalty number. The identifier never changes: rounds already carry it."""
    unknown = set(changes) - {"name", "loyalty_number"}
    if unknown:
        raise ValidationError({field: ["Cannot be changed (the rounds carry it)." if field == "identifier"
                                       else "Not a field of a player."] for field in sorted(unknown)})
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": ["Say why the record changes."]})
    player = Player.objects.select_for_update().get(pk=player.pk)
    for field, value in changes.items():
        setattr(player, field, _clean(field, value))
    _loyalty_free(player.casino_id, player.loyalty_number, other_than=player.pk)
    player._history_user, player._change_reason = author, reason
    allow_audit_write()  # the guard lets only the name and the loyalty number change
    player.save(update_fields=["name", "loyalty_number"])
    return player
