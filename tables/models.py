"""The floor: pits, tables, dealers, the rulesets tables run under, the rounds played there, and
what recording a round writes with it (findings, chain links). The casino itself is
``casino.models.Casino``.

Every change is kept by django-simple-history (who, when, what, why). A ruleset's every
configuration is also frozen as an append-only :class:`RulesetVersion`, which is what a
recorded round points at: editing a ruleset never changes how a past round settles.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from simple_history.models import HistoricalRecords

from casino.local_time import local_time_text
from casino.models import Casino
from tables.games import GAME_CHOICES, GAMES
from tables.games.vocabulary.base import FINDING_KINDS


class Pit(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="pits")
    name = models.CharField(max_length=60)
    history = HistoricalRecords()

    class Meta:
        ordering = ["casino__name", "name"]
        constraints = [models.UniqueConstraint(fields=["casino", "name"], name="pit_unique_name")]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        # A recorded round counts in its pit's casino's reports: moving the pit would move
        # the past into another property's books.
        if self.pk and self.casino_id:
            before = Pit.objects.filter(pk=self.pk).values_list("casino_id", flat=True).first()
            if before is not None and before != self.casino_id and Round.objects.filter(table__pit=self).exists():
                raise ValidationError({"casino": [
                    "This pit has recorded rounds, which stay in its casino's books; "
                    "open a new pit in the other casino instead"]})


class Ruleset(models.Model):
    """A named set of rules for one game. ``config`` is the full engine snapshot."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="rulesets")
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    name = models.CharField(max_length=120)
    config = models.JSONField(help_text="Every setting of the game; see the engine's rulesets.")
    version = models.PositiveIntegerField(default=1, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["casino__name", "game", "name"]
        constraints = [models.UniqueConstraint(fields=["casino", "name"], name="ruleset_unique_name")]

    def __str__(self) -> str:
        return f"{self.name} (v{self.version})"

    @property
    def game_info(self):
        return GAMES[self.game]

    def rules(self):
        """The engine's frozen ruleset for this configuration."""
        return self.game_info.rules_from_dict(self.config)

    @property
    def current_version(self) -> RulesetVersion:
        return self.versions.get(number=self.version)


class RulesetVersion(models.Model):
    """One frozen configuration of a ruleset. Append-only: rounds point here."""

    ruleset = models.ForeignKey(Ruleset, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField()
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    config = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    reason = models.CharField(max_length=500)

    class Meta:
        ordering = ["ruleset", "-number"]
        constraints = [models.UniqueConstraint(fields=["ruleset", "number"], name="rulesetversion_unique_number")]

    def __str__(self) -> str:
        return f"{self.ruleset.name} v{self.number}"

    @classmethod
    def cached(cls, pk: int, created_at) -> RulesetVersion:
        """The version with ``pk``, read once per process: a version never changes (append-only).

        ``created_at`` is part of the key, as in :meth:`rules`: a test database may reuse a pk.
        """
        key = (pk, created_at)
        version = _VERSIONS.get(key)
        if version is None:
            version = cls.objects.select_related("ruleset").get(pk=pk)
            if len(_VERSIONS) > 1000:
                _VERSIONS.clear()
            _VERSIONS[key] = version
        return version

    def rules(self):
        """The engine's ruleset. A version never changes, so it is parsed once per process."""
        key = (self.pk, self.created_at)  # created_at too: a test database may reuse a pk
        rules = _VERSION_RULES.get(key) if self.pk else None
        if rules is None:
            rules = GAMES[self.game].rules_from_dict(self.config)
            if self.pk:
                if len(_VERSION_RULES) > 1000:
                    _VERSION_RULES.clear()
                _VERSION_RULES[key] = rules
        return rules


_VERSION_RULES: dict[tuple, object] = {}
_VERSIONS: dict[tuple, RulesetVersion] = {}


class Table(models.Model):
    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="tables")
    label = models.CharField(max_length=30)
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    ruleset = models.ForeignKey(Ruleset, on_delete=models.PROTECT, related_name="tables")
    is_open = models.BooleanField(default=False)
    min_bet = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("10.00"),
                                  validators=[MinValueValidator(Decimal("0.01"))])
    max_bet = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("500.00"),
                                  validators=[MinValueValidator(Decimal("0.01"))])
    seats = models.PositiveSmallIntegerField(default=7, validators=[MinValueValidator(1), MaxValueValidator(7)])
    history = HistoricalRecords()

    class Meta:
        ordering = ["pit__name", "label"]
        constraints = [
            models.UniqueConstraint(fields=["pit", "label"], name="table_unique_label"),
            models.CheckConstraint(condition=models.Q(max_bet__gte=models.F("min_bet")), name="table_max_ge_min"),
        ]

    def __str__(self) -> str:
        return self.label

    def clean(self) -> None:
        # As for a pit: a table with rounds stays in its casino (another pit of it is fine).
        if self.pk and self.pit_id:
            before = Table.objects.filter(pk=self.pk).values_list("pit__casino_id", flat=True).first()
            moved = before is not None and before != Pit.objects.filter(pk=self.pit_id).values_list(
                "casino_id", flat=True).first()
            if moved and Round.objects.filter(table=self).exists():
                raise ValidationError({"pit": [
                    "This table has recorded rounds, which stay in its casino's books; "
                    "choose a pit of the same casino or set up a new table there"]})


