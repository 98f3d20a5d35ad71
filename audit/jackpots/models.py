"""Jackpot banks, their line configuration, meters, the double-entry ledger, awards and
adjustments (issue #7). The design and its rulings are in this folder's README.md.

Money owed is never stored as a running total: every balance is the sum of ledger legs
(up to a moment, for "as of" questions). A meter row holds no money; it is the row that
writers lock, in pk order, before they read balances and post.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone
from simple_history.models import HistoricalRecords

from casino.models import Casino
from casino.money import MONEY_SUM
from tables.games.settings.paytables import JACKPOT_LINE_NAMES, JACKPOT_LINES
from tables.models import Round, RoundRevision, Table

LINE_CHOICES = [(line, JACKPOT_LINE_NAMES[line]) for line in JACKPOT_LINES]
MONEY = {"max_digits": 14, "decimal_places": 2}
RATE = {"max_digits": 7, "decimal_places": 6}


class JackpotBank(models.Model):
    """A linked bank of Upcard Luck 21 tables sharing one set of Taxpayer's Fortune meters.
    A single table with its own meters is a bank of one."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="jackpot_banks")
    name = models.CharField(max_length=120)
    defer_changes_until_hit = models.BooleanField(
        default=True,
        help_text="A new configuration of an active progressive line waits until that line's current "
        "jackpot is won (the reset after the hit uses it).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A figure no bank of this kind holds is a typing mistake (1,000,000,000,000 for
    # 1,000,000.00), refused with the field named before it reaches the ledger, not explained after.
    amount_max = models.DecimalField(
        **MONEY, default=Decimal("1000000.00"), validators=[MinValueValidator(Decimal("0.01"))],
        help_text="The largest figure this bank takes: an adjustment (either sign), the meter or reserve "
                  "it leaves, a line's reset (seed) or cap. More is refused as a typing mistake.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["casino__name", "name"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "name"], name="jackpotbank_unique_name")
        ]

    def __str__(self) -> str:
        return self.name


class JackpotBankTable(models.Model):
    """A table's membership of a bank (a table is in at most one bank)."""

    bank = models.ForeignKey(JackpotBank, on_delete=models.PROTECT, related_name="members")
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="jackpot_membership")
    added_at = models.DateTimeField(
        default=timezone.now,
        help_text="Rounds recorded from this moment on feed the bank's meters.",
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["bank", "table__label"]

    def __str__(self) -> str:
        return f"{self.table} in {self.bank}"


class JackpotLineConfig(models.Model):
    """One version of one line's configuration. Its figures never change after creation;
    only ``status`` moves pending -> active -> superseded (kept by simple-history)."""

    PENDING, ACTIVE, SUPERSEDED = "pending", "active", "superseded"
    STATUSES = [
        (PENDING, "pending (after the next hit)"),
        (ACTIVE, "active"),
        (SUPERSEDED, "superseded"),
    ]

    bank = models.ForeignKey(JackpotBank, on_delete=models.PROTECT, related_name="line_configs")
    line = models.CharField(max_length=24, choices=LINE_CHOICES)
    number = models.PositiveIntegerField()
    progressive = models.BooleanField(help_text="Off: the line pays the ruleset's fixed column.")
    reset = models.DecimalField(**MONEY, default=Decimal("0"))
    increment_rate = models.DecimalField(**RATE, default=Decimal("0"))
    hidden_rate = models.DecimalField(**RATE, default=Decimal("0"))
    cap = models.DecimalField(**MONEY, null=True, blank=True)
    reason = models.CharField(max_length=500)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField()
    status = models.CharField(max_length=12, choices=STATUSES)
    activated_at = models.DateTimeField(null=True, blank=True)
    activated_by_round = models.ForeignKey(
        Round,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_constraint=False,  # rounds are partitioned: a constraint trigger checks it exists
        help_text="The round whose hit let this pending version take effect.",
    )
    ledger_position = models.BigIntegerField(
        null=True,
        blank=True,
        help_text="The bank's last ledger transaction id when this took effect.",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["bank", "line", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["bank", "line", "number"], name="jackpotlineconfig_unique_number"
            ),
            models.UniqueConstraint(
                fields=["bank", "line"],
                condition=models.Q(status="active"),
                name="jackpotlineconfig_one_active",
            ),
            models.UniqueConstraint(
                fields=["bank", "line"],
                condition=models.Q(status="pending"),
                name="jackpotlineconfig_one_pending",
            ),
            models.CheckConstraint(
                condition=models.Q(reset__gte=0), name="jackpotlineconfig_reset_ge_0"
            ),
            models.CheckConstraint(
                condition=models.Q(increment_rate__gte=0, hidden_rate__gte=0)
                & models.Q(increment_rate__lte=1, hidden_rate__lte=1)
                & models.Q(increment_rate__lte=1 - models.F("hidden_rate")),
                name="jackpotlineconfig_rates_0_1",
            ),
            models.CheckConstraint(
                condition=models.Q(cap__isnull=True) | models.Q(cap__gte=models.F("reset")),
                name="jackpotlineconfig_cap_ge_reset",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.bank} {self.line} v{self.number}"


class JackpotMeter(models.Model):
    """One line of one bank: the row writers lock. Its money is in the ledger."""

    bank = models.ForeignKey(JackpotBank, on_delete=models.PROTECT, related_name="meters")
    line = models.CharField(max_length=24, choices=LINE_CHOICES)

    class Meta:
        ordering = ["bank", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["bank", "line"], name="jackpotmeter_unique_line")
        ]

    def __str__(self) -> str:
        return f"{self.bank} {self.line}"


class LedgerAccount(models.Model):
    """An account of a bank's ledger. Legs are debit-positive; a liability's or revenue's
    balance is minus the sum of its legs."""

    METER, RESERVE, PAYABLE, CASH, TAX_REVENUE, HOUSE_FUNDING, RELEASED = (
        "meter",
        "reserve",
        "payable",
        "cash",
        "tax_revenue",
        "house_funding",
        "released",
    )
    KINDS = [
        (METER, "meter liability (shown on the meter)"),
        (RESERVE, "hidden reserve liability (funds the next reset)"),
        (PAYABLE, "jackpots won, not yet paid"),
        (CASH, "cash (table drop and cage)"),
        (TAX_REVENUE, "tax collected, house revenue"),
        (HOUSE_FUNDING, "house-funded jackpot expense (seeds, fixed lines, shortfalls)"),
        (RELEASED, "liability released by approved reductions"),
    ]
    CREDIT_NORMAL = (METER, RESERVE, PAYABLE, TAX_REVENUE, RELEASED)
    LIABILITIES = (METER, RESERVE, PAYABLE)

    bank = models.ForeignKey(JackpotBank, on_delete=models.PROTECT, related_name="accounts")
    kind = models.CharField(max_length=16, choices=KINDS)
    line = models.CharField(max_length=24, choices=LINE_CHOICES, blank=True)

    class Meta:
        ordering = ["bank", "kind", "line"]
        constraints = [
            models.UniqueConstraint(fields=["bank", "kind", "line"], name="ledgeraccount_unique")
        ]

    def __str__(self) -> str:
        return f"{self.bank} {self.kind}{':' + self.line if self.line else ''}"

    @property
    def sign(self) -> int:
        return -1 if self.kind in self.CREDIT_NORMAL else 1


class LedgerTransaction(models.Model):
    """One balanced posting. Append-only; a reversal is a new transaction of the same kind
    with ``reverses`` set and every leg negated."""

    SEED, TAX, CONTRIBUTION, HIT, RESET, PAYMENT, ADJUSTMENT = (
        "seed",
        "tax",
        "contribution",
        "hit",
        "reset",
        "payment",
        "adjustment",
    )
    KINDS = [
        (SEED, "meter seeded to its reset value"),
        (TAX, "tax collected"),
        (CONTRIBUTION, "contribution to meters"),
        (HIT, "jackpot hit"),
        (RESET, "meter reset after a hit"),
        (PAYMENT, "award paid"),
        (ADJUSTMENT, "approved adjustment"),
    ]

    bank = models.ForeignKey(JackpotBank, on_delete=models.PROTECT, related_name="transactions")
    kind = models.CharField(max_length=16, choices=KINDS)
    created_at = models.DateTimeField(db_index=True)
    gaming_day = models.DateField(db_index=True)
    memo = models.CharField(max_length=300)
    line = models.CharField(
        max_length=24,
        choices=LINE_CHOICES,
        blank=True,
        help_text="The jackpot line a seed, hit, reset or adjustment concerns.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # Rounds and revisions are partitioned by gaming day: constraint triggers check they exist
    # (tables/history/partitions.py).
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="+", db_constraint=False
    )
    revision = models.ForeignKey(
        RoundRevision, on_delete=models.PROTECT, null=True, blank=True, related_name="+", db_constraint=False
    )
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
    )
    contribution_base = models.DecimalField(
        **MONEY,
        default=Decimal("0"),
        help_text="Tax collected that this posting is based on (tax kind).",
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["bank", "gaming_day"]),
            models.Index(fields=["round", "kind"]),
            # A period's check reads the bank's postings since a point (by id) and its hits
            # before it: without these it scans the bank's whole history (issue #20).
            models.Index(fields=["bank", "id"], name="ledgertxn_bank_id"),
            models.Index(fields=["bank", "kind", "id"], name="ledgertxn_bank_kind_id"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind} {self.memo}"


