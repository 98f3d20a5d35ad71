"""PostgreSQL guarantees for the chip ledger (casino/double_entry.py, casino/audit_guard.py).

* Every transaction has at least two legs summing to zero, checked at COMMIT; a leg joins only
  a transaction its own database transaction wrote.
* Accounts, transactions, legs and the chip history are append-only; a slip series' counter
  only grows.
"""

from django.db import migrations

from casino.audit_guard import install_guards
from casino.double_entry import ledger_guards_drop_sql, ledger_guards_sql

APPEND_ONLY = (
    "accounting_account",
    "accounting_transaction",
    "accounting_leg",
    "accounting_historicalchipset",
    "accounting_historicaldenomination",
)
GUARDED = ("accounting_serialcounter",)
LEDGER = {"transaction_table": "accounting_transaction", "leg_table": "accounting_leg"}


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    install_guards(schema_editor, append_only=APPEND_ONLY, guarded=GUARDED)
    schema_editor.execute(ledger_guards_sql("accounting", **LEDGER), params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(ledger_guards_drop_sql("accounting", **LEDGER), params=None)
    for table in APPEND_ONLY + GUARDED:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_guard ON {table}", params=None)


class Migration(migrations.Migration):
    dependencies = [("accounting", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
