"""Reading the hash chains afterwards: verifying every link against the rows it covers, a
gaming day's head (what the daily report prints), repairing forks a stale head left, and sealing
what was recorded before the chains. The chains themselves are written by ``tables.chain``, in
the writers' transactions; the money records' chain is described by ``audit.money_chain``.
"""

from __future__ import annotations

import hashlib
from datetime import date

from django.db import connection, transaction
from django.utils import timezone

from audit import money_chain
from audit.jackpots.models import JackpotBank, LedgerLeg, LedgerTransaction
from casino.gaming_day import gaming_day_bounds
from tables.chain import (
    FINDING_FIELDS,
    GENESIS,
    STATUS_FIELDS,
    WAGER_FIELDS,
    append,
    bank_chain,
    finding_text,
    ledger_text,
    link_digest,
    revision_text,
    status_text,
    table_chain,
    void_text,
)
from tables.history.archive import archived_refs
from tables.models import ChainLink, ChainRepair, Finding, Round, RoundRevision, Table, Wager

# --- Verifying ---------------------------------------------------------------------------


def _revision_texts(revision_ids) -> dict[int, str]:

    revisions = {r.pk: r for r in RoundRevision.objects.filter(pk__in=revision_ids).select_related("round")}
    wagers: dict[int, list] = {}
    for row in Wager.objects.filter(revision_id__in=revisions).order_by("id").values_list("revision_id",
                                                                                        *WAGER_FIELDS):
        wagers.setdefault(row[0], []).append(row[1:])
    findings: dict[int, list] = {}
    for f in Finding.objects.filter(revision_id__in=revisions).order_by("id"):
        if f.created_at == revisions[f.revision_id].created_at:  # recorded with it (a re-audit's have a link each)
            findings.setdefault(f.revision_id, []).append([getattr(f, c) for c in FINDING_FIELDS])
    return {pk: revision_text(rnd=r.round, revision=r, wagers=wagers.get(pk, []), findings=findings.get(pk, []))
            for pk, r in revisions.items()}


def _texts(kind: str, refs: list[int]) -> dict[int, str]:
    """The canonical text of each ref as the database holds it now (missing refs absent)."""
    if kind in money_chain.KINDS:
        return money_chain.texts(kind, refs)
    if kind == ChainLink.REVISION:
        return _revision_texts(refs)
    if kind == ChainLink.FINDING:
        return {f.pk: finding_text(f) for f in Finding.objects.filter(pk__in=refs)}
    if kind == ChainLink.STATUS:
        return {h.history_id: status_text(h) for h in Finding.history.model.objects.filter(history_id__in=refs)}
    if kind == ChainLink.VOID:
        return {r.pk: void_text(r) for r in Round.objects.filter(pk__in=refs)}
    legs: dict[int, list] = {}
    for txn_id, account_id, amount in LedgerLeg.objects.filter(transaction_id__in=refs).order_by("id") \
            .values_list("transaction_id", "account_id", "amount"):
        legs.setdefault(txn_id, []).append((account_id, amount))
    return {t.pk: ledger_text(t, legs.get(t.pk, [])) for t in LedgerTransaction.objects.filter(pk__in=refs)}