class Dealer(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="dealers")
    employee_number = models.CharField(max_length=20)
    name = models.CharField(max_length=120)
    active = models.BooleanField(default=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "employee_number"], name="dealer_unique_employee_number"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.employee_number})"


# --- Live play: table sessions, dealers on duty, rounds and their revisions --------------


class TableSession(models.Model):
    """A table open for a gaming day. Rounds are recorded against the open session, and each
    round's gaming day is its session's: a table left open past the gaming-day start rolls
    over to a continuation session for the new day (``tables/services/sessions.py``)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="sessions")
    gaming_day = models.DateField(db_index=True)
    continues = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="continuation",
        help_text="The session of an earlier gaming day this one continues (the table stayed open).")
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+")
    history = HistoricalRecords()

    class Meta:
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(fields=["table"], condition=models.Q(closed_at__isnull=True),
                                    name="tablesession_one_open_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.gaming_day}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class DealerAssignment(models.Model):
    """Who dealt a table session from when to when; each change of dealer is a new row."""

    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="assignments")
    dealer = models.ForeignKey(Dealer, on_delete=models.PROTECT, related_name="assignments")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    assigned_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["started_at"]
        constraints = [
            models.UniqueConstraint(fields=["session"], condition=models.Q(ended_at__isnull=True),
                                    name="dealerassignment_one_on_duty"),
        ]

    def __str__(self) -> str:
        return f"{self.dealer} at {self.session} from {local_time_text(self.started_at, self.session.table, 'time')}"


class Round(models.Model):
    """One round at a table. Its content lives in append-only revisions; this row says which
    revision is current and whether the round was voided."""

    ACTIVE, VOIDED = "active", "voided"
    STATUSES = [(ACTIVE, "active"), (VOIDED, "voided")]

    # Indexes cost every recorded round a write: none that another index already serves
    # (the table's by round_unique_sequence, the gaming day's by (gaming_day, table)).
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds", db_index=False)
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="rounds")
    sequence = models.PositiveIntegerField(help_text="Per-table round number.")
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    gaming_day = models.DateField()
    ruleset_version = models.ForeignKey(RulesetVersion, on_delete=models.PROTECT, related_name="rounds")
    # Indexed by round_dealer_recorded below (which also serves the foreign key).
    dealer = models.ForeignKey(Dealer, on_delete=models.PROTECT, related_name="rounds", db_index=False)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(db_index=True)
    revision = models.PositiveIntegerField(default=1, help_text="The current revision's number.")
    status = models.CharField(max_length=10, choices=STATUSES, default=ACTIVE)
    void_reason = models.CharField(max_length=500, blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+")
    voided_at = models.DateTimeField(null=True, blank=True)
    open_findings = models.PositiveIntegerField(default=0, help_text="Findings of the current revision still open.")
    # The history is read by round (its "id") and by date and author: its other columns
    # need no index of their own.
    history = HistoricalRecords(no_db_index=["table", "session", "gaming_day", "ruleset_version", "dealer",
                                             "recorded_by", "recorded_at", "voided_by"])

    class Meta:
        ordering = ["-recorded_at"]
        constraints = [models.UniqueConstraint(fields=["table", "sequence"], name="round_unique_sequence")]
        indexes = [
            models.Index(fields=["gaming_day", "table"]),
            # A day's findings are scoped and filtered by their round's table and status: each of
            # a busy day's tens of thousands of findings probes its round, and with these columns
            # beside the key the probe is read from the index alone (the desk's totals, the
            # findings API's count), not from a heap page of the round.
            models.Index(fields=["id", "gaming_day"], include=["table", "status"], name="round_scope_probe"),
            # A day's rounds newest first (the rounds list): recorded_at's own index gives that
            # order across the month's partition, reading past the later days' rounds first.
            models.Index(fields=["gaming_day", "recorded_at"], name="round_day_recorded"),
            # A dealer's rounds newest first (the dealer page's rounds with an error): the dealer's
            # own index gave them in no order, so a page of 20 sorted every round the dealer dealt
            # in the period (thousands on a busy day). It replaces the dealer's own index.
            models.Index(fields=["dealer", "recorded_at"], name="round_dealer_recorded"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.sequence}"

    def day_revisions(self):
        """This round's revisions, read from its own month's partition (the day said)."""
        return self.revisions.filter(gaming_day=self.gaming_day)

    def day_findings(self):
        """This round's findings, read from its own month's partition (the day said)."""
        return self.findings.filter(gaming_day=self.gaming_day)


class RoundCounter(models.Model):
    """The sequence of a table's newest round: the next round takes one more (issue #20).

    Rounds live in monthly partitions, where ``MAX(sequence)`` of a table probes every month's
    index, so the cost of numbering a round grew with the history. The recorder bumps this row
    in the round's own INSERT, under the table's lock (casino/rows.py NumberedRowInserter).
    It is not an audit record: it is derived from the rounds (``MAX(sequence)`` of the table)
    and rebuilt from them when missing (the repair path: delete it as the owner, the next
    round reads the maximum once). It only grows (casino/audit_guard.py RULES), because a
    number given twice would land in another month's partition, where the unique
    ``round_unique_sequence`` (per partition) could not refuse it.
    """

    table = models.OneToOneField(Table, on_delete=models.PROTECT, primary_key=True, related_name="+")
    last = models.PositiveIntegerField(help_text="The sequence of the table's newest round.")

    def __str__(self) -> str:
        return f"{self.table_id}: round {self.last}"


#: A revision's wagers in their order (the model's ordering after the revision, without its join).
WAGER_ORDER = ("seat", "wager", "hand")


class RoundRevision(models.Model):
    """What was recorded, as the engine's canonical JSON, and the engine's audit of it.
    Append-only (a correction is a new revision with a reason and an author)."""

    # Indexed by roundrevision_unique_number (round, number). Rounds are partitioned by gaming
    # day: PostgreSQL's composite key (round, gaming_day) stands for Django's one-column
    # constraint (tables/history/partitions.py).
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="revisions", db_index=False,
                              db_constraint=False)
    #: The round's gaming day, repeated: the partition key (no index of its own).
    gaming_day = models.DateField()
    number = models.PositiveIntegerField()
    data = models.JSONField(help_text="The round in the engine's canonical JSON form.")
    audit = models.JSONField(help_text="The engine's settlements, findings and summary.")
    reason = models.CharField(max_length=500, blank=True, help_text="Why this revision (blank for the first).")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    engine_version = models.CharField(max_length=40)
    #: The pit boss attested "paid as shown" for every pay of this revision not recorded one by
    #: one (its wagers with no recorded pay): counted apart, never as paid correctly.
    pays_attested = models.BooleanField(default=False, db_default=False,
                                        help_text='Pays not recorded were attested "paid as shown".')

    class Meta:
        ordering = ["round", "number"]
        # The day is the round's: unique per (round, number) as before, and a key PostgreSQL's
        # partitioned table can hold (it must include the partition key).
        constraints = [models.UniqueConstraint(fields=["round", "number", "gaming_day"],
                                               name="roundrevision_unique_number")]

    def __str__(self) -> str:
        return f"{self.round} r{self.number}"

    def day_wagers(self):
        """This revision's wagers in their order, read from its own month's partition: the day
        said, and no join to revisions and rounds (which ordering by the ``revision`` key, the
        model's ordering, costs across every month kept)."""
        return self.wagers.filter(gaming_day=self.gaming_day).order_by(*WAGER_ORDER)


class Wager(models.Model):
    """One wager of one revision: the stake, what the engine says it pays, what the dealer did.
    Relational so that finance aggregates in SQL."""

    # Composite keys (revision, gaming_day) and (round, gaming_day) in PostgreSQL (RoundRevision.round).
    revision = models.ForeignKey(RoundRevision, on_delete=models.PROTECT, related_name="wagers",
                                 db_constraint=False)
    # Indexed by (round, revision) below.
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="wagers", db_index=False,
                              db_constraint=False)
    #: The round's gaming day, repeated: the partition key (no index of its own).
    gaming_day = models.DateField()
    seat = models.PositiveSmallIntegerField()
    # Found by the exact identifier: its LIKE index is dropped (migration 0003).
    player = models.CharField(max_length=40, blank=True, db_index=True)
    wager = models.CharField(max_length=40)
    hand = models.PositiveSmallIntegerField(null=True, blank=True)
    line = models.CharField(max_length=40, blank=True)
    stake = models.DecimalField(max_digits=14, decimal_places=2)
    expected_net = models.DecimalField(max_digits=14, decimal_places=2)
    recorded_net = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    outcome = models.CharField(max_length=10)
    explanation = models.TextField()

    class Meta:
        ordering = ["revision", "seat", "wager", "hand"]
        indexes = [models.Index(fields=["round", "revision"])]

    def __str__(self) -> str:
        return f"{self.round} seat {self.seat} {self.wager}"