class LedgerLeg(models.Model):
    """One side of a transaction. Debit positive, credit negative; a transaction's legs sum
    to zero (a deferred constraint trigger on PostgreSQL, the posting service everywhere)."""

    transaction = models.ForeignKey(
        LedgerTransaction, on_delete=models.PROTECT, related_name="legs"
    )
    account = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="legs")
    amount = models.DecimalField(**MONEY)

    class Meta:
        ordering = ["transaction", "pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(amount=0), name="ledgerleg_not_zero")
        ]

    def __str__(self) -> str:
        return f"{self.account} {self.amount}"


class LedgerDayBalance(models.Model):
    """Derived, not an audit record: per account, transaction kind and gaming day, the day's sum
    of legs (``moved``, debit-positive) and the running sum of that account's legs of that kind
    through the day (``closing``). Kind ``base`` on the bank's cash account carries the tax
    postings' contribution base (not a leg). Written in the posting's own transaction under the
    meters' lock (audit/jackpots/rollup.py), verified against the legs by a period's check and
    the ``jackpots_rollup`` command, and rebuilt from the legs by ``jackpots_rollup --rebuild``:
    so a balance is one row per account and kind, whatever the history."""

    bank = models.ForeignKey(JackpotBank, on_delete=models.PROTECT, related_name="+")
    account = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=16)
    gaming_day = models.DateField()
    # Sums of legs: as wide as any sum the ledger can reach (casino/money.py), so no posting
    # fails on its rollup however large the history.
    moved = models.DecimalField(**MONEY_SUM)
    closing = models.DecimalField(**MONEY_SUM)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["account", "kind", "gaming_day"], name="ledgerdaybalance_unique")
        ]
        indexes = [models.Index(fields=["bank", "gaming_day"], name="ledgerdaybalance_bank_day")]

    def __str__(self) -> str:
        return f"{self.account} {self.kind} {self.gaming_day}: {self.moved} -> {self.closing}"


