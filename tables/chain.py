"""Tamper evidence: hash chains over what was recorded and decided.

Each link's digest is ``sha256(previous digest + "\\n" + canonical text)``, the text a
stable JSON serialisation of the audited columns of the rows the link covers, rebuilt from
the database by ``manage.py audit_verify``. A row changed, removed or inserted behind the
app's back (even by the owner with the guards off) no longer hashes to its link, breaks
the next link, or is a row without a link.

Chains follow the locks the writers already take, so tables never wait for each other:
``table:<id>`` (written under the table's row lock: revisions with their wagers and
findings, findings a re-audit adds, findings' status changes, voids), ``bank:<id>``
(under the bank's meter locks: ledger transactions with their legs) and
``money:<casino>:<gaming day>`` (under an advisory lock of its own: the chip ledger, slips,
buy-ins, drops, counts, Title 31 records, closes and reopens; audit/money_chain.py). A
chain's head is always read in its own statement once the lock is held (see
:func:`head_subquery`). ``audit_verify --repair-forks`` re-links links that a writer
appended after a stale head (``audit.chain_verify.repair_forks``). A day's head
(``audit.chain_verify.day_head``) hashes the heads of the casino's chains at the end of its gaming day
(by each link's event time, the time of what it covers);
the daily report prints it, so a kept report proves later that nothing before it changed.

This module writes the chains, in the writers' transactions; reading them afterwards (verifying,
a day's head, repairing forks, sealing what came before them) is ``audit.chain_verify``.

What a link covers leaves out what may legitimately change: a round's gaming day and
session (a rollover may move them) and the counters derived from other rows.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, date, datetime
from decimal import Decimal

from django.db import connections

from casino.prepared import PREPARED
from casino.rows import RowInserter
from tables.models import ChainLink, Finding, Table

GENESIS = "0" * 64
CENT = Decimal("0.01")


def _value(v):
    """JSON for what json cannot write itself (the C encoder calls this only for those)."""
    if isinstance(v, datetime):
        return v.astimezone(UTC).isoformat()
    if isinstance(v, date):
        return v.isoformat()
    if isinstance(v, Decimal):
        return str(v.quantize(CENT)) if v == v.quantize(CENT) else str(v.normalize())
    raise TypeError(f"{type(v).__name__} is not part of an audited row")


def canonical(obj) -> str:
    """Stable text of ``obj``: sorted keys, no spaces, money to the cent, times in UTC."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_value)


def link_digest(previous: str, text: str) -> str:
    return hashlib.sha256(f"{previous}\n{text}".encode()).hexdigest()


# --- What each kind of link covers (the same functions serve writing and verifying) ------

WAGER_FIELDS = ("seat", "player", "wager", "hand", "line", "stake", "expected_net", "recorded_net", "outcome",
                "explanation")
FINDING_FIELDS = ("kind", "code", "message", "path", "rule", "expected", "recorded", "amount", "seat", "player",
                  "created_at")
STATUS_FIELDS = ("id", "status", "review_note", "reviewed_by_id", "reviewed_at", "reopened_at", "reopened_reason")
VOID_FIELDS = ("id", "status", "void_reason", "voided_by_id", "voided_at")


def revision_text(*, rnd, revision, wagers, findings) -> str:
    """A revision, its round's fixed columns, its wagers (value tuples in WAGER_FIELDS order)
    and the findings recorded with it (tuples in FINDING_FIELDS order)."""
    covered = [revision.pk, revision.number, revision.data, revision.audit, revision.reason,
               revision.author_id, revision.created_at, revision.engine_version]
    if revision.pays_attested:  # only when set: the links written before the column keep their text
        covered.append("pays attested")
    return canonical({
        "round": [rnd.pk, rnd.table_id, rnd.sequence, rnd.game, rnd.ruleset_version_id, rnd.dealer_id,
                  rnd.recorded_by_id, rnd.recorded_at],
        "revision": covered,
        "wagers": [list(w) for w in wagers], "findings": [list(f) for f in findings]})


def finding_text(finding) -> str:
    return canonical([finding.pk, finding.round_id, finding.revision_id, finding.status,
                      *(getattr(finding, f) for f in FINDING_FIELDS)])


def status_text(history_row) -> str:
    return canonical([history_row.history_id, *(getattr(history_row, f) for f in STATUS_FIELDS)])


