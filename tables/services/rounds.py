"""A round's three actions: record (:func:`round_record`), correct (:func:`round_correct`) and
void (:func:`round_void`). Each is one transaction that reads top to bottom:

1. lock: the table's row (recording) or the round's (a correction, a void);
2. engine: parse and audit the round (``tables.games``), against the ledgers' meters;
3. write: the round, its revision, wagers and findings, and the link on the table's hash chain;
4. ledgers that may refuse (``ROUND_LEDGERS``: the jackpot banks), in the settings' order;
5. projections (``ROUND_PROJECTIONS``: the desk's rollups, the count lines, the rating sessions);
6. on commit: nothing yet; whatever a round queues goes through ``casino.outbox``.

The two kinds of listeners are typed in ``tables.round_effects``; nothing else listens.

A round's content is never overwritten: a correction is a new revision (reason and
author required) that is audited afresh; the old revision and its findings stay readable.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from typing import NamedTuple

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connections, router, transaction
from django.db.models import Max
from django.utils import timezone

from casino.audit_guard import allow_audit_write
from casino.models import Casino
from casino.money import cents
from casino.prepared import PREPARED
from casino.roles import GAMING_MANAGER, has_role
from casino.rows import NumberedRowInserter, RowInserter, history_columns, history_values
from casino.scoping import may_see_casino
from tables import chain
from tables.closed_days import refuse_closed_day
from tables.games import ENGINE_VERSION, GAMES
from tables.games.vocabulary.base import (
    Audit,
    AuditContext,
    FieldError,
    InvalidInput,
)
from tables.games.vocabulary.base import Finding as EngineFinding
from tables.models import (
    ChainLink,
    Dealer,
    DealerAssignment,
    Finding,
    Pit,
    Round,
    RoundCounter,
    RoundRevision,
    Ruleset,
    RulesetVersion,
    Table,
    TableSession,
    Wager,
)
from tables.round_effects import RoundLedger, round_ledgers, round_projections
from tables.services.findings import findings_round_changed
from tables.services.round_limits import TableLimits, limit_findings, round_refusals
from tables.services.round_pays import round_pays_check
from tables.services.sessions import table_session_for_moment


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


def round_audit(*, game: str, data: dict, version: RulesetVersion, context: AuditContext | None = None,
                limits: TableLimits | None = None):
    """Parse and audit a round without storing anything: (canonical data, audit).

    Refused as well: what the books cannot store (``round_limits.round_refusals``). With
    the table's ``limits``, wagers outside them are findings.
    """
    _parsed, canonical, result = round_parsed_audit(game=game, data=data, version=version, context=context,
                                                    limits=limits)
    return canonical, result


def round_parsed_audit(*, game: str, data: dict, version: RulesetVersion, context: AuditContext | None = None,
                       limits: TableLimits | None = None, stored: bool = False):
    """:func:`round_audit` with the engine's parsed round first: (parsed, canonical data, audit),
    for a caller that prices the round's decisions too (the re-audit), so it is parsed once.

    ``stored``: ``data`` is a stored revision's, the canonical form the engine made when it was
    recorded, and what the books hold: the books' limits are read from it, and it is returned
    as the canonical data, rather than made again (the re-audit replays a million a day)."""
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
    canonical = data if stored else module.round_to_dict(parsed)
    refusals = round_refusals(canonical=canonical, data=data, audit=result)
    if refusals:
        raise _prefixed(InvalidInput(refusals))
    if limits is not None:
        outside = limit_findings(game=game, canonical=canonical, data=data, limits=limits)
        if outside:
            result = replace(result, findings=(*result.findings, *outside))
    return parsed, canonical, result


def round_players(canonical: dict) -> dict[int, str]:
    """Seat -> player id of a round in its canonical JSON form ("" when not given)."""
    return {seat["seat"]: seat.get("player") or "" for seat in canonical.get("seats", [])}


def findings_from_audit(*, rnd: Round, revision: RoundRevision, findings: Iterable[EngineFinding],
                        players: Mapping[int, str], at, note: str = "") -> list[Finding]:
    """The one map from the engine's findings to stored Finding rows (unsaved).

    Recording and correcting a round (here) and the re-audit (audit.reports.services.reaudit)
    both build their rows with it, so a finding reads the same whichever wrote it; ``note``
    goes before the engine's message (the re-audit says it added the finding).
    """
    return [Finding(round=rnd, revision=revision, gaming_day=rnd.gaming_day, kind=f.kind, code=f.code, message=note + f.message, path=f.path,
                    rule=f.rule, expected=f.expected, recorded=f.recorded, amount=f.amount, seat=f.seat,
                    player=players.get(f.seat, "") if f.seat is not None else "", created_at=at)
            for f in findings]


def findings_history_write(findings: list[Finding], *, author, reason: str, at) -> None:
    """A "+" history row for each newly stored finding, with the acting user (None for the
    re-audit, which runs without one) and the reason, at ``at``: simple-history's bulk
    helper, as neither the built INSERT nor ``bulk_create`` sends the signal that writes it."""
    if findings:
        Finding.history.bulk_history_create(findings, default_user=author, default_change_reason=reason,
                                            default_date=at)


_ROUND_COLUMNS = ("table_id", "session_id", "game", "gaming_day", "ruleset_version_id", "dealer_id",
                  "recorded_by_id", "recorded_at", "revision", "status", "void_reason", "voided_by_id", "voided_at",
                  "open_findings")
# The table's next sequence number is taken from its counter in the INSERT itself, under the
# table's lock: one key lookup, whatever the history (a MAX would probe every month's partition).
_ROUNDS = NumberedRowInserter(Round, _ROUND_COLUMNS, number="sequence", group="table_id", counter=RoundCounter)
_ROUND_HISTORY_COLUMNS = history_columns(Round)
_ROUND_HISTORY = RowInserter(Round.history.model, _ROUND_HISTORY_COLUMNS, returning_pk=False)
# Every child row carries its round's gaming day: the partition key (tables/history/partitions.py).
_REVISIONS = RowInserter(RoundRevision, ("round_id", "gaming_day", "number", "data", "audit", "reason", "author_id",
                                         "created_at", "engine_version", "pays_attested"))


class WagerLine(NamedTuple):
    """A wager row as it is written, without its revision and round: what the answer lists."""

    seat: int
    player: str
    wager: str
    hand: int | None
    line: str
    stake: Decimal
    expected_net: Decimal
    recorded_net: Decimal | None
    outcome: str
    explanation: str


_WAGERS = RowInserter(Wager, ("revision_id", "round_id", "gaming_day", *WagerLine._fields), returning_pk=False)
_FINDINGS = RowInserter(Finding, ("round_id", "revision_id", "gaming_day", "kind", "code", "message", "path", "rule", "expected",
                                  "recorded", "amount", "seat", "player", "status", "review_note",
                                  "reopened_reason", "created_at"))


def _store_revision(*, rnd: Round, number: int, canonical: dict, result: Audit, author, reason: str, at,
                    pays_attested: bool = False) -> RoundRevision:
    """Write a revision with its wager and finding rows (built SQL: this is the hot path)."""
    revision = RoundRevision(round=rnd, gaming_day=rnd.gaming_day, number=number, data=canonical, audit=result.to_dict(), reason=reason,
                             author_id=author.pk, created_at=at, engine_version=ENGINE_VERSION, pays_attested=pays_attested)
    revision.pk = _REVISIONS.insert([(rnd.pk, rnd.gaming_day, number, revision.data, revision.audit, reason, author.pk, at,
                                      ENGINE_VERSION, pays_attested)], using=rnd._state.db)[0]
    revision._state.adding, revision._state.db = False, rnd._state.db
    revision.round = rnd
    module = GAMES[rnd.game].module
    recorded = module.recorded_nets(canonical)
    players = round_players(canonical)
    wagers = [WagerLine(s.seat, players.get(s.seat, ""), s.wager, s.hand, s.line or "", s.stake, s.net,
                        recorded.get(s.key), s.outcome, s.explanation)
              for s in result.settlements]
    _WAGERS.insert([(revision.pk, rnd.pk, rnd.gaming_day, *w) for w in wagers], using=rnd._state.db)
    findings = findings_from_audit(rnd=rnd, revision=revision, findings=result.findings, players=players, at=at)
    ids = _FINDINGS.insert([(rnd.pk, revision.pk, rnd.gaming_day, f.kind, f.code, f.message, f.path, f.rule, f.expected, f.recorded,
                             f.amount, f.seat, f.player, f.status, f.review_note, "", at) for f in findings],
                           using=rnd._state.db)
    for finding, pk in zip(findings, ids, strict=True):
        finding.pk = pk
        finding._state.adding, finding._state.db = False, rnd._state.db
    findings_history_write(findings, author=author, reason=f"corrected: {reason}" if reason else "recorded", at=at)
    revision.wager_rows, revision.finding_rows = wagers, findings
    return revision


def _chain_revision(revision: RoundRevision, head: str) -> str:
    """Link ``revision`` (with its wagers and findings) to its table's chain; the new head."""
    rnd = revision.round
    text = chain.revision_text(
        rnd=rnd, revision=revision, wagers=revision.wager_rows,
        findings=[[getattr(f, c) for c in chain.FINDING_FIELDS] for f in revision.finding_rows])
    return chain.append(chain.table_chain(rnd.table_id), head, [(ChainLink.REVISION, revision.pk, text, revision.created_at)],
                        using=rnd._state.db)


