"""Re-audit recorded rounds with today's engine: new findings are added, old ones never changed.

The engine is deterministic per ``ENGINE_VERSION``: a revision audited by the current
engine gives the same answer again, so by default only revisions audited by another
engine version are replayed (``full=True`` replays every round). A finding the engine now
reports that the revision does not already carry (same code, path, seat and amount) is
added to the current revision as a new open finding, with a message saying it came from
the re-audit. Stored settlements (Wager rows) are append-only and stay as they are: when
the engine now settles a round differently, the round is counted and listed in the
report (``settlement_changed``) so that a supervisor corrects it with a new revision.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

import orjson
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, F, TextField
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast
from django.utils import timezone

from audit.decisions.pricing import price_replayed, priced, prices_current, rounds_queue
from audit.rollups.writer import rounds_changing
from casino.audit_guard import allow_audit_write
from casino.lookups import AnyOf
from tables import chain
from tables.games import ENGINE_VERSION
from tables.games.vocabulary.base import AuditContext, InvalidInput
from tables.games.vocabulary.money import to_money
from tables.models import ChainLink, Finding, Round, RoundRevision, RulesetVersion
from tables.services.rounds import (
    findings_from_audit,
    findings_history_write,
    round_parsed_audit,
    round_players,
)

from ..theoretical import JACKPOT_KEY

REAUDIT_NOTE = f"[re-audit, engine {ENGINE_VERSION}] "

log = logging.getLogger(__name__)


@dataclass
class ReauditResult:
    rounds: int = 0
    replayed: int = 0
    new_findings: int = 0
    settlement_changed: list[int] = field(default_factory=list)  # round ids
    errors: list[str] = field(default_factory=list)  # rounds the engine now refuses


def _finding_key(code, path, seat, amount) -> tuple:
    return (code, path or "", seat, Decimal(amount).quantize(Decimal("0.01")))


def _context(settlements) -> AuditContext | None:
    """The progressive amounts the round was settled with (its stored settlements), so a replay
    compares like with like."""
    amounts = {
        s["line"]: to_money(s["net"])
        for s in settlements
        if s.get("wager") == JACKPOT_KEY and s.get("line")
    }
    return AuditContext(jackpot_amounts=amounts) if amounts else None


def _settlement_rows(settlements) -> list[tuple]:
    """The stored settlements as comparable rows (their money texts were written by the engine)."""
    return sorted(
        (s["seat"], s["wager"], s.get("hand"), s.get("line") or "", Decimal(s["stake"]), Decimal(s["net"]))
        for s in settlements
    )


def _engine_rows(settlements) -> list[tuple]:
    """The engine's settlements as :func:`_settlement_rows` gives the stored ones (no texts made)."""
    return sorted((s.seat, s.wager, s.hand, s.line or "", s.stake, s.net) for s in settlements)


#: What a replay reads of a revision: no model instances (a slice is thousands of rounds), and
#: of the stored audit only its settlements (PostgreSQL extracts them; the rest is not decoded).
_REPLAY_FIELDS = ("pk", "round_id", "round__game", "round__ruleset_version_id", "data_text", "settlements_text",
                  "round__gaming_day", "number")
_REPLAY_TEXTS = {"data_text": Cast("data", TextField()),
                 "settlements_text": Cast(KeyTransform("settlements", "audit"), TextField())}


