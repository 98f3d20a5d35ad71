"""PostgreSQL guards for the slips (casino/audit_guard.py RULES): lines, findings, settings'
and slips' history are append-only; an opener or closer changes only to link its posting;
a fill or credit only moves requested > issued > received, or to voided with a second person."""

from django.db import migrations

from casino.audit_guard import install_guards

APPEND_ONLY = (
    "accounting_inventoryline",
    "accounting_chipslipline",
    "accounting_accountingfinding",
    "accounting_historicalchipslip",
    "accounting_historicalaccountingsettings",
)
GUARDED = ("accounting_inventoryslip", "accounting_chipslip")


def forwards(apps, schema_editor):
    install_guards(schema_editor, append_only=APPEND_ONLY, guarded=GUARDED)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in APPEND_ONLY + GUARDED:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_guard ON {table}", params=None)


class Migration(migrations.Migration):
    dependencies = [("accounting", "0003_slips_and_findings")]

    operations = [migrations.RunPython(forwards, backwards)]
