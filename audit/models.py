"""Findings: what the engine found wrong in a recorded round, and surveillance's review."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from tables.games.vocabulary.base import FINDING_KINDS
from tables.models import Round, RoundRevision


class Finding(models.Model):
    OPEN, CONFIRMED, DISMISSED, ESCALATED, SUPERSEDED = "open", "confirmed", "dismissed", "escalated", "superseded"
    STATUSES = [
        (OPEN, "open"),
        (CONFIRMED, "confirmed as dealer error"),
        (DISMISSED, "dismissed as a recording mistake"),
        (ESCALATED, "escalated"),
        (SUPERSEDED, "superseded by a correction"),
    ]
    #: Decisions surveillance made that a correction or void never takes away.
    REVIEWED = (CONFIRMED, ESCALATED)

    # Composite keys (round, gaming_day) and (revision, gaming_day) in PostgreSQL, where these
    # tables are partitioned by gaming day (tables/history/partitions.py).
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="findings", db_constraint=False)
    revision = models.ForeignKey(RoundRevision, on_delete=models.PROTECT, related_name="findings",
                                 db_constraint=False)
    #: The round's gaming day, repeated: the partition key (no index of its own).
    gaming_day = models.DateField()
    kind = models.CharField(max_length=20, choices=[(k, k.replace("_", " ")) for k in FINDING_KINDS])
    code = models.CharField(max_length=60, db_index=True)  # matched exactly: its LIKE index is dropped
    message = models.TextField()
    path = models.CharField(max_length=200, blank=True)
    rule = models.TextField(blank=True)
    # NULL, not "", when the finding has no such value (a procedure finding has no recorded pay).
    expected = models.CharField(max_length=200, blank=True, null=True)  # noqa: DJ001
    recorded = models.CharField(max_length=200, blank=True, null=True)  # noqa: DJ001
    amount = models.DecimalField(max_digits=14, decimal_places=2, help_text="Money at stake.")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    player = models.CharField(max_length=40, blank=True)
    status = models.CharField(max_length=12, choices=STATUSES, default=OPEN)
    review_note = models.TextField(blank=True)
    reviewed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+")
    reviewed_at = models.DateTimeField(null=True, blank=True)
    # A reviewed finding (confirmed or escalated) is never superseded: a correction or void of
    # its round keeps it counted and sends it back for a new decision (docs/audit/surveillance-desk.md).
    reopened_at = models.DateTimeField(
        null=True, blank=True, help_text="Sent back to surveillance by a correction or void; cleared by a decision."
    )
    reopened_reason = models.TextField(blank=True, help_text="What changed the round: revision, author, reason.")
    created_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["-created_at", "id"]
        # Every finding written costs an index write per index: (status, kind) also serves
        # status alone (migration 0003 dropped its own index). A day's lists read their page in
        # order from an index of the day: the desk newest or largest first, the API by id (the
        # primary key (id, gaming_day) is in id order across the month's days, not within one day).
        indexes = [
            models.Index(fields=["status", "kind"]),
            models.Index(fields=["gaming_day", "created_at", "id"], name="finding_day_newest"),
            models.Index(fields=["gaming_day", "id"], name="finding_day_id"),
            models.Index(fields=["gaming_day", "-amount", "-created_at", "id"], name="finding_day_largest"),
        ]

    def __str__(self) -> str:
        return f"{self.code} on {self.round}"


class ChainLink(models.Model):
    """One link of a hash chain: ``digest = sha256(previous digest + canonical text of what
    it covers)`` (audit/chain.py). One chain per table (its rounds' revisions with their
    wagers and findings, findings' status changes, voids) and one per jackpot bank (ledger
    transactions with their legs). Append-only; ``manage.py audit_verify`` recomputes them.
    ``created_at`` is the time of the event the link covers (not of the INSERT): a day's head
    (``chain.day_head``) is taken by it."""

    REVISION, FINDING, STATUS, VOID, LEDGER = "revision", "finding", "status", "void", "ledger"
    # The records money and the regulator's figures are computed from (audit/money_chain.py).
    MONEY_KINDS = [("chiptxn", "chip ledger transaction with its legs"), ("buyin", "buy-in"),
                   ("buyinvoid", "buy-in void"), ("invslip", "opener or closer slip with its lines"),
                   ("chipslip", "fill or credit state (history row) with its lines"), ("dropbox", "drop box"),
                   ("boxdrop", "drop box dropped"), ("softcount", "soft count with its lines"),
                   ("countsign", "soft count signature"), ("cashout", "cash-out"), ("cashoutvd", "cash-out void"),
                   ("patronid", "patron identification"), ("ctrexcept", "CTR exception"),
                   ("mtlsignoff", "MTL sign-off"), ("dayclose", "gaming day closed"),
                   ("dayreopen", "gaming day reopened")]
    KINDS = [(REVISION, "revision with its wagers and findings"), (FINDING, "finding added by a re-audit"),
             (STATUS, "finding status change (history row)"), (VOID, "round voided"),
             (LEDGER, "ledger transaction with its legs"), *MONEY_KINDS]

    chain = models.CharField(max_length=40, help_text='"table:<id>", "bank:<id>" or "money:<casino>:<gaming day>".')
    kind = models.CharField(max_length=10, choices=KINDS)
    ref = models.BigIntegerField(help_text="The id of what the link covers (see kind).")
    digest = models.CharField(max_length=64)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["chain", "id"]
        # The chain's head is its last link: read under the table's (or the bank's meters') lock.
        indexes = [models.Index(fields=["chain", "id"]), models.Index(fields=["kind", "ref"])]

    def __str__(self) -> str:
        return f"{self.chain} {self.kind} {self.ref}"


class ChainRepair(models.Model):
    """One link re-digested by ``audit_verify --repair-forks``: a link written after a stale
    chain head (``forked``: its own content still hashes to its old digest from an earlier
    head, so only its predecessor was wrong) or a link after one (re-digested because its
    predecessor's digest changed). The old digest is kept: anyone can recompute that
    ``sha256(previous_used + text)`` gave it. Append-only."""

    link = models.BigIntegerField(help_text="The ChainLink re-digested.")
    chain = models.CharField(max_length=40)
    kind = models.CharField(max_length=10)
    ref = models.BigIntegerField()
    forked = models.BooleanField(help_text="It followed a stale head (else: a link before it was re-linked).")
    previous_used = models.CharField(max_length=64, help_text="The head the link was written after.")
    old_digest = models.CharField(max_length=64)
    new_digest = models.CharField(max_length=64)
    repaired_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    repaired_at = models.DateTimeField()
    reason = models.TextField()

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["new_digest"])]

    def __str__(self) -> str:
        return f"{self.chain} link {self.link} re-linked"
