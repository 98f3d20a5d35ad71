"""Rating sessions kept as rounds are recorded, corrected and voided (issue #20), so a busy day's
ratings read a few thousand session rows instead of ~100,000 wagers.

Derived data, like the desk's rollups (audit/rollups): rebuilt from the current revisions of the
active rounds by ``writer.sessions_recompute`` (the ``ratings_rebuild`` command, the data migration),
so deliberately outside the append-only set of casino/audit_guard.py. One row is one player's
rating session at one table in one gaming day (README "Definitions"); the unit of a recompute is
a (gaming day, table).

The money of a session is kept per (ruleset version, wager) in ``wagers`` as exact decimal
texts, never rounded: the theo is applied when read (the odds book can change), and a Hold'em
pot's rake shares keep every digit of the division, as the computation from raw rows does.
"""

from __future__ import annotations

from django.db import models

from casino.models import Casino
from tables.models import Table


class RatingSession(models.Model):
    gaming_day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False)
    player = models.CharField(max_length=40, help_text="The identifier recorded at the seat.")
    start = models.DateTimeField(help_text="The first round's time (UTC).")
    end = models.DateTimeField(help_text="The last round's time (UTC).")
    rounds = models.IntegerField()
    seconds = models.IntegerField(help_text="Time on game: the gaps between the rounds, each in whole seconds.")
    longest_gap = models.BigIntegerField(
        help_text="The longest gap inside the session, in microseconds: a read with a shorter threshold than "
                  "the one the session was cut with recomputes it from the rounds.")
    #: "<ruleset version id>:<wager>" -> [wagers placed, stake, player's net, rake due share, rake taken share]
    wagers = models.JSONField()

    class Meta:
        db_table = "ratings_session"
        indexes = [
            # A day (or range) of every player; the recorder's look-up of a table's sessions of the day.
            models.Index(fields=["gaming_day", "table", "player", "end"], name="ratings_session_day"),
            # One player's days.
            models.Index(fields=["player", "gaming_day"], name="ratings_session_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at table {self.table_id} on {self.gaming_day} from {self.start}"


class RatingDay(models.Model):
    """One player's gaming day at one casino, summed from their rating sessions by the same writer
    (writer.day_of), so that a day's list, top players and CSV read one row per player, not every
    session. Derived like the sessions and rebuilt with them.

    ``sessions`` and ``seconds`` depend on the gap threshold: ``threshold`` is the one they were
    counted at (microseconds). A read at another threshold, or of a day whose sessions hold a gap
    longer than it (null: the setting was lowered since they were cut), reads the sessions instead."""

    gaming_day = models.DateField()
    casino = models.ForeignKey(Casino, on_delete=models.CASCADE, related_name="+", db_index=False)
    player = models.CharField(max_length=40, help_text="The identifier recorded at the seat.")
    rounds = models.IntegerField()
    sessions = models.IntegerField(help_text="Rating sessions at every table, as cut at ``threshold``.")
    seconds = models.IntegerField(help_text="Time on game: the union of the sessions' spans, in whole seconds.")
    threshold = models.BigIntegerField(
        null=True, help_text="The gap threshold in microseconds the sessions were counted at; null: a session "
                             "holds a longer gap, so the day is read from the sessions.")
    #: "<ruleset version id>:<wager>" -> the day's sums of [wagers placed, stake, net, rake due share, taken share]
    wagers = models.JSONField()
    #: The day's theo to the cent as the ratings price ``wagers`` (selectors._Prices), kept by the read that
    #: ranks the day (ranking.py) so that later reads order the day in SQL. Valid only while ``theo_of`` is
    #: the digest of the odds the day's keys have now; the writer empties ``theo_of`` whenever it writes the row.
    theo = models.DecimalField(max_digits=18, decimal_places=2, null=True)
    theo_of = models.CharField(
        max_length=40, blank=True, db_default="",
        help_text="The digest of the odds ``theo`` was priced with (each key's wager type and house edge); "
                  "empty: not priced since the row was last written.")

    class Meta:
        db_table = "ratings_day"
        constraints = [
            # A day (or range) of a casino's players reads a range of it; the writer's upsert key.
            models.UniqueConstraint(fields=["gaming_day", "casino", "player"], name="ratings_day_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.gaming_day} at casino {self.casino_id}"
