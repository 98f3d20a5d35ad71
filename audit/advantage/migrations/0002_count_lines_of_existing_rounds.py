"""Make the count lines of the rounds already recorded (a database older than the lines).

Runs the writer's own rebuild (audit/advantage/lines.py), so the lines hold what ``bets.round_cards``
and ``bets.round_bets`` give today; its queries name only the columns they read, so a later
migration adding columns to rounds or revisions does not break it. A fresh database has nothing
to make. For a very large database, ``manage.py advantage_lines_rebuild --from --to`` does the
same in parts (and repairs the lines at any time)."""

from django.db import migrations


def build(apps, schema_editor):
    if not apps.get_model("tables", "Round").objects.using(schema_editor.connection.alias).exists():
        return
    from audit.advantage.lines import lines_rebuild

    # The change counters (0003) do not exist yet here: 0004 counts these lines into them.
    lines_rebuild(count_changes=False)


class Migration(migrations.Migration):
    dependencies = [
        ("advantage", "0001_count_lines"),
        ("audit", "0008_partition_by_gaming_day"),  # the table chains the rebuild locks
    ]

    operations = [migrations.RunPython(build, migrations.RunPython.noop)]
