"""The count lines: what the walk of the count needs of each round, kept as rounds are recorded
(issue #20: the day's read was the JSON of every round revision, ~1.2 s for a busy day).

Derived data, not an audit record: every line is made from the round's current revision by
``bets.round_cards`` and ``bets.round_bets`` (lines.py), rewritten when the round is corrected or
voided and rebuilt from the revisions by ``manage.py advantage_lines_rebuild``. So it carries no
append-only guard (casino/audit_guard.py) and no foreign key into the partitioned rounds.
"""

from __future__ import annotations

from django.db import models

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
