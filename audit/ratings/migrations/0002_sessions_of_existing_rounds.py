"""Cut the rating sessions of the rounds already recorded (a database older than the sessions).

Runs the writer's own recompute (audit/ratings/writer.py), so the sessions follow the current
rule. A fresh database has nothing to build. For a very large database, ``manage.py
ratings_rebuild --from --to`` does the same in parts (this migration then finds rounds and runs
over all of them: run it on a quiet floor, or fake it and rebuild in parts)."""

from django.db import migrations


def build(apps, schema_editor):
    if not apps.get_model("tables", "Round").objects.using(schema_editor.connection.alias).exists():
        return
    from audit.ratings.writer import ratings_rebuild

    ratings_rebuild()


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0001_rating_sessions"),
        ("tables", "0011_round_counter"),
        ("audit", "0008_partition_by_gaming_day"),
    ]

    operations = [migrations.RunPython(build, migrations.RunPython.noop)]
