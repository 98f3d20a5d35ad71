"""Daily reconciliation: one report per casino and gaming day, its rows, and the odds behind it.

A report's rows are derived data: a re-run replaces them atomically (they are not audit
records). What they are derived from (rounds, revisions, wagers, findings) is append-only
and is never changed here; a re-audit only adds findings.
"""

from __future__ import annotations

import uuid
from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from simple_history.models import HistoricalRecords

from audit.decisions.figures import (
    DECISION_COST,
    DECISION_THEO,
    PLAY_QUALITY,
    PRICED_HANDLE,
    play_quality_text,
)
from casino.models import Casino
from tables.games import GAME_CHOICES
from tables.models import Dealer, RulesetVersion

from .explain import WinExplanation, win_explanation

EXACT, SIMULATED, ASSUMPTION = "exact", "simulated", "assumption"
BASES = [(EXACT, "exact (engine game math)"), (SIMULATED, "simulated"), (ASSUMPTION, "assumption")]


class TheoreticalAssumption(models.Model):
    """House edge and variance of a wager that involves player decisions (the 21 bet, the Ante).

    Not tied to a ruleset: it describes the casino's players, not the game. A gaming manager
    edits it in the admin (with history); defaults are documented in audit/reports/README.md.
    """

    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    wager = models.CharField(max_length=40, help_text='Wager type, e.g. "21", "ante", "tie_LS".')
    house_edge = models.DecimalField(
        max_digits=8,
        decimal_places=6,
        help_text="House's expected win per unit wagered, e.g. 0.015000 for 1.5%.",
    )
    variance = models.DecimalField(
        max_digits=12,
        decimal_places=6,
        validators=[MinValueValidator(0)],
        help_text="Variance of the player's net per unit wagered (for the 95% interval).",
    )
    note = models.CharField(max_length=300, blank=True, help_text="Where the figure comes from.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "wager"]
        constraints = [
            models.UniqueConstraint(fields=["game", "wager"], name="assumption_unique_wager")
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.wager}: {self.house_edge:%}"


#: The row of a version in WagerOddsCache that says all its exact figures are stored; its method
#: says how (computed, or copied from a version with the same settings) or why there are none.
ALL_PRICED = "*"


class WagerOddsCache(models.Model):
    """The engine's exact (or simulated) edge of one wager under one ruleset version.

    Ruleset versions are frozen and the math is deterministic, so it is computed once.
    """

    ruleset_version = models.ForeignKey(RulesetVersion, on_delete=models.CASCADE, related_name="+")
    wager = models.CharField(max_length=40)
    basis = models.CharField(max_length=12, choices=BASES)
    house_edge = models.DecimalField(max_digits=14, decimal_places=10)
    variance = models.DecimalField(max_digits=18, decimal_places=8)
    method = models.CharField(max_length=300, blank=True)
    engine_version = models.CharField(max_length=40)
    computed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["ruleset_version", "wager"], name="wageroddscache_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ruleset_version_id}/{self.wager}: {self.basis} {self.house_edge}"


class DailyReport(models.Model):
    """The reconciliation of one gaming day at one casino. Unique: re-runs replace its rows.

    At most two per casino and day: the final report (``provisional=False``, only for a day
    that has ended) and, while the day is on, one *provisional* "today so far" report built by
    the same run over the rounds recorded until its run read them (``as_of``). The final
    report's completion deletes the provisional one (README.md, "Today so far").
    """

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    STATUSES = [(QUEUED, "queued"), (RUNNING, "running"), (DONE, "done"), (FAILED, "failed")]

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="daily_reports")
    gaming_day = models.DateField()
    provisional = models.BooleanField(
        default=False,
        help_text="Today so far: the current gaming day's figures until the run read its rounds "
        "(as of its start); never signed, replaced by the final report at the close.",
    )
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED, db_index=True)
    run_id = models.UUIDField(default=uuid.uuid4, help_text="The run that owns the report now.")
    runs = models.PositiveIntegerField(default=0, help_text="How many runs were started.")
    chunks_total = models.PositiveIntegerField(default=0)
    chunks_done = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, help_text="Why the last run failed.")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    requested_via = models.CharField(
        max_length=20, blank=True, help_text="beat, page, api or command."
    )
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The run's last sign of progress (planned, a slice started or finished, combining).",
    )
    period_start = models.DateTimeField(
        null=True, blank=True, help_text="UTC start of the gaming day."
    )
    period_end = models.DateTimeField(null=True, blank=True, help_text="UTC end (exclusive).")
    engine_version = models.CharField(max_length=40, blank=True)
    chain_head = models.CharField(
        max_length=64, blank=True,
        help_text="The casino's hash-chain head at the end of the day (audit/chain.py); printed on the report.")
    #: Floor totals, notes, liability and re-audit facts (see README.md for every key).
    summary = models.JSONField(default=dict, blank=True)
    files = models.JSONField(
        default=dict, blank=True, help_text="format -> path under REPORTS_ROOT."
    )

    class Meta:
        ordering = ["-gaming_day", "casino__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["casino", "gaming_day", "provisional"], name="dailyreport_one_per_day_and_kind"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.casino} {self.gaming_day}{' (provisional)' if self.provisional else ''}"

    @property
    def as_of(self):
        """Until when the figures count play: the day's end, or a provisional run's start."""
        return self.started_at if self.provisional else self.period_end

    @property
    def progress(self) -> int:
        """Percent done: chunks done of all chunks, the combine step being the last 5%."""
        if self.status == self.DONE:
            return 100
        if not self.chunks_total:
            return 0
        return min(95, int(95 * self.chunks_done / self.chunks_total))


class ReportChunk(models.Model):
    """One slice of a run (a range of round ids): re-audited and aggregated by one task."""

    report = models.ForeignKey(DailyReport, on_delete=models.CASCADE, related_name="chunks")
    run_id = models.UUIDField()
    index = models.PositiveIntegerField()
    first_round = models.BigIntegerField()
    last_round = models.BigIntegerField()
    rounds = models.PositiveIntegerField()
    done = models.BooleanField(default=False)
    attempts = models.PositiveIntegerField(
        default=0, help_text="Deliveries that started the slice (more than one: a worker died)."
    )
    seconds = models.FloatField(null=True, blank=True)
    partial = models.JSONField(default=dict, blank=True, help_text="SQL aggregates of the slice.")

    class Meta:
        ordering = ["report", "index"]
        constraints = [
            models.UniqueConstraint(fields=["report", "run_id", "index"], name="reportchunk_unique")
        ]

    def __str__(self) -> str:
        return f"{self.report_id} slice {self.index}"


LEVEL_FLOOR, LEVEL_PIT, LEVEL_GAME, LEVEL_TABLE = "floor", "pit", "game", "table"
LEVELS = [(LEVEL_FLOOR, "floor"), (LEVEL_PIT, "pit"), (LEVEL_GAME, "game"), (LEVEL_TABLE, "table")]

_MONEY = {"max_digits": 16, "decimal_places": 2, "default": 0}
_CASH = {"max_digits": 16, "decimal_places": 2, "null": True, "blank": True}


class ReportLine(models.Model):
    """Totals of one unit (the floor, a pit, a game, a table) for the day."""

    report = models.ForeignKey(DailyReport, on_delete=models.CASCADE, related_name="lines")
    level = models.CharField(max_length=8, choices=LEVELS)
    key = models.CharField(max_length=64, help_text="Table/pit id, game key, or 'floor'.")
    label = models.CharField(max_length=120)
    game = models.CharField(max_length=32, blank=True)
    rounds = models.PositiveIntegerField(default=0)
    voided_rounds = models.PositiveIntegerField(default=0)
    seats_played = models.PositiveIntegerField(default=0)
    handle = models.DecimalField(**_MONEY)
    paid = models.DecimalField(**_MONEY, help_text="Paid to players on winning wagers (actual).")
    win = models.DecimalField(**_MONEY, help_text="House win, actual cash.")
    expected_win = models.DecimalField(
        **_MONEY, help_text="House win had every wager been settled right."
    )
    handle_hold_pct = models.DecimalField(
        max_digits=9, decimal_places=4, null=True, help_text="Recorded-play win / handle x 100 (not hold % of drop)."
    )
    theo_win = models.DecimalField(**_MONEY)
    theo_sd = models.DecimalField(**_MONEY, help_text="Standard deviation of the win.")
    ci_low = models.DecimalField(**_MONEY)
    ci_high = models.DecimalField(**_MONEY)
    outlier = models.BooleanField(default=False, help_text="Win outside the 95% interval.")
    theo_basis = models.CharField(max_length=40, blank=True)
    # The players' decisions (audit/decisions/figures.py; audit/decisions prices them): 0 and None where
    # none is priced (Hold'em Blackjack, Poker or Bust).
    decision_cost = models.DecimalField(**_MONEY, help_text=DECISION_COST[1])
    decision_theo = models.DecimalField(**_MONEY, help_text=DECISION_THEO[1])
    decision_handle = models.DecimalField(**_MONEY, help_text=PRICED_HANDLE[1])
    play_quality_pct = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True,
                                           help_text=PLAY_QUALITY[1] + " In percent, to 2 decimals.")
    error_cost = models.DecimalField(
        **_MONEY, help_text="Recorded minus expected pays: lost (+) or saved (-)."
    )
    overpaid = models.DecimalField(**_MONEY)
    underpaid = models.DecimalField(**_MONEY)
    findings = models.JSONField(default=dict, help_text="kind -> {count, amount}.")
    taxes = models.DecimalField(**_MONEY)
    jackpots = models.DecimalField(**_MONEY)
    liability_opening = models.DecimalField(max_digits=16, decimal_places=2, null=True)
    liability_closing = models.DecimalField(max_digits=16, decimal_places=2, null=True)
    # The cash figures (tables/accounting/selectors_win.py): a roll-up adds complete table days
    # only; None where nobody signed the part (no opener or closer, or the count is pending).
    opener = models.DecimalField(**_CASH)
    closer = models.DecimalField(**_CASH)
    fills = models.DecimalField(**_MONEY)
    credits = models.DecimalField(**_MONEY)
    drop = models.DecimalField(**_CASH, help_text="Counted drop (the signed soft count).")
    estimated_drop = models.DecimalField(**_MONEY, help_text="Cash and marker buy-ins recorded.")
    stat_win = models.DecimalField(**_CASH, help_text="Statistical win: closer - opener + drop + credits - fills.")
    drop_hold_pct = models.DecimalField(
        max_digits=9, decimal_places=4, null=True, help_text="Statistical win / drop x 100."
    )
    cash_tables = models.PositiveIntegerField(default=0, help_text="Complete table days in the cash figures.")
    cash_incomplete = models.PositiveIntegerField(
        default=0, help_text="Table days left out of the cash figures (no opener or closer, or count pending)."
    )
    cash_pending = models.CharField(max_length=60, blank=True, help_text="Why a table's statistical win is unknown.")
    # Recorded play against cash (README "Recorded play against cash"), complete table days only.
    cash_difference = models.DecimalField(
        **_CASH, help_text="Statistical win - win if settled right."
    )
    cash_errors = models.DecimalField(**_CASH, help_text="Dealer errors' money in the difference (win - win if settled right).")
    cash_jackpots = models.DecimalField(**_CASH, help_text="TF jackpots paid by the cage, not from the tray.")
    cash_unexplained = models.DecimalField(**_CASH, help_text="What is left of the difference.")
    drop_gap = models.DecimalField(**_CASH, help_text="Counted drop - recorded buy-ins (estimated drop).")

    class Meta:
        ordering = ["report", "level", "label"]
        constraints = [
            models.UniqueConstraint(fields=["report", "level", "key"], name="reportline_unique")
        ]

    def __str__(self) -> str:
        return f"{self.level} {self.label}"

    @property
    def cash_text(self) -> str:
        """What the cash figures hold: a table's reason its statistical win is unknown ("count
        pending", never a zero win); for a pit, game or the floor how many tables it adds and how
        many it left out."""
        if self.level == LEVEL_TABLE:
            return self.cash_pending or "complete"
        counted = tables_text(self.cash_tables)
        if not self.cash_incomplete:
            return counted
        return f"{counted}; {self.cash_incomplete} left out (count pending or no inventory)"

    @property
    def play_quality_text(self) -> str:
        """``0.84% of the priced handle``, or ``—`` without a priced handle (audit/decisions/figures.py)."""
        return play_quality_text(self.play_quality_pct)

    @property
    def explanation(self) -> WinExplanation:
        """Why the unit won or lost: house edge, luck and dealer error (explain.py)."""
        return win_explanation(win=self.win, expected_win=self.expected_win, theo_win=self.theo_win,
                               theo_sd=self.theo_sd)


