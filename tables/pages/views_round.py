"""Recording on the tablet: the round-entry page and its JSON endpoints (preview, save,
Hold'em next step), the round's result page and corrections.

The page builds the game's round JSON as the pit boss taps; these views only parse the
request, call the recording services (``round_audit`` for the preview, ``round_record``
through ``idempotent_call`` for the save, ``round_correct``) or the engine's
``holdem.actions.next_step``, and answer JSON. No rule is decided here.
"""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from casino.api_input import BodyRefused, read_json_body
from casino.field_words import KIND_WORDS, error_words, wager_label
from casino.permissions import role_required
from casino.roles import GAMING_MANAGER, PIT_BOSS
from casino.scoping import scope
from tables.games import HOLDEM_BLACKJACK
from tables.games.holdem.actions import next_step
from tables.games.vocabulary.base import InvalidInput
from tables.models import Finding, Round, Table
from tables.pages.entry import entry_config
from tables.pages.present import dealer_did_words, net_words, round_view
from tables.services.idempotency import IdempotencyMismatch, idempotent_call
from tables.services.round_pays import PAYS_RECORDED
from tables.services.rounds import (
    StaleRevision,
    round_audit,
    round_context,
    round_correct,
    round_limits,
    round_may_change,
    round_record,
)
from tables.services.sessions import dealer_on_duty, table_session_current

CORRECTORS = (PIT_BOSS, GAMING_MANAGER)


def _table(request, pk: int) -> Table:
    return get_object_or_404(
        scope(Table.objects.select_related("pit__casino", "ruleset"), request.user, "pit__casino"), pk=pk)


def _json_body(request) -> dict:
    """The posted JSON under the API's limits (size, depth, storable text)."""
    try:
        body = read_json_body(request)
    except BodyRefused as refused:
        raise ValidationError(refused.errors or {"body": [refused.detail]}) from None
    if not isinstance(body, dict):
        raise ValidationError({"body": ["must be a JSON object"]})
    if not isinstance(body.get("round"), dict):
        raise ValidationError({"round": ["the round is missing"]})
    return body


def _error_response(exc: Exception, body: dict | None = None, status: int = 400) -> JsonResponse:
    """``errors`` by field path (the outbox keeps them) and ``messages``, the same in the
    words the tablet shows: seats by their number at the table, hands and cards from one."""
    if isinstance(exc, InvalidInput):
        errors = exc.as_dict()
    elif isinstance(exc, ValidationError) and hasattr(exc, "error_dict"):
        errors = exc.message_dict
    else:
        errors = {"round": getattr(exc, "messages", [str(exc)])}
    return JsonResponse({"errors": errors, "messages": error_words(errors, (body or {}).get("round"))}, status=status)


def findings_words(findings) -> list[dict]:
    """Findings as the tablet shows them: plain words and the money at stake."""
    out = []
    for f in findings:
        get = f.get if isinstance(f, dict) else lambda k, f=f: getattr(f, k)
        out.append(
            {
                "kind": get("kind"),
                "kind_words": KIND_WORDS.get(get("kind"), get("kind")),
                "code": get("code"),
                "message": get("message"),
                "amount": str(get("amount")),
                "seat": get("seat"),
            }
        )
    return out


def settlements_words(settlements) -> list[dict]:
    return [
        {
            **s,
            "label": wager_label(s["wager"], s.get("hand"), s.get("line")),
            "words": net_words(s["net"]),
        }
        for s in settlements
    ]


def _correcting(table: Table, body: dict) -> Round | None:
    if not body.get("correcting"):
        return None
    return get_object_or_404(Round, pk=body["correcting"], table=table)


@role_required(PIT_BOSS)
def round_new(request, pk: int):
    table = _table(request, pk)
    session = table_session_current(table)
    return render(
        request,
        "tablet/round_entry.html",
        {
            "table": table,
            "session": session,
            "dealer": dealer_on_duty(session) if session else None,
            "config": {
                **entry_config(table, table.ruleset.current_version),
                **_urls(table),
                "csrf": get_token(request),
                "mode": "new",
            },
        },
    )