@dataclass(frozen=True)
class _TableNow:
    """What recording a round needs to know about its table, read in one statement under its lock."""

    table: Table
    version_id: int
    version_created_at: object
    session_id: int | None
    gaming_day: date | None
    dealer_id: int | None
    dealer_name: str | None
    time_zone: str
    start_hour: int
    casino_id: int


def _context_sql(connection) -> str:
    t, r, v = Table._meta.db_table, Ruleset._meta.db_table, RulesetVersion._meta.db_table
    s, a, d = TableSession._meta.db_table, DealerAssignment._meta.db_table, Dealer._meta.db_table
    p, c = Pit._meta.db_table, Casino._meta.db_table
    # Identifiers come from the models' metadata; the table's id is a parameter.
    sql = (f"{PREPARED}SELECT t.id, t.pit_id, t.label, t.game, t.ruleset_id, t.min_bet, t.max_bet, v.id, v.created_at, s.id, "  # noqa: S608
           f"s.gaming_day, d.id, d.name, c.time_zone, c.gaming_day_start_hour, p.casino_id FROM {t} t "
           f"JOIN {p} p ON p.id = t.pit_id JOIN {c} c ON c.id = p.casino_id JOIN {r} r ON r.id = t.ruleset_id "
           f"JOIN {v} v ON v.ruleset_id = r.id AND v.number = r.version "
           f"LEFT JOIN {s} s ON s.table_id = t.id AND s.closed_at IS NULL "
           f"LEFT JOIN {a} a ON a.session_id = s.id AND a.ended_at IS NULL "
           f"LEFT JOIN {d} d ON d.id = a.dealer_id WHERE t.id = %s ORDER BY s.id, a.id")
    if connection.vendor == "postgresql":
        # The table's row alone: recording at one table never waits for another.
        sql += " FOR NO KEY UPDATE OF t"
    return sql


