"""On PostgreSQL, audit tables refuse UPDATE and DELETE outside the services allowed to."""

from django.db import migrations

from casino.audit_guard import install_guards

APPEND_ONLY = (
    "tables_rulesetversion",
    "tables_roundrevision",
    "tables_wager",
    "tables_historicalcasino",
    "tables_historicalpit",
    "tables_historicalruleset",
    "tables_historicaltable",
    "tables_historicaldealer",
    "tables_historicaltablesession",
    "tables_historicalround",
    "audit_historicalfinding",
)
GUARDED = ("tables_round", "audit_finding")


def forwards(apps, schema_editor):
    install_guards(schema_editor, append_only=APPEND_ONLY, guarded=GUARDED)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in APPEND_ONLY + GUARDED:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_guard ON {table}")


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0001_initial"),
        ("tables", "0002_live_play"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
