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
