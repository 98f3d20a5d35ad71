"""Recording rounds: store what happened, audit it with the engine in the same transaction.

A round's content is never overwritten: a correction is a new revision (reason and
author required) that is audited afresh; the old revision and its findings stay readable.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from simple_history.utils import bulk_update_with_history

from audit.jackpots.services import (
    jackpot_context_for_round,
    jackpot_round_posted,
    jackpot_round_voided,
)
from audit.models import Finding
from casino.audit_guard import allow_audit_write
from casino.roles import GAMING_MANAGER, has_role
from tables.games import ENGINE_VERSION, GAMES
from tables.games.base import Audit, AuditContext, FieldError, InvalidInput, recorded_nets
from tables.models import Dealer, Round, RoundRevision, RulesetVersion, Table, Wager
from tables.services.sessions import dealer_on_duty, table_session_current


class StaleRevision(Exception):  # noqa: N818 - the API answers 409 Conflict
    """A correction named a revision that is no longer the current one."""

    def __init__(self, current: int, given: int):
        self.current, self.given = current, given
        super().__init__(f"revision {given} is not current: the round is at revision {current}; reload and retry")


@dataclass(frozen=True)
class AuditedRound:
    round: Round
    revision: RoundRevision
    audit: Audit


def _prefixed(exc: InvalidInput, prefix: str = "round") -> InvalidInput:
    return InvalidInput(FieldError(f"{prefix}.{e.path}" if e.path else prefix, e.message) for e in exc.errors)


def round_audit(*, game: str, data: dict, version: RulesetVersion, context: AuditContext | None = None):
    """Parse and audit a round without storing anything: (canonical data, audit)."""
    if not isinstance(data, dict):
        raise ValidationError({"round": [f"must be a JSON object (the round of {GAMES[game].name}), "
                                         f"not {type(data).__name__}"]})
    if data.get("game") not in (None, game):
        raise ValidationError({"round": [f'this table deals {GAMES[game].name}, not "{data.get("game")}"']})
    module = GAMES[game].module
    rules = version.rules()
    try:
        parsed = module.parse_round(data, rules)
    except InvalidInput as exc:
        raise _prefixed(exc) from None
    result = module.audit(parsed, rules, context)
    canonical = module.round_to_dict(parsed)
    return canonical, result


def _players(canonical: dict) -> dict[int, str]:
    return {seat["seat"]: seat.get("player") or "" for seat in canonical.get("seats", [])}


def _store_revision(*, rnd: Round, number: int, canonical: dict, result: Audit, author, reason: str, at) -> RoundRevision:
    revision = RoundRevision.objects.create(
        round=rnd, number=number, data=canonical, audit=result.to_dict(), reason=reason, author=author,
        created_at=at, engine_version=ENGINE_VERSION,
    )
    module = GAMES[rnd.game].module
    recorded = getattr(module, "recorded_nets", recorded_nets)(canonical)
    players = _players(canonical)
    revision.wager_rows = Wager.objects.bulk_create([
        Wager(revision=revision, round=rnd, seat=s.seat, player=players.get(s.seat, ""), wager=s.wager, hand=s.hand,
              line=s.line or "", stake=s.stake, expected_net=s.net, recorded_net=recorded.get(s.key),
              outcome=s.outcome, explanation=s.explanation)
        for s in result.settlements
    ])
    revision.finding_rows = Finding.objects.bulk_create([
        Finding(round=rnd, revision=revision, kind=f.kind, code=f.code, message=f.message, path=f.path, rule=f.rule,
                expected=f.expected, recorded=f.recorded, amount=f.amount, seat=f.seat,
                player=players.get(f.seat, "") if f.seat is not None else "", created_at=at)
        for f in result.findings
    ])
    return revision


def _resolve_dealer(session, dealer: Dealer | None) -> Dealer:
    on_duty = dealer_on_duty(session)
    if on_duty is None:
        raise ValidationError({"dealer": ["No dealer is on duty at this table; change the dealer first"]})
    if dealer is not None and dealer.pk != on_duty.pk:
        raise ValidationError({"dealer": [f"{dealer} is not on duty at table {session.table.label}; {on_duty} is"]})
    return on_duty


@transaction.atomic
def round_record(*, table: Table, data: dict, author, dealer: Dealer | None = None, at=None,
                 context: AuditContext | None = None) -> AuditedRound:
    """Store a round played at ``table`` and its audit, in one transaction.

    Refused (nothing stored): impossible input (every wrong field named), a closed table,
    and a dealer who is not on duty. Anything else that happened is stored as recorded,
    and its departures from the rules become findings.
    """
    at = at or timezone.now()
    table = Table.objects.select_for_update(of=("self",), no_key=True).select_related("pit__casino", "ruleset").get(pk=table.pk)
    session = table_session_current(table)
    if session is None:
        raise ValidationError({"table": [f"Table {table.label} is closed; open it before recording rounds"]})
    dealer = _resolve_dealer(session, dealer)
    version = table.ruleset.current_version
    context = jackpot_context_for_round(table=table, version=version, context=context)
    canonical, result = round_audit(game=table.game, data=data, version=version, context=context)
    sequence = (Round.objects.filter(table=table).aggregate(m=Max("sequence"))["m"] or 0) + 1
    rnd = Round(table=table, session=session, sequence=sequence, game=table.game, gaming_day=session.gaming_day,
                ruleset_version=version, dealer=dealer, recorded_by=author, recorded_at=at,
                open_findings=len(result.findings))
    rnd._history_user, rnd._change_reason = author, "recorded"
    rnd.save()
    revision = _store_revision(rnd=rnd, number=1, canonical=canonical, result=result, author=author, reason="",
                               at=at)
    jackpot_round_posted(round=rnd, revision=revision, audit=result, author=author, at=at)
    return AuditedRound(rnd, revision, result)


def round_may_change(*, round: Round, user) -> bool:  # noqa: A002
    """Pit bosses correct and void their own entries; a gaming manager may any."""
    return round.recorded_by_id == user.pk or has_role(user, GAMING_MANAGER)


def _require_may_change(rnd: Round, user) -> None:
    if not round_may_change(round=rnd, user=user):
        raise PermissionDenied(f"Round {rnd} was recorded by someone else; only they or a gaming manager may "
                               "correct or void it")


def _supersede_findings(rnd: Round, *, author, reason: str) -> None:
    findings = list(Finding.objects.filter(round=rnd, status=Finding.OPEN))
    for finding in findings:
        finding.status = Finding.SUPERSEDED
    if findings:
        bulk_update_with_history(findings, Finding, ["status"], default_user=author, default_change_reason=reason)


def _require_reason(reason: str, what: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": [f"A {what} needs a reason; it is kept with your name"]})
    return reason


@transaction.atomic
def round_correct(*, round: Round, revision: int, data: dict, reason: str, author, at=None,  # noqa: A002
                  context: AuditContext | None = None) -> AuditedRound:
    """Record a corrected version of ``round`` as a new revision, audited afresh.

    ``revision`` is the revision the author corrected; if another correction landed first
    the call raises :class:`StaleRevision` and changes nothing.
    """
    reason = _require_reason(reason, "correction")
    at = at or timezone.now()
    allow_audit_write()
    rnd = Round.objects.select_for_update(of=("self",)).select_related("ruleset_version").get(pk=round.pk)
    _require_may_change(rnd, author)
    if rnd.revision != revision:
        raise StaleRevision(rnd.revision, revision)
    if rnd.status == Round.VOIDED:
        raise ValidationError({"round": [f"Round {rnd} was voided; it cannot be corrected"]})
    context = jackpot_context_for_round(table=rnd.table, version=rnd.ruleset_version, context=context, round=rnd)
    canonical, result = round_audit(game=rnd.game, data=data, version=rnd.ruleset_version, context=context)
    _supersede_findings(rnd, author=author, reason=f"superseded by a correction: {reason}")
    new_revision = _store_revision(rnd=rnd, number=rnd.revision + 1, canonical=canonical, result=result,
                                   author=author, reason=reason, at=at)
    rnd.revision = new_revision.number
    rnd.open_findings = len(result.findings)
    rnd._history_user, rnd._change_reason = author, f"corrected: {reason}"
    rnd.save(update_fields=["revision", "open_findings"])
    jackpot_round_posted(round=rnd, revision=new_revision, audit=result, author=author, at=at)
    return AuditedRound(rnd, new_revision, result)


@transaction.atomic
def round_void(*, round: Round, reason: str, author, at=None) -> Round:  # noqa: A002
    """Void a round (a misdeal, a round recorded at the wrong table). Its records stay."""
    reason = _require_reason(reason, "void")
    allow_audit_write()
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    _require_may_change(rnd, author)
    if rnd.status == Round.VOIDED:
        raise ValidationError({"round": [f"Round {rnd} is already voided"]})
    rnd.status, rnd.void_reason, rnd.voided_by, rnd.voided_at = Round.VOIDED, reason, author, at or timezone.now()
    rnd.open_findings = 0
    rnd._history_user, rnd._change_reason = author, f"voided: {reason}"
    rnd.save(update_fields=["status", "void_reason", "voided_by", "voided_at", "open_findings"])
    _supersede_findings(rnd, author=author, reason=f"round voided: {reason}")
    jackpot_round_voided(round=rnd, author=author, reason=reason, at=rnd.voided_at)
    return rnd