def limits_of(table: Table) -> TableLimits:
    return TableLimits(table.min_bet, table.max_bet)


def round_limits(table: Table, round: Round | None = None) -> TableLimits:  # noqa: A002
    """The limits a round is judged by: the table's now for a new round, those it had when
    ``round`` was played for a correction (as its ruleset version is). The save and the
    tablet's preview both ask here."""
    return limits_of(table) if round is None else _limits_when(table, round.recorded_at)


def _limits_when(table: Table, at) -> TableLimits:
    try:
        return limits_of(table.history.as_of(at))
    except Table.DoesNotExist:  # no history row that old (a table made before history was kept)
        return limits_of(table)


def _lock_table(table_id: int) -> _TableNow:
    """Lock the table's row (rounds at one table are numbered one after another) and read its state."""
    connection = connections[router.db_for_write(Table)]
    with connection.cursor() as cursor:
        cursor.execute(_context_sql(connection), [table_id])
        row = cursor.fetchone()
    if row is None:
        raise ValidationError({"table": [f'Invalid pk "{table_id}" - object does not exist.']})
    (tid, pit_id, label, game, ruleset_id, min_bet, max_bet, version_id, version_created_at, session_id, day,
     dealer_id, dealer_name, time_zone, start_hour, casino_id) = row
    table = Table(id=tid, pit_id=pit_id, label=label, game=game, ruleset_id=ruleset_id,
                  min_bet=cents(min_bet), max_bet=cents(max_bet))
    table._state.adding, table._state.db = False, connection.alias
    if isinstance(day, str):  # SQLite hands back text
        day = date.fromisoformat(day)
    return _TableNow(table, version_id, version_created_at, session_id, day, dealer_id, dealer_name, time_zone,
                     start_hour, casino_id)


