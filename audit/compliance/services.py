"""Title 31 writes (README.md beside this package). Each is one transaction with keyword-only
arguments; a refusal names the field, nothing is stored.

Cash-outs and CTR exceptions are records of a gaming day, so a closed day refuses them
(tables/closing refuse_closed_day). Identification and the MTL sign-off are compliance's own
work, which goes on after a day closes (a patron identified the next week; the log signed the
morning after): they are accepted on a closed day.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from casino.api_input import text_problem
from casino.gaming_day import gaming_day_of
from casino.models import Casino
from casino.roles import CAGE, COMPLIANCE, GAMING_MANAGER, has_role
from casino.scoping import may_see_casino
from tables.accounting.models import BuyIn
from tables.closed_days import refuse_closed_day
from tables.closing.services.check import day_close_current
from tables.closing.services.close import day_close_if_due
from tables.players.models import Player
from tables.players.services.register import player_register

from .models import (
    CASH_IN,
    DIRECTIONS,
    CashOut,
    CashOutVoid,
    ComplianceSettings,
    CtrException,
    MtlSignOff,
    PatronIdentification,
)
from .selectors import compliance_day

SETTINGS_EDITORS = (GAMING_MANAGER, COMPLIANCE)
#: The largest single cash-out the cage records; more is refused as a typing mistake.
CASH_OUT_MAX = Decimal("1000000.00")
IDENTIFIER_MAX = 40
IDENTIFICATION_FIELDS = ("last_name", "first_name", "address", "date_of_birth", "tin", "occupation",
                         "document_type", "document_number", "document_issuer", "document_expiry")


def _refuse_foreign(author, casino: Casino) -> None:
    if not may_see_casino(author, casino.pk):
        raise ValidationError({"casino": [f"{casino} is not one of your casinos"]})


def _identifier(raw, *, required: bool = False, field: str = "player_identifier") -> str | None:
    text = (raw or "").strip()
    if not text:
        if required:
            raise ValidationError({field: ["give the patron's identifier (card number or ID)"]})
        return None
    if len(text) > IDENTIFIER_MAX:
        raise ValidationError({field: [f"at most {IDENTIFIER_MAX} characters"]})
    problem = text_problem(text)
    if problem:
        raise ValidationError({field: [problem]})
    return text


def _reason(raw) -> str:
    reason = (raw or "").strip()
    if not reason:
        raise ValidationError({"reason": ["say why"]})
    problem = text_problem(reason)
    if problem:
        raise ValidationError({"reason": [problem]})
    return reason


# --- settings ----------------------------------------------------------------------------------

@transaction.atomic
def settings_save(*, casino: Casino, author, reason: str, **values) -> ComplianceSettings:
    """Change the casino's thresholds (a gaming manager or compliance); the history keeps the
    author and reason."""
    if not has_role(author, *SETTINGS_EDITORS):
        raise ValidationError({"casino": ["only a gaming manager or compliance changes the Title 31 settings"]})
    _refuse_foreign(author, casino)
    reason = _reason(reason)
    unknown = set(values) - {"mtl_threshold", "ctr_threshold", "band_pct", "near_count"}
    if unknown:
        raise ValidationError({name: ["not a setting"] for name in sorted(unknown)})
    saved = ComplianceSettings.objects.select_for_update().filter(casino=casino).first() or \
        ComplianceSettings(casino=casino)
    for name, value in values.items():
        setattr(saved, name, value)
    errors: dict[str, list[str]] = {}
    for name in ("mtl_threshold", "ctr_threshold"):
        value = getattr(saved, name)
        if not isinstance(value, Decimal) or not value.is_finite() or value <= 0:
            errors[name] = ["must be more than 0"]
    if not errors and saved.mtl_threshold >= saved.ctr_threshold:
        errors["mtl_threshold"] = ["must be below the CTR threshold"]
    if not isinstance(saved.band_pct, Decimal) or not 0 < saved.band_pct < 100:
        errors["band_pct"] = ["a percentage more than 0 and less than 100"]
    if isinstance(saved.near_count, bool) or not isinstance(saved.near_count, int) or saved.near_count < 2:
        errors["near_count"] = ["at least 2 (one transaction is not a pattern)"]
    if errors:
        raise ValidationError(errors)
    saved._history_user, saved._change_reason = author, reason
    saved.save()
    return saved


# --- cash out at the cage ---------------------------------------------------------------------

def _checked_cash_out(kind, amount) -> None:
    errors: dict[str, list[str]] = {}
    if kind not in dict(CashOut.KINDS):
        errors["kind"] = [f"{kind!r} is not one of {', '.join(dict(CashOut.KINDS))}"]
    if not isinstance(amount, Decimal) or not amount.is_finite() or amount <= 0:
        errors["amount"] = ["must be more than 0"]
    elif amount != amount.quantize(Decimal("0.01")):
        errors["amount"] = ["must be whole cents"]
    elif amount > CASH_OUT_MAX:
        errors["amount"] = [f"more than {CASH_OUT_MAX:,.2f} is not a cash-out the cage pays at once"]
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def cash_out_record(*, casino: Casino, kind: str, amount: Decimal, author, player_identifier: str | None = None,
                    at=None) -> CashOut:
    """Currency the cage paid a patron; its gaming day is that of the moment it is recorded."""
    if not has_role(author, CAGE):
        raise ValidationError({"casino": ["the cage records cash-outs"]})
    _refuse_foreign(author, casino)
    _checked_cash_out(kind, amount)
    identifier = _identifier(player_identifier)
    at = at or timezone.now()
    day = gaming_day_of(at, casino.time_zone, casino.gaming_day_start_hour)
    refuse_closed_day(casino.pk, day)
    return CashOut.objects.create(casino=casino, gaming_day=day, kind=kind, amount=amount,
                                  player_identifier=identifier, recorded_at=at, recorded_by=author)


@transaction.atomic
def cash_out_void(*, cash_out: CashOut, reason: str, author, at=None, replacement: dict | None = None) -> CashOutVoid:
    """Void a cash-out with a reason (the cashier who recorded it, or a gaming manager);
    ``replacement`` (kind, amount, player_identifier): the right record, same moment and day."""
    cash_out = CashOut.objects.select_for_update().get(pk=cash_out.pk)
    if cash_out.recorded_by_id != author.pk and not has_role(author, GAMING_MANAGER):
        raise ValidationError({"cash_out": ["only the cashier who recorded it or a gaming manager may void it"]})
    refuse_closed_day(cash_out.casino_id, cash_out.gaming_day)
    if CashOutVoid.objects.filter(cash_out=cash_out).exists():
        raise ValidationError({"cash_out": [f"cash-out {cash_out.pk} is already voided"]})
    reason = _reason(reason)
    void = CashOutVoid.objects.create(cash_out=cash_out, reason=reason, voided_by=author,
                                      voided_at=at or timezone.now())
    if replacement is not None:
        replacement = {"player_identifier": None, **replacement}
        _checked_cash_out(replacement["kind"], replacement["amount"])
        CashOut.objects.create(casino_id=cash_out.casino_id, gaming_day=cash_out.gaming_day, kind=replacement["kind"],
                               amount=replacement["amount"],
                               player_identifier=_identifier(replacement["player_identifier"]),
                               recorded_at=cash_out.recorded_at, recorded_by=author, corrects=cash_out)
    return void


# --- identification and what it settles ------------------------------------------------------

def _close_days_of(casino_id: int, identifier: str) -> None:
    """The open gaming days in which ``identifier`` has cash transactions may now close."""
    days = set(BuyIn.objects.filter(casino_id=casino_id, player_identifier=identifier, kind=BuyIn.CASH)
               .values_list("gaming_day", flat=True))
    days |= set(CashOut.objects.filter(casino_id=casino_id, player_identifier=identifier)
                .values_list("gaming_day", flat=True))
    for day in sorted(days):
        if day_close_current(casino_id, day) is None:
            day_close_if_due(casino_id, day)


@transaction.atomic
def identification_record(*, casino: Casino, identifier: str, author, reason: str, name: str = "",
                          at=None, **values) -> PatronIdentification:
    """Record the patron's identification from the document (compliance only). The patron is
    registered as a player when nobody has been. A newer record supersedes, never edits, the last.
    A day waiting on this patron's CTR may then close."""
    if not has_role(author, COMPLIANCE):
        raise PermissionDenied("only compliance records identification")
    _refuse_foreign(author, casino)
    identifier = _identifier(identifier, required=True, field="identifier")
    reason = _reason(reason)
    unknown = set(values) - set(IDENTIFICATION_FIELDS)
    if unknown:
        raise ValidationError({name_: ["not a field of an identification"] for name_ in sorted(unknown)})
    errors: dict[str, list[str]] = {}
    for key, value in values.items():
        if isinstance(value, str):
            values[key] = value.strip()
            problem = text_problem(values[key])
            if problem:
                errors[key] = [problem]
    at = at or timezone.now()
    birth = values.get("date_of_birth")
    if birth is not None and not isinstance(birth, date):
        errors["date_of_birth"] = ["a date (YYYY-MM-DD)"]
    elif birth is not None and birth >= at.date():
        errors["date_of_birth"] = ["must be in the past"]
    if errors:
        raise ValidationError(errors)
    player = Player.objects.filter(casino=casino, identifier=identifier).first()
    if player is None:
        player = player_register(casino=casino, identifier=identifier, name=name, author=author, at=at)
    record = PatronIdentification(player=player, reason=reason, recorded_at=at, recorded_by=author, **values)
    record.full_clean(exclude=["player", "recorded_by"])
    record.save()
    _close_days_of(casino.pk, identifier)
    return record