def verify(*, batch: int = 2000, archived: list[int] | None = None) -> list[str]:
    """Every problem found: a link whose rows changed or vanished, a link missing from its
    chain, and audited rows that no link covers. Empty when the records are intact.

    A link whose rows sit in a month detached to the archive schema (tables/history/archive.py)
    is not a problem: it cannot be checked until the month is attached again. Their number is
    appended to ``archived``."""
    problems: list[str] = []
    heads: dict[str, str] = {}
    links = ChainLink.objects.order_by("chain", "id").values_list("id", "chain", "kind", "ref", "digest")
    chunk: list[tuple] = []
    skipped = [0]

    def check(rows):
        texts = {kind: _texts(kind, [r[3] for r in rows if r[2] == kind]) for kind in {r[2] for r in rows}}
        away = {kind: archived_refs(kind, [r[3] for r in rows if r[2] == kind and r[3] not in texts[kind]])
                for kind in texts}
        for link_id, name, kind, ref, digest in rows:
            previous = heads.get(name, GENESIS)
            text = texts[kind].get(ref)
            if text is None and away[kind] and ref in away[kind]:
                skipped[0] += 1  # archived: its digest still carries the chain on
            elif text is None:
                hint = " (or archived: run audit_verify as the owner)" if away[kind] is None else ""
                problems.append(f"{name} link {link_id}: {kind} {ref} is missing{hint}")
            elif link_digest(previous, text) != digest:
                problems.append(f"{name} link {link_id}: {kind} {ref} does not match its link "
                                "(changed, or a link before it removed or inserted)")
            heads[name] = digest

    for row in links.iterator(chunk_size=batch):
        chunk.append(row)
        if len(chunk) >= batch:
            check(chunk)
            chunk = []
    check(chunk)
    if archived is not None:
        archived.append(skipped[0])

    linked = {kind: set(ChainLink.objects.filter(kind=kind).values_list("ref", flat=True))
              for kind, _ in ChainLink.KINDS}
    for pk in RoundRevision.objects.exclude(pk__in=linked[ChainLink.REVISION]).values_list("pk", flat=True):
        problems.append(f"revision {pk} has no link: inserted behind the app's back")
    for pk in LedgerTransaction.objects.exclude(pk__in=linked[ChainLink.LEDGER]).values_list("pk", flat=True):
        problems.append(f"ledger transaction {pk} has no link: inserted behind the app's back")
    for pk in Round.objects.filter(status=Round.VOIDED).exclude(pk__in=linked[ChainLink.VOID]) \
            .values_list("pk", flat=True):
        problems.append(f"round {pk} is voided with no link")
    history = Finding.history.model
    for pk in history.objects.filter(history_type="~").exclude(history_id__in=linked[ChainLink.STATUS]) \
            .values_list("history_id", flat=True):
        problems.append(f"finding history row {pk} has no link")
    problems.extend(_unlinked_findings(linked))
    problems.extend(money_chain.unlinked(linked))
    return problems


def _unlinked_findings(linked) -> list[str]:
    """Findings neither recorded with their revision nor linked on their own, and findings
    whose status is not the one their last linked change (or their creation) gave them."""
    history = Finding.history.model
    last_change = {}
    for h in history.objects.filter(history_id__in=linked[ChainLink.STATUS]).order_by("history_id"):
        last_change[h.id] = h
    problems = []
    findings = Finding.objects.select_related("revision").only(
        "id", "created_at", *STATUS_FIELDS[1:], "revision__created_at")
    for f in findings.iterator(chunk_size=2000):
        if f.created_at != f.revision.created_at and f.pk not in linked[ChainLink.FINDING]:
            problems.append(f"finding {f.pk} has no link: inserted behind the app's back")
        h = last_change.get(f.pk)
        expected = ([getattr(h, c) for c in STATUS_FIELDS[1:]] if h is not None else [Finding.OPEN, "", None, None, None, ""])
        if [getattr(f, c) for c in STATUS_FIELDS[1:]] != expected:
            problems.append(f"finding {f.pk} is {f.status}, not what its last linked decision says")
    return problems


def day_heads(casino, day: date) -> dict[str, str]:
    """Each of the casino's chains' state at the end of gaming day ``day``: the digest of its
    last link, in chain order, whose event time is before the day's end (chains with no such
    link left out).

    Links are appended in lock order and their event times are non-decreasing in practice.
    A round recorded with an explicit ``at`` earlier than the chain's last event breaks that:
    its link comes after links of later events. The head is then taken after it (the last
    link in chain order, not the last in time), so it also covers those later links; and a
    round recorded late for a day already reported moves that day's head (``audit_verify``
    then says the printed head is not the current one: re-run the report).

    The day's money chain (audit/money_chain.py) is taken whole: its records belong to the
    day by their gaming day, and a count made the next morning is the day's. The casino's
    chain of closes and reopens is taken by event time, up to its first link that closes or
    reopens this day or a later one: the day's own report is printed before its close."""
    _, end = gaming_day_bounds(day, casino.time_zone, casino.gaming_day_start_hour)
    names = [table_chain(pk) for pk in Table.objects.filter(pit__casino=casino).values_list("pk", flat=True)]
    names += [bank_chain(pk) for pk in JackpotBank.objects.filter(casino=casino).values_list("pk", flat=True)]
    heads = {}
    for name in sorted(names):
        last = ChainLink.objects.filter(chain=name, created_at__lt=end).order_by("-id").values_list(
            "digest", flat=True).first()
        if last:
            heads[name] = last
    money = money_chain.money_chain(casino.pk, day)
    last = ChainLink.objects.filter(chain=money).order_by("-id").values_list("digest", flat=True).first()
    if last:
        heads[money] = last
    last = money_chain.closes_head(casino.pk, day, end)
    if last:
        heads[money_chain.closes_chain(casino.pk)] = last
    return heads


