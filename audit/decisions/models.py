"""The decisions' prices: one row per seat of a priced round, and the queue of rounds to price.

Derived data, not an audit record: every row is made from the round's current revision by the
engine and remade by ``manage.py decisions_rebuild``; so no append-only guard
(casino/audit_guard.py) and no foreign key into the partitioned rounds (their key there is
(id, gaming_day)), as the count lines and the rating sessions.

Its casino, table and ruleset version are copied from the round by the one writer
(``pricing._replace``), and the round's own constraints hold them; so the database checks them
there, not again here: a re-audit writes 40,000 of these rows a slice, and three deferred
foreign-key checks a row cost 0.4 s of PostgreSQL's time at each slice's commit (0.004 s without).
A table or version that has rounds cannot be deleted (the rounds protect it), so no row outlives
what it names.
"""

from __future__ import annotations

from django.db import models

from casino.models import Casino
from tables.models import RulesetVersion, Table


class SeatDecisions(models.Model):
    """Every priced decision of one seat in one round (its current revision when priced)."""

    round_id = models.BigIntegerField()
    gaming_day = models.DateField()
    casino = models.ForeignKey(Casino, on_delete=models.CASCADE, related_name="+", db_index=False,
                               db_constraint=False)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False,
                              db_constraint=False)
    game = models.CharField(max_length=32)
    ruleset_version = models.ForeignKey(RulesetVersion, on_delete=models.CASCADE, related_name="+", db_index=False,
                                        db_constraint=False)
    revision = models.PositiveIntegerField(help_text="The round's revision the decisions were read from.")
    seat = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=64, blank=True, help_text="The seat's player identifier ('' for none).")
    handle = models.DecimalField(
        max_digits=14, decimal_places=2,
        help_text="The initial stakes the priced decisions serve: the 21 bet, and Ante Up 21's ANTE when its fold "
                  "decision is priced (play quality = cost / handle).")
    cost = models.DecimalField(
        max_digits=16, decimal_places=4,
        help_text="The decisions' cost in money: for each, (best value - taken value) x its stake; never negative.")
    decisions = models.JSONField(help_text="[{hand, cards, action, best, values, cost, stake}], in the order played.")
    unpriced = models.JSONField(default=list, help_text="[{hand, action, why}]: decisions the strategy does not price.")
    upcard = models.PositiveSmallIntegerField(help_text="The dealer's upcard (card int).")
    hole = models.PositiveSmallIntegerField(null=True, help_text="The dealer's second card (card int), if dealt.")
    priced_with = models.CharField(max_length=40, help_text="The pricing's version (pricing.PRICING_VERSION).")

    class Meta:
        db_table = "decisions_seat"
        constraints = [models.UniqueConstraint(fields=["round_id", "seat"], name="decisions_seat_round_seat")]
        indexes = [
            models.Index(fields=["gaming_day", "casino", "player"], name="decisions_day_player"),
            models.Index(fields=["gaming_day", "table"], name="decisions_day_table"),
        ]

    def __str__(self) -> str:
        return f"round {self.round_id} seat {self.seat}: {self.cost}"


class DecisionPending(models.Model):
    """A round whose prices are to be (re)made: written in the round's own transaction, taken by the
    pricing (``pricing.price_pending``) right after. ``stamp`` moves on at every change of the round,
    so a pricing that read an older state leaves the row for the next pass; ``claimed_until`` keeps
    two workers' passes off each other's entries."""

    round_id = models.BigIntegerField(primary_key=True)
    gaming_day = models.DateField()
    stamp = models.PositiveBigIntegerField(default=1)
    claimed_until = models.DateTimeField(
        null=True, help_text="A pass took the entry until then (another pass skips it meanwhile; a pass that "
                             "died leaves it to the next one after that).")

    class Meta:
        db_table = "decisions_pending"
        indexes = [models.Index(fields=["gaming_day"], name="decisions_pending_day")]

    def __str__(self) -> str:
        return f"round {self.round_id} ({self.gaming_day}) #{self.stamp}"


class DrawPriceTable(models.Model):
    """Poker or Bust's draw prices of one upcard under one set of settings: the whole-game
    solve's kept hands (``tables.games.poker_or_bust.draw_prices``), made by ``price_rulesets
    --long`` with the settings' exact edges. Derived data, found by the settings the math depends
    on (any ruleset version with those settings reads it), remade, never edited."""

    settings_key = models.CharField(max_length=64, help_text="draw_prices.settings_key: the shoe, the Odds table, "
                                                             "the table format.")
    upcard = models.PositiveSmallIntegerField(help_text="The solve's upcard (card int): one per rank on a whole shoe.")
    hands = models.PositiveIntegerField(help_text="Hands kept (one per suit relabelling).")
    error = models.FloatField(help_text="The largest bound of a kept value, per unit of the Ante.")
    data = models.BinaryField(help_text="draw_prices.UpcardPrices.to_bytes.")
    made_at = models.DateTimeField(auto_now_add=True)
    engine_version = models.CharField(max_length=40)

    class Meta:
        db_table = "decisions_draw_table"
        constraints = [models.UniqueConstraint(fields=["settings_key", "upcard"], name="decisions_draw_table_upcard")]

    def __str__(self) -> str:
        return f"{self.settings_key[:12]} upcard {self.upcard}: {self.hands} hands"
