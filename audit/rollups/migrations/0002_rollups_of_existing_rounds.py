"""Build the rollups of the rounds already recorded (a database older than the rollups).

Runs the writer's own recompute (audit/rollups/writer.py), so the figures follow the desk's
current rules; its queries name only the columns they group and count, so a later migration
adding columns to rounds or findings does not break it. A fresh database has nothing to build.
For a very large database, ``manage.py rollups_rebuild --from --to`` does the same in parts.

The build now runs in 0004, once every column the writer fills exists (the writer is today's
code, and writes today's columns); here it does nothing."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("rollups", "0001_daily_rollups"),
        ("audit", "0006_history_reasons_text"),
    ]

    operations = [migrations.RunPython(migrations.RunPython.noop, migrations.RunPython.noop)]
