"""PostgreSQL guarantees for the jackpot ledger.

* Every ledger transaction's legs sum to zero and it has at least two legs: a constraint
  trigger, DEFERRABLE INITIALLY DEFERRED, so the legs of one posting may be inserted one by
  one and are checked together at COMMIT.
* Legs, transactions and every history row are append-only; awards, adjustments and line
  configurations change only inside the jackpot services (casino.audit_guard).
"""

from django.db import migrations

from casino.audit_guard import install_guards
from casino.double_entry import balanced_sql

APPEND_ONLY = (
    "jackpots_ledgerleg",
    "jackpots_ledgertransaction",
    "jackpots_historicaljackpotbank",
    "jackpots_historicaljackpotbanktable",
    "jackpots_historicaljackpotlineconfig",
    "jackpots_historicaljackpotaward",
    "jackpots_historicaljackpotadjustment",
)
GUARDED = ("jackpots_jackpotaward", "jackpots_jackpotadjustment", "jackpots_jackpotlineconfig")

# The SQL is shared with the chip ledger (casino/double_entry.py), the same text as before.
BALANCED = balanced_sql("jackpots", transaction_table="jackpots_ledgertransaction", leg_table="jackpots_ledgerleg")


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    install_guards(schema_editor, append_only=APPEND_ONLY, guarded=GUARDED)
    schema_editor.execute(BALANCED, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP TRIGGER IF EXISTS jackpots_leg_balanced ON jackpots_ledgerleg", params=None)
    schema_editor.execute(
        "DROP TRIGGER IF EXISTS jackpots_transaction_balanced ON jackpots_ledgertransaction", params=None)
    for table in APPEND_ONLY + GUARDED:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_guard ON {table}", params=None)


class Migration(migrations.Migration):
    dependencies = [("jackpots", "0001_banks_meters_ledger")]

    operations = [migrations.RunPython(forwards, backwards)]