@transaction.atomic
def rounds_reaudit(*, round_ids: list[int], full: bool = False, at=None, gaming_day=None) -> ReauditResult:
    """Replay ``round_ids`` (active rounds only) with the engine and add the findings it now
    reports. ``gaming_day``: the rounds' day, when they share one (a report's slice), so that
    PostgreSQL reads that month's partitions only."""
    at = at or timezone.now()
    result = ReauditResult()
    result.rounds = len(round_ids)
    if not round_ids:
        return result
    revisions = RoundRevision.objects.filter(
        AnyOf(F("round_id"), round_ids), number=F("round__revision"), round__status=Round.ACTIVE
    )
    findings = Finding.objects.filter(AnyOf(F("round_id"), round_ids))
    if gaming_day is not None:
        revisions = revisions.filter(gaming_day=gaming_day, round__gaming_day=gaming_day)
        findings = findings.filter(gaming_day=gaming_day)
    if not full:
        revisions = revisions.exclude(engine_version=ENGINE_VERSION)
    rows = list(revisions.order_by("round_id").annotate(**_REPLAY_TEXTS).values_list(*_REPLAY_FIELDS))
    versions = RulesetVersion.objects.in_bulk({row[3] for row in rows})
    existing: dict[int, set] = defaultdict(set)
    for revision_id, code, path, seat, amount in findings.values_list("revision_id", "code", "path", "seat", "amount"):
        existing[revision_id].add(_finding_key(code, path, seat, amount))
    found: dict[int, list] = {}  # revision id -> the engine findings it does not carry yet
    loads = orjson.loads
    # A revision whose decisions' prices another pricing made, or none, is queued (derived data
    # follows its inputs) and, once this transaction commits, priced from the data decoded here
    # (_price_after_commit); what that leaves queued, the workers' pricing takes (audit.decisions).
    to_price = []  # (round id, gaming day, revision number, game, version id, data, parsed round)
    current = set(prices_current(round_ids))
    for revision_id, round_id, game, version_id, data, settlements, day, number in rows:
        result.replayed += 1
        data = loads(data)
        settlements = loads(settlements) if settlements is not None else ()
        try:
            parsed, _, audit = round_parsed_audit(game=game, data=data, version=versions[version_id],
                                                  context=_context(settlements), stored=True)
        except (InvalidInput, ValidationError) as exc:
            result.errors.append(f"round {round_id}: the engine now refuses it: {exc}")
            parsed = None
        if (round_id, number) not in current and priced(game, versions[version_id]):
            to_price.append((round_id, day, number, game, version_id, data, parsed))
        if parsed is None:
            continue
        if _engine_rows(audit.settlements) != _settlement_rows(settlements):
            result.settlement_changed.append(round_id)
        seen = existing[revision_id]
        added = []
        for f in audit.findings:
            key = _finding_key(f.code, f.path, f.seat, f.amount)
            if key in seen:
                continue
            seen.add(key)
            added.append(f)
        if added:
            found[revision_id] = added
    claimed = rounds_queue([(r[0], r[1]) for r in to_price], claim=True)
    if to_price:
        transaction.on_commit(lambda: _price_after_commit(to_price, versions, claimed))
    new: list[Finding] = []
    touched: set[int] = set()
    # Model instances only for the revisions that gained findings (a re-audit of a new engine
    # finds few): the one map recording uses, the message marked as the re-audit's.
    for rev in RoundRevision.objects.filter(pk__in=list(found)).select_related("round"):
        touched.add(rev.round_id)
        new += findings_from_audit(rnd=rev.round, revision=rev, findings=found[rev.pk],
                                   players=round_players(rev.data), at=at, note=REAUDIT_NOTE)
    if new:
        allow_audit_write()
        # The rounds' locks before their rollup figures are read (rounds_changing reads them
        # before and after the write and adds the difference): a correction or void committed
        # between an unlocked read and the write would be counted a second time. In round
        # order, as a correction takes them (round, then table).
        days = {f.gaming_day for f in new}
        locked = {rnd.pk: rnd for rnd in Round.objects.select_for_update()
                  .filter(pk__in=sorted(touched), gaming_day__in=days).order_by("pk")}
        # A round corrected or voided since it was replayed: what the replay found belongs to a
        # revision no longer current (the correction was audited afresh; a void counts nothing).
        new = [f for f in new if locked[f.round_id].status == Round.ACTIVE
               and locked[f.round_id].revision == f.revision.number]
        touched = {f.round_id for f in new}
    if new:
        with rounds_changing(touched):
            new = Finding.objects.bulk_create(new)
        # history as recording writes it: a "+" row per finding, dated at the re-audit; no
        # acting user (a report run or task has none), the reason names the engine
        findings_history_write(
            new, author=None, reason=f"re-audit by engine {ENGINE_VERSION}", at=at
        )
        counts = dict(
            Finding.objects.filter(round_id__in=touched, gaming_day__in=days, status=Finding.OPEN)
            .values("round_id")
            .annotate(n=Count("id"))
            .values_list("round_id", "n")
        )
        for pk in sorted(touched):
            rnd = locked[pk]
            rnd.open_findings = counts.get(rnd.pk, 0)
            rnd._change_reason = f"re-audit by engine {ENGINE_VERSION} added findings"
            rnd.save(update_fields=["open_findings"])
        # After the rounds' locks, as a correction takes them (round, then table).
        _chain_new_findings(new)
        result.new_findings = len(new)
    return result


def _price_after_commit(replayed: list[tuple], versions: dict, claimed: list[tuple] | None) -> None:
    """The replayed revisions' decisions priced by the worker that has them decoded, after the
    slice's commit (no lock of the slice is held while the engine works). A failure leaves
    them queued for the workers' pricing, which is the guarantee; this is the fast path."""
    try:
        price_replayed(replayed, versions=versions, claimed=claimed)
    except Exception:  # noqa: BLE001 - the queue keeps every round this pass could not price
        log.exception("pricing %d replayed rounds after the re-audit; they stay queued", len(replayed))


def _chain_new_findings(findings: list[Finding]) -> None:
    """One link per added finding, on its round's table chain (locked in table order)."""
    tables = dict(Round.objects.filter(pk__in={f.round_id for f in findings}).values_list("pk", "table_id"))
    by_table: dict[int, list[Finding]] = {}
    for finding in sorted(findings, key=lambda f: f.pk):
        by_table.setdefault(tables[finding.round_id], []).append(finding)
    for table_id in sorted(by_table):
        head = chain.lock_table_chain(table_id)
        chain.append(chain.table_chain(table_id), head,
                     [(ChainLink.FINDING, f.pk, chain.finding_text(f), f.created_at) for f in by_table[table_id]])