def _session_of_day(now: _TableNow, *, at, author) -> tuple[int, date]:
    """A round's gaming day is the casino's gaming day of the moment it was recorded: in the
    common case the open session's day (nothing more is asked of the database); the first
    round after the gaming-day start at a table left open rolls its session over."""
    return table_session_for_moment(session_id=now.session_id, session_day=now.gaming_day, at=at,
                                    time_zone=now.time_zone, start_hour=now.start_hour, label=now.table.label,
                                    author=author)


def round_record(*, table: Table | int, data: dict, author, dealer: Dealer | None = None, at=None,
                 context: AuditContext | None = None, savepoint: bool = True, pays: str | None = None) -> AuditedRound:
    """Store a round played at ``table`` and its audit, in one transaction.

    Refused (nothing stored): impossible input (every wrong field named), a closed table,
    and a dealer who is not on duty; with ``pays`` (``round_pays``), a pay neither recorded
    nor attested. Anything else that happened is stored as recorded, and its departures
    from the rules become findings.

    Called inside a transaction that is rolled back whole on any error (the API's
    idempotent call), ``savepoint=False`` spares the savepoint's two round trips.
    """
    with transaction.atomic(savepoint=savepoint):
        return _round_record(table=table, data=data, author=author, dealer=dealer, at=at, context=context, pays=pays)


def _pays_attested(*, game: str, canonical: dict, result: Audit, version: RulesetVersion, pays: str | None) -> bool:
    return round_pays_check(game=game, canonical=canonical, result=result, rules=version.rules(), pays=pays)


def _round_record(*, table, data, author, dealer, at, context, pays=None) -> AuditedRound:
    # 1. Lock the table's row and read its state.
    now = _lock_table(table.pk if isinstance(table, Table) else table)
    # Read under the lock: a table's rounds are timed in the order they are recorded, so one that
    # waited while another rolled the session over to a new gaming day is in that day too.
    at = at or timezone.now()
    table = now.table
    if not may_see_casino(author, now.casino_id):  # as if it did not exist: another casino's floor
        raise ValidationError({"table": [f'Invalid pk "{table.pk}" - object does not exist.']})
    if now.session_id is None:
        raise ValidationError({"table": [f"Table {table.label} is closed; open it before recording rounds"]})
    if now.dealer_id is None:
        raise ValidationError({"dealer": ["No dealer is on duty at this table; change the dealer first"]})
    if dealer is not None and dealer.pk != now.dealer_id:
        on_duty = Dealer.objects.get(pk=now.dealer_id)
        raise ValidationError({"dealer": [f"{dealer} is not on duty at table {table.label}; {on_duty} is"]})
    session_id, gaming_day = _session_of_day(now, at=at, author=author)
    refuse_closed_day(now.casino_id, gaming_day)
    version = RulesetVersion.cached(now.version_id, now.version_created_at)

    # 2. The engine's audit. The ledgers' meters are read unlocked for the first audit and
    # locked when the round posts (last): a round that won a progressive line is audited again
    # at the locked meters.
    ledgers = _ledgers_of(table)
    limits = limits_of(table)
    unlocked = _ledgers_context(ledgers, table, version, context, lock=False)
    canonical, result = round_audit(game=table.game, data=data, version=version, context=unlocked, limits=limits)
    if any(bank is not None and ledger.priced_by_meters(result, unlocked) for ledger, bank in ledgers):
        canonical, result = round_audit(game=table.game, data=data, version=version, limits=limits,
                                        context=_ledgers_context(ledgers, table, version, context))
    attested = _pays_attested(game=table.game, canonical=canonical, result=result, version=version, pays=pays)

    # 3. Write the round, its revision, wagers and findings, and its link on the table's chain.
    rnd = Round(table=table, session_id=session_id, game=table.game,
                gaming_day=gaming_day, ruleset_version=version, dealer=Dealer(id=now.dealer_id, name=now.dealer_name),
                recorded_by=author, recorded_at=at, open_findings=len(result.findings))
    rnd.pk, rnd.sequence = _ROUNDS.insert_numbered([getattr(rnd, c) for c in _ROUND_COLUMNS], using=table._state.db)
    rnd._state.adding, rnd._state.db = False, table._state.db
    _ROUND_HISTORY.insert([history_values(rnd, _ROUND_HISTORY_COLUMNS, history_type="+", user=author,
                                          reason="recorded", at=at)], using=table._state.db)
    revision = _store_revision(rnd=rnd, number=1, canonical=canonical, result=result, author=author, reason="",
                               at=at, pays_attested=attested)
    # The head is read now, in its own statement: the statement that took the lock may have
    # waited for it, and would have seen the head from before the wait (tables/chain.py).
    _chain_revision(revision, chain.chain_head(chain.table_chain(table.pk), using=table._state.db))

    # 4. The ledgers post it, or refuse (and nothing above is kept).
    for ledger, bank in ledgers:
        ledger.round_posted(round=rnd, revision=revision, audit=result, author=author, at=at, bank=bank)
    # 5. The projections add it.
    for projection in round_projections():
        projection.round_posted(round=rnd, revision=revision, casino_id=now.casino_id)
    return AuditedRound(rnd, revision, result)