def day_head(casino, day: date, *, heads: dict[str, str] | None = None) -> tuple[str, int]:
    """The casino's chain head at the end of gaming day ``day``: sha256 of each chain's state
    then (:func:`day_heads`, one line per chain; ``heads`` when the caller has them), and how
    many chains it covers."""
    heads = day_heads(casino, day) if heads is None else heads
    lines = [f"{name} {digest}" for name, digest in sorted(heads.items())]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest(), len(lines)


# --- Repairing forks left by the race (heads read before the lock was held) ---------------

#: How far back a forked link's predecessor is looked for: a stale head is one that a writer
#: read before waiting for the lock, so it is at most as old as the writers that waited.
FORK_WINDOW = 256


def repair_forks(*, author, reason: str, apply: bool = True) -> tuple[list[str], list[str]]:
    """Re-link the links that were written after a stale head; ``(repaired, refused)``.

    A link is a race, not a change, when its covered rows as they are now still hash to its
    stored digest from an earlier head of its chain (``sha256(earlier head + text)``): its
    content is the content it was linked with, only its predecessor pointer is wrong, and
    that earlier head is already the predecessor of another link (two links share it). Each
    such link, and every link after it in its chain (their predecessor's digest changes), is
    re-digested in chain order from the chain's current text; one :class:`ChainRepair` row
    per link keeps the old digest, the head it was written after, who, when and why.

    A chain with any other problem (a link whose rows hash to no earlier head: a change; a
    missing row) is refused whole and reported: re-digesting it would vouch for a change.
    Runs as the owner (the links are append-only: the guard trigger is switched off for this
    transaction only) and holds an exclusive lock on the links, so no writer appends while
    it works. ``apply=False``: report what would be done."""
    repaired: list[str] = []
    refused: list[str] = []
    with transaction.atomic():
        links_table = connection.ops.quote_name(ChainLink._meta.db_table)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # Blocks appends (INSERT) until the repair commits; reading stays open.
                cursor.execute(f"LOCK TABLE {links_table} IN SHARE ROW EXCLUSIVE MODE")
        names = list(ChainLink.objects.order_by().values_list("chain", flat=True).distinct())
        now = timezone.now()
        for name in sorted(names):
            plan, problem = _fork_plan(name)
            if problem:
                refused.append(problem)
                continue
            if not plan:
                continue
            forks = sum(1 for p in plan if p[1])
            repaired.append(f"{name}: {forks} forked link(s) re-linked, {len(plan) - forks} later link(s) "
                            "re-digested")
            if not apply:
                continue
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute(f"ALTER TABLE {links_table} DISABLE TRIGGER {ChainLink._meta.db_table}_guard")
            for link_id, forked, used, old, new, kind, ref in plan:
                ChainLink.objects.filter(pk=link_id).update(digest=new)
                ChainRepair.objects.create(
                    link=link_id, chain=name, kind=kind, ref=ref, forked=forked, previous_used=used,
                    old_digest=old, new_digest=new, repaired_by=author, repaired_at=now,
                    reason=reason + ("" if not forked else
                                     f" (proof: its rows hash to its old digest after {used[:12]}..., "
                                     "a head another link also follows)"))
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute(f"ALTER TABLE {links_table} ENABLE TRIGGER {ChainLink._meta.db_table}_guard")
    return repaired, refused