class IdempotencyKey(models.Model):
    """A client's Idempotency-Key: the same key and body replays the first response."""

    key = models.CharField(max_length=200)
    # Indexed by idempotencykey_unique_per_user (user, key); nothing looks keys up by round.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", db_index=False)
    request_hash = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField()
    response_body = models.JSONField()
    # Rounds are partitioned: a constraint trigger checks the round exists (tables/history/partitions.py).
    round = models.ForeignKey(Round, on_delete=models.PROTECT, null=True, related_name="+", db_index=False,
                              db_constraint=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotencykey_unique_per_user")]

    def __str__(self) -> str:
        return self.key


class HistoryArchiveEvent(models.Model):
    """A month of the partitioned history detached to the archive schema, attached back for an
    investigation, or dropped past the retention period (tables/history/archive.py): who,
    when, why and what. Append-only; it stays when the month goes."""

    DETACH, ATTACH, DROP = "detach", "attach", "drop"
    ACTIONS = [(DETACH, "detached to the archive schema"), (ATTACH, "attached back"),
               (DROP, "dropped past retention")]

    action = models.CharField(max_length=10, choices=ACTIONS)
    month = models.DateField(help_text="The month's first day.")
    reason = models.TextField()
    performed_by = models.CharField(max_length=200, help_text="The operating-system login and the database role.")
    performed_at = models.DateTimeField()
    tablespace = models.CharField(max_length=63, blank=True)
    partitions = models.JSONField(help_text="{partition: rows} of what moved.")

    class Meta:
        ordering = ["performed_at", "id"]
        constraints = [models.CheckConstraint(condition=~models.Q(reason=""), name="historyarchiveevent_has_reason")]

    def __str__(self) -> str:
        return f"{self.month:%Y-%m} {self.action} at {self.performed_at:%Y-%m-%d %H:%M} UTC"


# --- What recording a round writes besides the round: the engine's findings and the chain ---
# (audit reads them afterwards: surveillance reviews findings, ``audit_verify`` checks the chain)


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
    history = HistoricalRecords(table_name="audit_historicalfinding")

    class Meta:
        db_table = "audit_finding"  # made by the audit app before the floor held findings
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
    it covers)`` (tables/chain.py). One chain per table (its rounds' revisions with their
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
        db_table = "audit_chainlink"
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
        db_table = "audit_chainrepair"
        ordering = ["id"]
        indexes = [models.Index(fields=["new_digest"])]

    def __str__(self) -> str:
        return f"{self.chain} link {self.link} re-linked"