@transaction.atomic
def ctr_exception_record(*, casino: Casino, gaming_day: date, subject: str, direction: str, reason: str, author,
                         at=None) -> CtrException:
    """Compliance settles a required CTR without full identification (the reason says why, e.g.
    'patron left without ID; CTR filed with what is known'); the day may then close."""
    if not has_role(author, COMPLIANCE):
        raise PermissionDenied("only compliance records a CTR exception")
    _refuse_foreign(author, casino)
    if direction not in dict(DIRECTIONS):
        raise ValidationError({"direction": [f"one of {', '.join(dict(DIRECTIONS))}"]})
    reason = _reason(reason)
    refuse_closed_day(casino.pk, gaming_day)
    subject = (subject or "").strip()
    day = compliance_day(casino, gaming_day)
    if not any(c.subject == subject and c.direction == direction for c in day.ctrs):
        raise ValidationError({"subject": [f"no CTR is required for {subject or '(nobody)'} "
                                           f"({'cash in' if direction == CASH_IN else 'cash out'}) on {gaming_day}"]})
    exception = CtrException.objects.create(casino=casino, gaming_day=gaming_day, subject=subject,
                                            direction=direction, reason=reason, recorded_by=author,
                                            recorded_at=at or timezone.now())
    day_close_if_due(casino.pk, gaming_day)
    return exception


@transaction.atomic
def mtl_sign_off(*, casino: Casino, gaming_day: date, author, note: str = "", at=None) -> MtlSignOff:
    """Compliance signs the day's MTL as it stands now (its digest is kept). Signing again after
    a change is a new sign-off; the earlier one stays."""
    if not has_role(author, COMPLIANCE):
        raise PermissionDenied("only compliance signs the MTL")
    _refuse_foreign(author, casino)
    note = (note or "").strip()
    problem = text_problem(note) if note else None
    if problem:
        raise ValidationError({"note": [problem]})
    day = compliance_day(casino, gaming_day)
    return MtlSignOff.objects.create(casino=casino, gaming_day=gaming_day, digest=day.digest, patrons=len(day.mtl),
                                     note=note, signed_by=author, signed_at=at or timezone.now())