def _urls(table: Table) -> dict:
    return {
        "preview_url": reverse("tablet-round-preview", args=[table.pk]),
        "save_url": reverse("tablet-round-save", args=[table.pk]),
        "next_url": reverse("tablet-holdem-next", args=[table.pk]),
        "table_url": reverse("tablet-table", args=[table.pk]),
    }


@require_POST
@role_required(PIT_BOSS, GAMING_MANAGER)
def round_preview(request, pk: int):
    """What every wager should pay, and what the engine notes, without storing anything."""
    table = _table(request, pk)
    body = None
    try:
        body = _json_body(request)
        correcting = _correcting(table, body)
        version = correcting.ruleset_version if correcting else table.ruleset.current_version
        # The same jackpot amounts the save will use (progressive meters), read under their lock.
        with transaction.atomic():
            context = round_context(table=table, version=version, round=correcting)
            canonical, result = round_audit(
                game=table.game, data=body["round"], version=version, context=context,
                limits=round_limits(table, correcting),
            )
    except (InvalidInput, ValidationError) as exc:
        return _error_response(exc, body)
    audit = result.to_dict()
    return JsonResponse(
        {
            "round": canonical,
            "settlements": settlements_words(audit["settlements"]),
            "findings": findings_words(audit["findings"]),
            "summary": audit["summary"],
        }
    )


@require_POST
@role_required(PIT_BOSS, GAMING_MANAGER)
def holdem_next(request, pk: int):
    """Hold'em Blackjack: what is due next in the hand so far (posts, card, legal actions)."""
    table = _table(request, pk)
    if table.game != HOLDEM_BLACKJACK:
        return JsonResponse(
            {"errors": {"table": [f"{table.label} does not deal Hold'em Blackjack"]}}, status=400
        )
    try:
        body = _json_body(request)
    except ValidationError as exc:
        return _error_response(exc)
    return JsonResponse(next_step(body["round"], table.ruleset.current_version.rules()))


def _saved_body(rnd: Round, revision) -> dict:
    findings = list(Finding.objects.filter(revision=revision, gaming_day=revision.gaming_day).order_by("id"))
    return {
        "round": rnd.pk,
        "sequence": rnd.sequence,
        "revision": revision.number,
        "table": rnd.table.label,
        "url": reverse("tablet-round", args=[rnd.pk]),
        "findings": findings_words(findings),
        "at_stake": str(sum((f.amount for f in findings), Decimal("0.00"))),
        # Pays attested "paid as shown", not recorded: never shown as matching.
        "attested": sum(w.recorded_net is None for w in _wagers_of(revision)) if revision.pays_attested else 0,
    }


def _wagers_of(revision) -> list:
    rows = getattr(revision, "wager_rows", None)  # just written
    return rows if rows is not None else list(revision.day_wagers())


@require_POST
@role_required(PIT_BOSS)
def round_save(request, pk: int):
    """Record the round once per Idempotency-Key: a resend after a lost answer replays it."""
    table = _table(request, pk)
    try:
        body = _json_body(request)
    except ValidationError as exc:
        return _error_response(exc)

    def produce():
        audited = round_record(table=table, data=body["round"], author=request.user,
                               pays=body.get("pays") or PAYS_RECORDED)
        return 201, _saved_body(audited.round, audited.revision), audited.round

    try:
        stored = idempotent_call(
            user=request.user,
            key=request.headers.get("Idempotency-Key"),
            # "pays" only when sent: an outbox item queued before the tablet sent it still replays.
            body={"table": table.pk, "round": body["round"], **({"pays": body["pays"]} if body.get("pays") else {})},
            produce=produce,
        )
    except IdempotencyMismatch as exc:
        return JsonResponse({"errors": {"key": [str(exc)]}}, status=422)
    except (InvalidInput, ValidationError) as exc:
        return _error_response(exc, body)
    return JsonResponse({**stored.body, "replayed": stored.replayed}, status=stored.status)