def round_context(*, table: Table, version: RulesetVersion, round: Round | None = None,  # noqa: A002
                  context: AuditContext | None = None) -> AuditContext | None:
    """The audit context the save of a round at ``table`` (or a correction of ``round``) will use:
    every ledger's part (a bank's meters, read under their locks). The tablet's preview asks here."""
    ledgers = _ledgers_of(table, earlier_round=round)
    return _ledgers_context(ledgers, table, version, context, round=round)


def _ledgers_of(table: Table, *, earlier_round: Round | None = None) -> list[tuple[RoundLedger, object]]:
    """Each listed ledger with the account ``table`` feeds (or fed when ``earlier_round`` was played)."""
    return [(ledger, ledger.bank_of(table, earlier_round=earlier_round)) for ledger in round_ledgers()]


def _ledgers_context(ledgers, table, version, context, *, lock: bool = True, round=None):  # noqa: A002
    """The audit context with every ledger's part of it (a bank's meters), in the ledgers' order."""
    for ledger, bank in ledgers:
        context = ledger.context_for_round(table=table, version=version, context=context, bank=bank, round=round,
                                           lock=lock)
    return context


def round_counters_rebuild() -> int:
    """The repair path of the round counters (``tables.models.RoundCounter``): each table's
    counter made from, or raised to, the highest sequence of its rounds (after rounds were
    loaded around the recorder); a counter ahead of its rounds is kept, as its numbers may
    have been given. Each table under its lock, as recording takes it. How many changed."""
    changed = 0
    for table_id in sorted(Round.objects.order_by().values_list("table_id", flat=True).distinct()):
        with transaction.atomic():
            chain.lock_table_chain(table_id)
            highest = Round.objects.filter(table_id=table_id).aggregate(n=Max("sequence"))["n"]
            counter, made = RoundCounter.objects.get_or_create(table_id=table_id, defaults={"last": highest})
            behind = not made and counter.last < highest
            if behind:
                counter.last = highest
                counter.save(update_fields=["last"])
            changed += made or behind
    return changed


def round_may_change(*, round: Round, user) -> bool:  # noqa: A002
    """Pit bosses correct and void their own entries; a gaming manager may any."""
    return round.recorded_by_id == user.pk or has_role(user, GAMING_MANAGER)


def _require_may_change(rnd: Round, user) -> None:
    if not round_may_change(round=rnd, user=user):
        raise PermissionDenied(f"Round {rnd} was recorded by someone else; only they or a gaming manager may "
                               "correct or void it")