class W2GThreshold(models.Model):
    """When a table-game jackpot needs a W-2G, as of a day: winnings (net of the wager) of at
    least ``min_amount`` that pay at least ``min_multiple`` times the wager. Dated rows, never a
    constant, so each award is judged by the rule in force on its gaming day (the latest row
    whose ``effective_from`` is on or before it)."""

    effective_from = models.DateField(unique=True)
    min_amount = models.DecimalField(max_digits=14, decimal_places=2, validators=[MinValueValidator(Decimal("0"))])
    min_multiple = models.DecimalField(max_digits=14, decimal_places=2, validators=[MinValueValidator(Decimal("0"))])
    note = models.CharField(max_length=200, blank=True, help_text="Source of the rule.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["effective_from"]
        verbose_name = "W-2G threshold"

    def __str__(self) -> str:
        return f"from {self.effective_from}: {self.min_amount} at {self.min_multiple} to 1"

    @classmethod
    def in_force(cls, day) -> W2GThreshold | None:
        return cls.objects.filter(effective_from__lte=day).order_by("-effective_from").first()


class JackpotAward(models.Model):
    """A jackpot won: pending until an attendant pays it. W-2G-sized wins need the reference."""

    PENDING, PAID, REVERSED = "pending", "paid", "reversed"
    STATUSES = [
        (PENDING, "pending payment"),
        (PAID, "paid"),
        (REVERSED, "reversed by a correction or void"),
    ]

    bank = models.ForeignKey(JackpotBank, on_delete=models.PROTECT, related_name="awards")
    # Rounds are partitioned: constraint triggers check these exist (tables/history/partitions.py).
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="jackpot_awards", db_constraint=False)
    revision = models.ForeignKey(RoundRevision, on_delete=models.PROTECT, related_name="+", db_constraint=False)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=40, blank=True)
    line = models.CharField(max_length=24, choices=LINE_CHOICES)
    progressive = models.BooleanField()
    amount = models.DecimalField(**MONEY)
    wager = models.DecimalField(
        **MONEY, help_text="The Taxpayer's Fortune marker the award was won with."
    )
    won_at = models.DateTimeField()
    gaming_day = models.DateField()
    hit_transaction = models.ForeignKey(
        LedgerTransaction, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    w2g_required = models.BooleanField(default=False)
    w2g_reference = models.CharField(max_length=60, blank=True)
    winner_name = models.CharField(max_length=120, blank=True)
    winner_id_reference = models.CharField(
        max_length=120,
        blank=True,
        help_text="Kind and last digits of the ID seen (no full numbers).",
    )
    federal_withholding = models.DecimalField(**MONEY, default=Decimal("0"))
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    paid_at = models.DateTimeField(null=True, blank=True)
    payment_transaction = models.ForeignKey(
        LedgerTransaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["-won_at", "pk"]
        # The board's last hit of each line: one probe per (bank, line), whatever the history.
        indexes = [models.Index(fields=["bank", "line", "won_at"], name="jackpotaward_bank_line_won")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="jackpotaward_amount_gt_0"
            ),
            models.CheckConstraint(
                condition=~models.Q(status="paid", w2g_required=True, w2g_reference=""),
                name="jackpotaward_w2g_before_paid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.line} {self.amount} at {self.table} seat {self.seat}"

    @property
    def odds_multiple(self) -> Decimal:
        return (self.amount / self.wager).quantize(Decimal("0.01")) if self.wager else Decimal("0")


class JackpotAdjustment(models.Model):
    """A requested change of a meter or reserve; posted only when a second person, a gaming
    manager, approves it. Request and decision are both kept."""

    JACKPOT_PAID, MALFUNCTION, GAME_CLOSING = (
        "jackpot_paid",
        "malfunction_correction",
        "game_closing",
    )
    REASONS = [
        (JACKPOT_PAID, "jackpot paid"),
        (MALFUNCTION, "malfunction correction"),
        (GAME_CLOSING, "closing the game"),
    ]
    REQUESTED, APPROVED, REJECTED = "requested", "approved", "rejected"
    STATUSES = [
        (REQUESTED, "awaiting approval"),
        (APPROVED, "approved and posted"),
        (REJECTED, "rejected"),
    ]
    TARGETS = [(LedgerAccount.METER, "meter"), (LedgerAccount.RESERVE, "hidden reserve")]

    bank = models.ForeignKey(JackpotBank, on_delete=models.PROTECT, related_name="adjustments")
    line = models.CharField(max_length=24, choices=LINE_CHOICES)
    target = models.CharField(max_length=16, choices=TARGETS, default=LedgerAccount.METER)
    amount = models.DecimalField(**MONEY, help_text="Signed: negative reduces the liability.")
    reason = models.CharField(max_length=30, choices=REASONS)
    note = models.CharField(max_length=500)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=STATUSES, default=REQUESTED)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.CharField(max_length=500, blank=True)
    transaction = models.OneToOneField(
        LedgerTransaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="adjustment",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["-requested_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(amount=0), name="jackpotadjustment_not_zero"
            ),
            models.CheckConstraint(
                condition=models.Q(status="requested")
                | ~models.Q(decided_by=models.F("requested_by")),
                name="jackpotadjustment_four_eyes",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.bank} {self.line} {self.target} {self.amount} ({self.status})"
