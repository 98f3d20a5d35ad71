"""Recording buy-ins at the table, and voiding one (a correction is a void and a new record)."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from casino.api_input import text_problem
from casino.gaming_day import gaming_day_of
from casino.roles import GAMING_MANAGER, has_role
from casino.scoping import may_see_casino
from tables.accounting.models import BuyIn, BuyInVoid
from tables.accounting.services.drop_boxes import drop_box_for
from tables.accounting.services.findings import accounting_settings
from tables.closed_days import refuse_closed_day
from tables.models import Table, TableSession

PLAYER_MAX = 40


def _player(raw) -> str | None:
    text = (raw or "").strip()
    if not text:
        return None
    if len(text) > PLAYER_MAX:
        raise ValidationError({"player_identifier": [f"at most {PLAYER_MAX} characters"]})
    problem = text_problem(text)
    if problem:
        raise ValidationError({"player_identifier": [problem]})
    return text


def _checked(table: Table, seat, kind, amount) -> None:
    errors: dict[str, list[str]] = {}
    if kind not in dict(BuyIn.KINDS):
        errors["kind"] = [f"{kind!r} is not one of {', '.join(dict(BuyIn.KINDS))}"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seats:
        errors["seat"] = [f"{table.label} has seats 1 to {table.seats}"]
    if not isinstance(amount, Decimal) or not amount.is_finite() or amount <= 0:
        errors["amount"] = ["must be more than 0"]
    elif amount != amount.quantize(Decimal("0.01")):
        errors["amount"] = ["must be whole cents"]
    else:
        most = accounting_settings(table.pit.casino).buy_in_max
        if amount > most:
            errors["amount"] = [f"{amount:,.2f} is more than the largest buy-in a table records ({most:,.2f}); "
                                "the casino's accounting settings set it"]
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def buy_in_record(*, table: Table, seat: int, kind: str, amount: Decimal, author,
                  player_identifier: str | None = None, at=None) -> BuyIn:
    """A buy-in at ``seat`` of an open ``table``; its gaming day is that of the moment it is
    recorded. Refuses, naming the field, a closed table, a seat the table does not have, an
    amount that is not more than zero and an unknown kind."""
    at = at or timezone.now()
    table = Table.objects.select_related("pit__casino").get(pk=table.pk)
    casino = table.pit.casino
    if not may_see_casino(author, casino.pk):
        raise ValidationError({"table": [f"{table.label} is not a table of your casinos"]})
    session = TableSession.objects.filter(table=table, closed_at__isnull=True).first()
    if session is None:
        raise ValidationError({"table": [f"Table {table.label} is closed; open it before recording buy-ins"]})
    _checked(table, seat, kind, amount)
    day = gaming_day_of(at, casino.time_zone, casino.gaming_day_start_hour)
    refuse_closed_day(casino.pk, day)
    drop_box_for(table=table, gaming_day=day, author=author, at=at)
    return BuyIn.objects.create(
        casino=casino, table=table, session=session, gaming_day=day, seat=seat, kind=kind, amount=amount,
        player_identifier=_player(player_identifier), recorded_at=at, recorded_by=author)


@transaction.atomic
def buy_in_void(*, buy_in: BuyIn, reason: str, author, at=None, replacement: dict | None = None) -> BuyInVoid:
    """Void ``buy_in`` with a reason. ``replacement`` (seat, kind, amount, player_identifier):
    the right record, written in the same transaction and naming the voided one; it keeps the
    voided one's time, session and gaming day (it says what happened then), so a table closed
    since may still be corrected. The pit boss who recorded a buy-in voids it; a gaming manager
    may void any."""
    buy_in = BuyIn.objects.select_for_update().select_related("table").get(pk=buy_in.pk)
    if buy_in.recorded_by_id != author.pk and not has_role(author, GAMING_MANAGER):
        raise ValidationError({"buy_in": ["only the pit boss who recorded it or a gaming manager may void it"]})
    refuse_closed_day(buy_in.casino_id, buy_in.gaming_day)
    if BuyInVoid.objects.filter(buy_in=buy_in).exists():
        raise ValidationError({"buy_in": [f"buy-in {buy_in.pk} is already voided"]})
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": ["say why it is voided"]})
    at = at or timezone.now()
    void = BuyInVoid.objects.create(buy_in=buy_in, reason=reason, voided_by=author, voided_at=at)
    if replacement is not None:
        replacement = {"player_identifier": None, **replacement}
        _checked(buy_in.table, replacement["seat"], replacement["kind"], replacement["amount"])
        BuyIn.objects.create(
            casino_id=buy_in.casino_id, table=buy_in.table, session_id=buy_in.session_id,
            gaming_day=buy_in.gaming_day, seat=replacement["seat"], kind=replacement["kind"],
            amount=replacement["amount"], player_identifier=_player(replacement["player_identifier"]),
            recorded_at=buy_in.recorded_at, recorded_by=author, corrects=buy_in)
    return void