def void_text(rnd) -> str:
    return canonical([getattr(rnd, f) for f in VOID_FIELDS])


def ledger_text(txn, legs) -> str:
    """A ledger transaction and its legs ((account id, amount) in insertion order)."""
    return canonical([txn.pk, txn.bank_id, txn.kind, txn.created_at, txn.gaming_day, txn.memo, txn.line,
                      txn.created_by_id, txn.round_id, txn.revision_id, txn.reverses_id, txn.contribution_base,
                      [list(leg) for leg in legs]])


# --- Writing links -----------------------------------------------------------------------

_LINKS = RowInserter(ChainLink, ("chain", "kind", "ref", "digest", "created_at"), returning_pk=False)


def table_chain(table_id: int) -> str:
    return f"table:{table_id}"


def bank_chain(bank_id: int) -> str:
    return f"bank:{bank_id}"


def head_subquery(connection, chain_sql: str) -> str:
    """SQL for a chain's head. Never embed it in the statement that takes the chain's lock:
    under READ COMMITTED a statement that waited for a row lock still reads everything but
    the locked row from the snapshot it took before waiting, so it would return the head
    the previous holder of the lock replaced, and two links would share one predecessor."""
    links = connection.ops.quote_name(ChainLink._meta.db_table)
    return f"(SELECT digest FROM {links} WHERE chain = {chain_sql} ORDER BY id DESC LIMIT 1)"  # noqa: S608


def chain_head(chain: str, *, using: str = "default") -> str:
    """The chain's last digest. The caller holds the chain's lock, taken by an EARLIER
    statement: this one's snapshot then includes every link committed before the lock was
    granted."""
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(f"{PREPARED}SELECT {head_subquery(connection, '%s')}", [chain])
        return cursor.fetchone()[0] or GENESIS


def lock_table(table_id: int, *, using: str = "default") -> None:
    """Lock the table's row as recording a round does (the lock that orders its chain)."""
    connection = connections[using]
    table = connection.ops.quote_name(Table._meta.db_table)
    sql = f"{PREPARED}SELECT 1 FROM {table} t WHERE t.id = %s"  # noqa: S608
    if connection.vendor == "postgresql":
        sql += " FOR NO KEY UPDATE OF t"
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])


def lock_table_chain(table_id: int, *, using: str = "default") -> str:
    """Lock the table's row and return its chain's head, read in a second statement once
    the lock is held (see :func:`head_subquery` for why not in the same one)."""
    lock_table(table_id, using=using)
    return chain_head(table_chain(table_id), using=using)


def append(chain: str, previous: str, links: list[tuple[str, int, str, datetime]], *,
           using: str = "default") -> str:
    """Write links ((kind, ref, text, event time), in order) after ``previous``; the new head.

    A link's ``created_at`` is the time of the event it covers (a revision's ``created_at``,
    a finding's ``created_at``, a status change's ``history_date``, a void's ``voided_at``,
    a ledger transaction's ``created_at``), not the time it was written: :func:`day_head`
    places links in gaming days by it, so play recorded with a past ``at`` or sealed by the
    upgrade belongs to the day it happened."""
    rows = []
    for kind, ref, text, at in links:
        if at is None:
            raise ValueError(f"{kind} {ref}: a link needs the time of the event it covers")
        previous = link_digest(previous, text)
        rows.append((chain, kind, ref, previous, at))
    _LINKS.insert(rows, using=using)
    return previous


def chain_finding_changes(findings, *, using: str = "default") -> None:
    """Chain the status changes just saved (with history) on ``findings``: one link per
    finding's newest history row, on its round's table chain (locked here)."""
    findings = list(findings)
    if not findings:
        return
    history = Finding.history.model
    latest = {}
    for row in history.objects.using(using).filter(id__in=[f.pk for f in findings]).order_by("history_id"):
        latest[row.id] = row
    by_table: dict[int, list] = {}
    rounds = dict(Finding.objects.using(using).filter(pk__in=[f.pk for f in findings])
                  .values_list("pk", "round__table_id"))
    for finding in findings:
        by_table.setdefault(rounds[finding.pk], []).append(latest[finding.pk])
    for table_id in sorted(by_table):
        head = lock_table_chain(table_id, using=using)
        append(table_chain(table_id), head,
               [(ChainLink.STATUS, row.history_id, status_text(row), row.history_date)
                for row in by_table[table_id]], using=using)
