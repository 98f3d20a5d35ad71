"""Per gaming day figures of the surveillance desk, summed over a period instead of reading its
raw rounds (issue #20). Every figure is additive: a period's figure is the SUM of its days' rows.

Derived data, rebuilt from rounds and findings by ``writer.rollups_recompute`` (so deliberately
outside the append-only set of casino/audit_guard.py: a repair rewrites these rows). Each row
belongs to one (gaming day, table); that pair is the unit of a recompute.

Indexes: only the unique keys, which lead with the gaming day: a period is a range of that
index whoever the dealer (a day holds a few hundred rows), and every further index would cost
each recorded round a write."""

from __future__ import annotations

from django.db import models

from casino.money import MONEY_SUM
from tables.models import Dealer, Table


class DailyRollup(models.Model):
    """One (gaming day, table, dealer, game): the dealer pages' figures (audit/selectors.py rules)."""

    gaming_day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False)
    dealer = models.ForeignKey(Dealer, on_delete=models.CASCADE, related_name="+", db_index=False)
    game = models.CharField(max_length=32)
    rounds = models.IntegerField(default=0, help_text="Active rounds, and voided ones holding a counted error.")
    active_rounds = models.IntegerField(default=0)
    error_rounds = models.IntegerField(default=0, help_text="Rounds holding a counted dealer error.")
    findings = models.IntegerField(default=0, help_text="Counted findings (dealer errors).")
    open_findings = models.IntegerField(default=0, help_text="Counted findings waiting for a decision.")
    overpaid = models.DecimalField(**MONEY_SUM, default=0)
    underpaid = models.DecimalField(**MONEY_SUM, default=0)
    # The wagers of the active rounds' current revisions by how their pay stands (audit.selectors.pay_state).
    pays_recorded = models.IntegerField(default=0, help_text="Wagers whose pay the dealer's recording gives.")
    pays_attested = models.IntegerField(default=0, help_text='Wagers "paid as shown": attested, not recorded.')
    pays_not_recorded = models.IntegerField(default=0, help_text="Wagers with neither a recorded pay nor an attestation.")

    class Meta:
        db_table = "rollups_daily"
        constraints = [models.UniqueConstraint(fields=["gaming_day", "table", "dealer", "game"],
                                               name="rollups_daily_key")]

    def __str__(self) -> str:
        return f"{self.gaming_day} table {self.table_id} dealer {self.dealer_id} {self.game}"


class DailyCodeRollup(models.Model):
    """Counted findings per rule (code) and kind: the dealer page's "by rule" table."""

    gaming_day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False)
    dealer = models.ForeignKey(Dealer, on_delete=models.CASCADE, related_name="+", db_index=False)
    game = models.CharField(max_length=32)
    kind = models.CharField(max_length=20)
    code = models.CharField(max_length=60)
    count = models.IntegerField(default=0)
    amount = models.DecimalField(**MONEY_SUM, default=0)

    class Meta:
        db_table = "rollups_daily_code"
        constraints = [models.UniqueConstraint(fields=["gaming_day", "table", "dealer", "game", "kind", "code"],
                                               name="rollups_daily_code_key")]

    def __str__(self) -> str:
        return f"{self.gaming_day} table {self.table_id} dealer {self.dealer_id} {self.code}"


class DailyOverpayRollup(models.Model):
    """Counted overpay findings per (seat, player): the overpay patterns. Seat 0 stands for none.

    ``rounds`` counts the distinct rounds of the row; ``player_rounds`` counts the rounds in which
    this seat is the player's lowest overpaid seat, so that summing it over seats gives the
    player's distinct rounds even when one player played two seats of a round."""

    gaming_day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False)
    dealer = models.ForeignKey(Dealer, on_delete=models.CASCADE, related_name="+", db_index=False)
    seat = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=40, blank=True)
    count = models.IntegerField(default=0)
    rounds = models.IntegerField(default=0)
    player_rounds = models.IntegerField(default=0)
    amount = models.DecimalField(**MONEY_SUM, default=0)

    class Meta:
        db_table = "rollups_daily_overpay"
        constraints = [models.UniqueConstraint(fields=["gaming_day", "table", "dealer", "seat", "player"],
                                               name="rollups_daily_overpay_key")]

    def __str__(self) -> str:
        return f"{self.gaming_day} table {self.table_id} dealer {self.dealer_id} seat {self.seat}"