def tables_text(n: int | None) -> str:
    """``1 table``, ``3 tables``, ``no table``: a count of tables as a sentence says it."""
    if not n:
        return "no table"
    return f"{n:,} table" if n == 1 else f"{n:,} tables"


class ReportWagerLine(models.Model):
    """One wager type within a unit: handle, win, hold and the theoretical win with its basis."""

    report = models.ForeignKey(DailyReport, on_delete=models.CASCADE, related_name="wager_lines")
    level = models.CharField(max_length=8, choices=LEVELS)
    key = models.CharField(max_length=64)
    label = models.CharField(max_length=120)
    game = models.CharField(max_length=32, blank=True)
    wager = models.CharField(max_length=40)
    basis = models.CharField(max_length=40)
    house_edge = models.DecimalField(
        max_digits=14, decimal_places=10, null=True, help_text="Handle-weighted edge used."
    )
    count = models.PositiveIntegerField(default=0, help_text="Settlements.")
    handle = models.DecimalField(**_MONEY)
    paid = models.DecimalField(**_MONEY)
    win = models.DecimalField(**_MONEY)
    expected_win = models.DecimalField(**_MONEY)
    handle_hold_pct = models.DecimalField(max_digits=9, decimal_places=4, null=True)
    theo_win = models.DecimalField(**_MONEY)
    theo_sd = models.DecimalField(**_MONEY)
    error_cost = models.DecimalField(**_MONEY)

    class Meta:
        ordering = ["report", "level", "label", "game", "wager"]
        constraints = [
            models.UniqueConstraint(
                fields=["report", "level", "key", "game", "wager"], name="reportwagerline_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.level} {self.label} {self.game}/{self.wager}"

    @property
    def house_edge_pct(self):
        return (
            None if self.house_edge is None else (100 * self.house_edge).quantize(Decimal("0.0001"))
        )


class DealerLine(models.Model):
    """A dealer's error rate against the floor's for the day."""

    report = models.ForeignKey(DailyReport, on_delete=models.CASCADE, related_name="dealer_lines")
    dealer = models.ForeignKey(Dealer, on_delete=models.PROTECT, related_name="+")
    label = models.CharField(max_length=160)
    rounds = models.PositiveIntegerField()
    error_rounds = models.PositiveIntegerField(
        help_text="Rounds with at least one counted finding."
    )
    findings = models.PositiveIntegerField()
    amount = models.DecimalField(**_MONEY, help_text="Money at stake in the findings.")
    rate = models.DecimalField(max_digits=9, decimal_places=6)
    z_score = models.DecimalField(max_digits=10, decimal_places=3, null=True)
    flagged = models.BooleanField(default=False)

    class Meta:
        ordering = ["report", "-flagged", "-rate", "label"]
        constraints = [
            models.UniqueConstraint(fields=["report", "dealer"], name="dealerline_unique")
        ]

    def __str__(self) -> str:
        return self.label


class MonthTableLine(models.Model):
    """One table's recorded play of one month: the table lines of the month's final, done daily
    reports, summed. A long period (a year to date) reads its whole months here and only its
    partial months' days from the daily lines, so its cost does not grow with the days it holds
    (issue #20). Derived data: kept in the transaction that makes a final report done or takes it
    out of done (services/month_lines.py), rebuilt by ``manage.py report_months_rebuild``."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, related_name="+")
    month = models.DateField(help_text="The month's first day.")
    key = models.CharField(max_length=64, help_text="The table's id, as the daily line's key.")
    win = models.DecimalField(max_digits=18, decimal_places=2, default=0)
    expected_win = models.DecimalField(max_digits=18, decimal_places=2, default=0)
    theo_win = models.DecimalField(max_digits=18, decimal_places=2, default=0)
    theo_var = models.DecimalField(max_digits=30, decimal_places=4, default=0,
                                   help_text="Sum of the days' squared standard deviations.")
    days = models.PositiveIntegerField(default=0, help_text="Daily table lines summed.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["casino", "month", "key"], name="month_table_line_unique")]

    def __str__(self) -> str:
        return f"{self.casino_id} {self.month:%Y-%m} table {self.key}"
