"""Build the rollups of the rounds already recorded (a database older than the rollups).

Runs the writer's own recompute (audit/rollups/writer.py), so the figures follow the desk's
current rules; its queries name only the columns they group and count, so a later migration
adding columns to rounds or findings does not break it. A fresh database has nothing to build.
For a very large database, ``manage.py rollups_rebuild --from --to`` does the same in parts."""

from django.db import migrations


def build(apps, schema_editor):
    if not apps.get_model("tables", "Round").objects.using(schema_editor.connection.alias).exists():
        return
    from audit.rollups.writer import rollups_rebuild

    rollups_rebuild()


class Migration(migrations.Migration):
    dependencies = [
        ("rollups", "0001_daily_rollups"),
        ("audit", "0006_history_reasons_text"),
    ]

    operations = [migrations.RunPython(build, migrations.RunPython.noop)]
