"""The count lines: what the walk of the count needs of each round, kept as rounds are recorded
(issue #20: the day's read was the JSON of every round revision, ~1.2 s for a busy day).

Derived data, not an audit record: every line is made from the round's current revision by
``bets.round_cards`` and ``bets.round_bets`` (lines.py), rewritten when the round is corrected or
voided and rebuilt from the revisions by ``manage.py advantage_lines_rebuild``. So it carries no
append-only guard (casino/audit_guard.py) and no foreign key into the partitioned rounds.
"""

from __future__ import annotations

from django.db import models

from casino.models import Casino
from tables.models import Dealer, Round, Table, TableSession


class CountLine(models.Model):
    """One round of the assessed games (bets.ASSESSED_GAMES), its current revision."""

    # Rounds are partitioned by gaming day (tables/history/partitions.py): their key there is
    # (id, gaming_day), so the line refers to its round by id without a database constraint.
    round = models.OneToOneField(Round, on_delete=models.DO_NOTHING, primary_key=True, db_constraint=False,
                                 related_name="+")
    gaming_day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False)
    sequence = models.PositiveIntegerField()
    session = models.ForeignKey(TableSession, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                                related_name="+")
    dealer = models.ForeignKey(Dealer, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                               related_name="+")
    decks = models.PositiveSmallIntegerField(help_text="The shoe's size: the round's ruleset version's decks.")
    active = models.BooleanField(default=True, help_text="False once the round is voided (its cards do not count).")
    cards = models.BinaryField(help_text="bets.round_cards: one byte per card, the card's int (tables.games.vocabulary.cards).")
    bets = models.TextField(blank=True, help_text='bets.round_bets as JSON ["player","amount",...] ([] for none).')

    class Meta:
        db_table = "advantage_countline"
        indexes = [models.Index(fields=["gaming_day", "table", "sequence"], name="advantage_line_day_table_seq")]

    def __str__(self) -> str:
        return f"round {self.round_id} ({self.gaming_day}, table {self.table_id} #{self.sequence})"


class DayChange(models.Model):
    """How often the count lines of one table's gaming day changed, and how many there are: the
    stamp a stored result (:class:`DayResult`) is compared with, so it is never served stale.

    Kept by the lines' one writer (lines.py) in the recording transaction, under the table's
    lock: one upsert adding 1 to ``changes`` (and 1 to ``lines`` for a new round's line)."""

    gaming_day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False)
    changes = models.PositiveBigIntegerField(default=0, help_text="Lines written, replaced or voided; never goes down.")
    lines = models.PositiveIntegerField(default=0, help_text="The day's lines at the table (voided ones too): its size.")

    class Meta:
        db_table = "advantage_daychange"
        constraints = [models.UniqueConstraint(fields=["gaming_day", "table"], name="advantage_daychange_day_table")]

    def __str__(self) -> str:
        return f"{self.gaming_day} table {self.table_id}: {self.changes} changes, {self.lines} lines"


class DayResult(models.Model):
    """What ``selectors.advantage_day`` gave for one casino's gaming day, all its tables
    (``table`` None) or one, stored (results.py): derived, rebuildable, no append-only guard.

    ``computed_at`` None: no result yet, only a recount asked for (``requested_at``). Current
    while ``changes`` equals the sum of the :class:`DayChange` rows it covers and the thresholds
    are the settings' (selectors.Thresholds) and, for the play signals, as many of the day's rounds
    are still queued for pricing as when it was counted (``unpriced``)."""

    casino = models.ForeignKey(Casino, on_delete=models.CASCADE, related_name="+", db_index=False)
    gaming_day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", null=True, blank=True,
                              db_index=False)
    changes = models.PositiveBigIntegerField(default=0, help_text="The DayChange stamp it was computed at.")
    lower_bound = models.FloatField(null=True, blank=True)
    min_rounds = models.PositiveIntegerField(null=True, blank=True)
    play_alpha = models.FloatField(null=True, blank=True, help_text="The play signals' level it was judged at.")
    play_min = models.PositiveIntegerField(null=True, blank=True, help_text="... and their minimum deviations.")
    unpriced = models.PositiveIntegerField(default=0, help_text=(
        "The day's rounds queued for their decisions' prices (audit/decisions) when counted: their decisions "
        "are not in the play signals; current only while the queue still holds as many."))
    rounds = models.PositiveIntegerField(default=0)
    shoes = models.PositiveIntegerField(default=0)
    players = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    requested_at = models.DateTimeField(null=True, blank=True, help_text="When a recount was last queued.")

    class Meta:
        db_table = "advantage_dayresult"
        constraints = [models.UniqueConstraint(fields=["casino", "gaming_day", "table"], nulls_distinct=False,
                                               name="advantage_dayresult_key")]

    def __str__(self) -> str:
        return f"{self.gaming_day} casino {self.casino_id} table {self.table_id or 'all'}"


class DayResultPlayer(models.Model):
    """One player's row of a stored result, in the page's order (``rank``), with the player's
    pairs: one small read for one player's rounds."""

    result = models.ForeignKey(DayResult, on_delete=models.CASCADE, related_name="player_rows", db_index=False)
    rank = models.PositiveIntegerField()
    player = models.TextField()
    n = models.PositiveIntegerField()
    r = models.FloatField(null=True, blank=True)
    ci_low = models.FloatField(null=True, blank=True)
    ci_high = models.FloatField(null=True, blank=True)
    min_bet = models.DecimalField(max_digits=14, decimal_places=2)
    max_bet = models.DecimalField(max_digits=14, decimal_places=2)
    spread = models.DecimalField(max_digits=16, decimal_places=2)
    mean_bet_low = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    mean_bet_high = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    signal = models.CharField(max_length=20)
    # The play signals (plays.py): hole-card play ...
    hole_rounds = models.PositiveIntegerField(default=0)
    hole_deviations = models.PositiveIntegerField(default=0)
    hole_observed = models.PositiveIntegerField(default=0, help_text="O: deviations that beat the best given the hole.")
    hole_expected = models.FloatField(default=0.0, help_text="E: their sum of chances with the hole card unknown.")
    hole_z = models.FloatField(null=True, blank=True)
    hole_p = models.FloatField(null=True, blank=True, help_text="P(O or more) with the hole card unknown.")
    hole_signal = models.CharField(max_length=20, default="none")
    # ... and play against the count.
    play_decisions = models.PositiveIntegerField(default=0)
    play_deviations = models.PositiveIntegerField(default=0)
    play_informative = models.PositiveIntegerField(default=0)
    play_r = models.FloatField(null=True, blank=True)
    play_z = models.FloatField(null=True, blank=True)
    play_signal = models.CharField(max_length=20, default="none")
    deviations = models.TextField(default="[]", help_text="The deviations as serializers.deviations_json writes them.")
    counts = models.TextField(help_text='The page\'s: JSON [[round, table label, sequence, shoe, running count, '
                              'cards seen, decks, "bet"], ...].')
    pairs = models.TextField(help_text="The API's: the pairs as serializers.pairs_json writes them.")
    pairs_html = models.TextField(blank=True, default="", help_text=(
        "The page's rounds of a row it opens (selectors.OPEN_SIGNALS), as surveillance/_advantage_pairs.html "
        "renders them; empty for the others."))

    class Meta:
        db_table = "advantage_dayresultplayer"
        constraints = [models.UniqueConstraint(fields=["result", "rank"], name="advantage_resultplayer_rank"),
                       models.UniqueConstraint(fields=["result", "player"], name="advantage_resultplayer_player")]

    def __str__(self) -> str:
        return f"{self.player} ({self.result_id} #{self.rank})"