def _fork_plan(name: str) -> tuple[list[tuple], str]:
    """The links of chain ``name`` to re-digest ((id, forked, head used, old digest, new
    digest, kind, ref)), or why the chain is not a pure race."""
    rows = list(ChainLink.objects.filter(chain=name).order_by("id").values_list("id", "kind", "ref", "digest"))
    texts: dict[str, dict[int, str]] = {}
    for kind in {r[1] for r in rows}:
        refs = [r[2] for r in rows if r[1] == kind]
        texts[kind] = {}
        for start in range(0, len(refs), 2000):
            texts[kind].update(_texts(kind, refs[start:start + 2000]))
    old_heads = [GENESIS]  # the stored digests, in chain order: the heads writers could have read
    followed = set()  # heads some link was written after
    new_previous = GENESIS
    plan = []
    for link_id, kind, ref, digest in rows:
        text = texts[kind].get(ref)
        if text is None:
            return [], f"{name} link {link_id}: {kind} {ref} is missing: not a race, not repaired"
        if link_digest(old_heads[-1], text) == digest:
            used, forked = old_heads[-1], False
        else:
            used = next((h for h in reversed(old_heads[-FORK_WINDOW:-1]) if link_digest(h, text) == digest), None)
            if used is None:
                return [], (f"{name} link {link_id}: {kind} {ref} hashes to its digest from no earlier head: "
                            "changed, not a race; not repaired")
            if used not in followed:
                return [], (f"{name} link {link_id}: {kind} {ref} follows head {used[:12]}..., which no other link "
                            "follows: not the shape of a race; not repaired")
            forked = True
        followed.add(used)
        new = link_digest(new_previous, text)
        if new != digest:
            plan.append((link_id, forked, used, digest, new, kind, ref))
        old_heads.append(digest)
        new_previous = new
    return plan, ""


# --- Sealing what came before the chains -------------------------------------------------


def seal_existing() -> int:
    """Link every audited row written before the chains existed, in the order it happened;
    the number of links written.

    Run once, by the migration that creates the chains (audit 0005), so a database that
    already holds play verifies clean afterwards; the seal vouches for the rows as they were
    on the day of the upgrade. From then on a row without a link is one written behind the
    app's back. Never offered as a command: sealing on demand would seal a forgery too.
    """
    order = {ChainLink.REVISION: 0, ChainLink.FINDING: 1, ChainLink.STATUS: 2, ChainLink.VOID: 3}
    events: dict[int, list[tuple]] = {}
    for pk, table_id, at in RoundRevision.objects.values_list("pk", "round__table_id", "created_at"):
        events.setdefault(table_id, []).append((at, order[ChainLink.REVISION], pk, ChainLink.REVISION))
    for pk, table_id, at, revision_at in Finding.objects.values_list(
            "pk", "round__table_id", "created_at", "revision__created_at"):
        if at != revision_at:  # added by a re-audit, not recorded with its revision
            events.setdefault(table_id, []).append((at, order[ChainLink.FINDING], pk, ChainLink.FINDING))
    tables_of = dict(Finding.objects.values_list("pk", "round__table_id"))
    for history_id, finding_id, at in Finding.history.model.objects.filter(history_type="~").values_list(
            "history_id", "id", "history_date"):
        events.setdefault(tables_of[finding_id], []).append((at, order[ChainLink.STATUS], history_id,
                                                             ChainLink.STATUS))
    for pk, table_id, at in Round.objects.filter(status=Round.VOIDED).values_list("pk", "table_id", "voided_at"):
        events.setdefault(table_id, []).append((at, order[ChainLink.VOID], pk, ChainLink.VOID))
    written = 0
    for table_id in sorted(events):
        written += _seal(table_chain(table_id), sorted(events[table_id]))
    banks: dict[int, list[tuple]] = {}
    for pk, bank_id, at in LedgerTransaction.objects.order_by("pk").values_list("pk", "bank_id", "created_at"):
        banks.setdefault(bank_id, []).append((at, 0, pk, ChainLink.LEDGER))
    for bank_id in sorted(banks):
        written += _seal(bank_chain(bank_id), banks[bank_id])
    return written


def _seal(name: str, events: list[tuple]) -> int:
    if ChainLink.objects.filter(chain=name).exists():
        raise RuntimeError(f"{name} already has links: seal_existing runs once, before any link")
    texts = {kind: _texts(kind, [e[2] for e in events if e[3] == kind]) for kind in {e[3] for e in events}}
    previous = GENESIS
    for chunk_start in range(0, len(events), 1000):
        links = [(kind, ref, texts[kind][ref], at) for at, _, ref, kind in events[chunk_start:chunk_start + 1000]]
        previous = append(name, previous, links)
    return len(events)
