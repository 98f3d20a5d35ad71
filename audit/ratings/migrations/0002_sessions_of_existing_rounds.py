"""Cut the rating sessions of the rounds already recorded (a database older than the sessions).

It ran the writer's own recompute, and the writer now also keeps the day rows, whose table
``0003_rating_days`` creates: run from here, on a database that had rounds before the ratings,
it wrote to a table that does not exist yet. So the build moved to ``0003``, which cuts the
sessions and sums the day rows in one pass; this one does nothing now (a database that
applied it before has its sessions, and ``0003`` sums their day rows)."""

from django.db import migrations


def build(apps, schema_editor):
    return None  # moved to 0003_rating_days (see above)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0001_rating_sessions"),
        ("tables", "0011_round_counter"),
        ("audit", "0008_partition_by_gaming_day"),
    ]

    operations = [migrations.RunPython(build, migrations.RunPython.noop)]