def _require_reason(reason: str, what: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": [f"A {what} needs a reason; it is kept with your name"]})
    return reason


@transaction.atomic
def round_correct(*, round: Round, revision: int, data: dict, reason: str, author, at=None,  # noqa: A002
                  context: AuditContext | None = None, pays: str | None = None) -> AuditedRound:
    """Record a corrected version of ``round`` as a new revision, audited afresh.

    ``revision`` is the revision the author corrected; if another correction landed first
    the call raises :class:`StaleRevision` and changes nothing.
    """
    reason = _require_reason(reason, "correction")
    at = at or timezone.now()
    allow_audit_write()
    # 1. Lock the round.
    rnd = Round.objects.select_for_update(of=("self",)).select_related("ruleset_version").get(pk=round.pk)
    _require_may_change(rnd, author)
    if rnd.revision != revision:
        raise StaleRevision(rnd.revision, revision)
    refuse_closed_day(rnd.table.pit.casino_id, rnd.gaming_day)
    if rnd.status == Round.VOIDED:
        raise ValidationError({"round": [f"Round {rnd} was voided; it cannot be corrected"]})

    # 2. The engine's audit, against the meters of the bank the round was played for.
    ledgers = _ledgers_of(rnd.table, earlier_round=rnd)
    canonical, result = round_audit(game=rnd.game, data=data, version=rnd.ruleset_version,
                                    context=_ledgers_context(ledgers, rnd.table, rnd.ruleset_version, context,
                                                             round=rnd),
                                    limits=round_limits(rnd.table, rnd))
    attested = _pays_attested(game=rnd.game, canonical=canonical, result=result, version=rnd.ruleset_version, pays=pays)

    # 3. Write the new revision (the old one's open findings superseded, reviewed ones sent back)
    # and its chain link, inside the projections' watch (5: they add the difference).
    with _projections_changing(rnd):
        findings_round_changed(round=rnd, change=f"corrected to revision {rnd.revision + 1}", reason=reason,
                               author=author, at=at)
        new_revision = _store_revision(rnd=rnd, number=rnd.revision + 1, canonical=canonical, result=result,
                                       author=author, reason=reason, at=at, pays_attested=attested)
        _chain_revision(new_revision, chain.lock_table_chain(rnd.table_id, using=rnd._state.db))
        rnd.revision = new_revision.number
        rnd.open_findings = len(result.findings)
        rnd._history_user, rnd._change_reason = author, f"corrected: {reason}"
        rnd.save(update_fields=["revision", "open_findings"])

    # 4. The ledgers post the difference, or refuse.
    for ledger, bank in ledgers:
        ledger.round_posted(round=rnd, revision=new_revision, audit=result, author=author, at=at, bank=bank)
    # 5. The projections that follow revisions rather than differences.
    for projection in round_projections():
        projection.round_posted(round=rnd, revision=new_revision, casino_id=None)
    return AuditedRound(rnd, new_revision, result)


@transaction.atomic
def round_void(*, round: Round, reason: str, author, at=None) -> Round:  # noqa: A002
    """Void a round (a misdeal, a round recorded at the wrong table). Its records stay."""
    reason = _require_reason(reason, "void")
    allow_audit_write()
    # 1. Lock the round.
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    _require_may_change(rnd, author)
    refuse_closed_day(rnd.table.pit.casino_id, rnd.gaming_day)
    if rnd.status == Round.VOIDED:
        raise ValidationError({"round": [f"Round {rnd} is already voided"]})

    # 3. Write the void, its chain link and what it does to the findings (2: no engine), inside
    # the projections' watch (5: they add the difference).
    with _projections_changing(rnd):
        rnd.status, rnd.void_reason, rnd.voided_by, rnd.voided_at = Round.VOIDED, reason, author, at or timezone.now()
        rnd.open_findings = 0
        rnd._history_user, rnd._change_reason = author, f"voided: {reason}"
        rnd.save(update_fields=["status", "void_reason", "voided_by", "voided_at", "open_findings"])
        head = chain.lock_table_chain(rnd.table_id, using=rnd._state.db)
        chain.append(chain.table_chain(rnd.table_id), head,
                     [(ChainLink.VOID, rnd.pk, chain.void_text(rnd), rnd.voided_at)], using=rnd._state.db)
        findings_round_changed(round=rnd, change="voided", reason=reason, author=author, at=rnd.voided_at)

    # 4. The ledgers reverse what the round moved, or refuse (a paid award).
    for ledger in round_ledgers():
        ledger.round_voided(round=rnd, author=author, reason=reason, at=rnd.voided_at)
    # 5. The projections.
    for projection in round_projections():
        projection.round_voided(round=rnd)
    return rnd


def _projections_changing(rnd: Round) -> ExitStack:
    """Every projection's watch around a change to ``rnd``, entered in the settings' order."""
    stack = ExitStack()
    for projection in round_projections():
        stack.enter_context(projection.changing([rnd.pk]))
    return stack
