"""PostgreSQL guards (casino/audit_guard.py): a player is never deleted and only their name and
loyalty number change; the history of those changes is append-only."""

from django.db import migrations

from casino.audit_guard import install_guards

APPEND_ONLY = ("players_historicalplayer",)
GUARDED = ("players_player",)


def forwards(apps, schema_editor):
    install_guards(schema_editor, append_only=APPEND_ONLY, guarded=GUARDED)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in (*APPEND_ONLY, *GUARDED):
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_guard ON {table}", params=None)


class Migration(migrations.Migration):
    dependencies = [("players", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