def _own(request, rnd: Round) -> None:
    """Refuse the page before the editor opens (the service refuses the save anyway)."""
    if not round_may_change(round=rnd, user=request.user):
        raise PermissionDenied(
            f"Round {rnd} was recorded by {rnd.recorded_by}; only they or a gaming manager "
            "may correct it"
        )


@role_required(PIT_BOSS, GAMING_MANAGER)
def round_result(request, pk: int):
    rnd = get_object_or_404(
        scope(Round.objects.select_related("table__pit__casino", "dealer", "recorded_by"), request.user, "table__pit__casino"),
        pk=pk,
    )
    current = rnd.day_revisions().get(number=rnd.revision)
    findings = list(rnd.day_findings().filter(revision=current).order_by("id"))
    wagers = list(current.day_wagers())
    return render(
        request,
        "tablet/round_result.html",
        {
            "round": rnd,
            "current": current,
            "view": round_view(rnd.game, current.data),
            "summary": current.audit.get("summary", {}),
            "settlements": settlements_words(current.audit.get("settlements", [])),
            "recorded": {(w.seat, w.wager, w.hand): w.recorded_net for w in wagers},
            "wagers": [
                {
                    "label": wager_label(w.wager, w.hand, w.line),
                    "seat": w.seat,
                    "stake": w.stake,
                    "expected": net_words(w.expected_net),
                    "recorded": dealer_did_words(w.recorded_net, wager=w.wager, pays_attested=current.pays_attested),
                    "differs": w.recorded_net is not None and w.recorded_net != w.expected_net,
                }
                for w in wagers
            ],
            "findings": findings_words(findings),
            "at_stake": sum((f.amount for f in findings), Decimal("0.00")),
            "attested": sum(w.recorded_net is None for w in wagers) if current.pays_attested else 0,
            "may_correct": rnd.status == Round.ACTIVE and round_may_change(round=rnd, user=request.user),
            "revisions": rnd.day_revisions().select_related("author").order_by("number"),
        },
    )


@role_required(*CORRECTORS)
def round_correct_page(request, pk: int):
    rnd = get_object_or_404(
        scope(Round.objects.select_related("table__pit__casino", "table__ruleset", "ruleset_version"),
              request.user, "table__pit__casino"),
        pk=pk,
    )
    _own(request, rnd)
    if request.method == "POST":
        return _correct(request, rnd)
    current = rnd.day_revisions().get(number=rnd.revision)
    table = rnd.table
    config = {
        **entry_config(table, rnd.ruleset_version),
        **_urls(table),
        "csrf": get_token(request),
        "mode": "correct",
        "correct_url": reverse("tablet-round-correct", args=[rnd.pk]),
        "correcting": rnd.pk,
        "revision": rnd.revision,
        "data": current.data,
        "pays_attested": current.pays_attested,
    }
    return render(
        request,
        "tablet/round_entry.html",
        {
            "table": table,
            "round": rnd,
            "config": config,
            "session": True,
            "dealer": rnd.dealer,
            "reviewed": rnd.day_findings().filter(status__in=Finding.REVIEWED).count(),
        },
    )


def _correct(request, rnd: Round):
    body = None
    try:
        body = _json_body(request)
        revision = int(body.get("revision") or 0)
        audited = round_correct(
            round=rnd,
            revision=revision,
            data=body["round"],
            reason=body.get("reason", ""),
            author=request.user,
            pays=body.get("pays") or PAYS_RECORDED,
        )
    except StaleRevision as exc:
        return JsonResponse(
            {"errors": {"revision": [str(exc)]}, "current_revision": exc.current}, status=409
        )
    except (InvalidInput, ValidationError) as exc:
        return _error_response(exc, body)
    except (TypeError, ValueError):
        return JsonResponse({"errors": {"revision": ["must be a whole number"]}}, status=400)
    return JsonResponse(_saved_body(audited.round, audited.revision), status=200)
