"""PostgreSQL guards (casino/audit_guard.py RULES): an investigation's figures and explanation
never change and its status moves only open > in review > signed off (or back to open from
review); the history of investigations and of the bounds is append-only."""

from django.db import migrations

from casino.audit_guard import install_guards

APPEND_ONLY = ("fluctuations_historicalinvestigation", "fluctuations_historicalfluctuationsettings")
GUARDED = ("fluctuations_investigation",)


def forwards(apps, schema_editor):
    install_guards(schema_editor, append_only=APPEND_ONLY, guarded=GUARDED)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in APPEND_ONLY + GUARDED:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_guard ON {table}", params=None)


class Migration(migrations.Migration):
    dependencies = [("fluctuations", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
