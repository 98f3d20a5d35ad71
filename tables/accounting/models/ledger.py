"""The chip ledger: accounts, balanced transactions and their legs (double entry).

Legs are debit-positive and every account here is an asset (chips held somewhere), so an
account's balance is the plain sum of its legs; a leg may name the denomination it moves,
so balances are readable per denomination too. Accounts, transactions and legs are
append-only; PostgreSQL checks each transaction's balance at COMMIT (migration 0002).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from casino.models import Casino
from tables.accounting.models.chips import Denomination
from tables.models import Table

MONEY = {"max_digits": 14, "decimal_places": 2}


class Account(models.Model):
    TABLE_INVENTORY, CAGE, DROP, TABLE_RESULT, VARIANCE = (
        "table_inventory", "cage", "drop", "table_result", "variance")
    KINDS = [
        (TABLE_INVENTORY, "chips in a table's tray"),
        (CAGE, "chips in the cage"),
        (DROP, "what a table's drop box holds"),
        (TABLE_RESULT, "chips a table's play moved to or from players (closer against the book)"),
        (VARIANCE, "inventory discrepancies: an opener against the table's last closer"),
    ]
    #: Kinds kept per table; the others are one per casino.
    PER_TABLE = (TABLE_INVENTORY, DROP, TABLE_RESULT, VARIANCE)

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="chip_accounts")
    kind = models.CharField(max_length=20, choices=KINDS)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, null=True, blank=True, related_name="chip_accounts")

    class Meta:
        ordering = ["casino", "kind", "table"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "kind", "table"], name="account_unique_per_table",
                                    condition=models.Q(table__isnull=False)),
            models.UniqueConstraint(fields=["casino", "kind"], name="account_unique_per_casino",
                                    condition=models.Q(table__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}{' ' + self.table.label if self.table_id else ''}"


class Transaction(models.Model):
    """One balanced posting. Append-only: a mistake is put right by a new transaction."""

    STOCK, FILL, CREDIT, CLOSE, VARIANCE, COUNT = "stock", "fill", "credit", "close", "variance", "count"
    KINDS = [
        (STOCK, "a table's first opener, stocked from the cage"),
        (FILL, "fill: cage to table"),
        (CREDIT, "credit: table to cage"),
        (CLOSE, "closer: the table's play, closer against the book"),
        (VARIANCE, "opener differs from the last closer"),
        (COUNT, "soft count: a drop box's contents, or a revision's difference"),
    ]

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="chip_transactions")
    kind = models.CharField(max_length=16, choices=KINDS)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    reference = models.CharField(max_length=120, help_text='What was posted, e.g. "fill F-000042".')
    created_at = models.DateTimeField(db_index=True)
    gaming_day = models.DateField(db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"#{self.pk} {self.reference}"


class Leg(models.Model):
    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, related_name="legs")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="legs")
    amount = models.DecimalField(**MONEY, help_text="Debit positive.")
    denomination = models.ForeignKey(Denomination, on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="+", help_text="The chips moved; empty for cash.")

    class Meta:
        ordering = ["transaction", "id"]
        constraints = [models.CheckConstraint(condition=~models.Q(amount=0), name="leg_not_zero")]

    def __str__(self) -> str:
        return f"{self.account} {self.amount}"
