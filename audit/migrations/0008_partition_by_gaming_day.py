"""PostgreSQL: the tables that grow with play become monthly partitions by gaming day (issue
#20, tables/history/partitions.py). Every row is copied (INSERT ... SELECT) inside this
migration's transaction, the old tables dropped, keys, indexes, foreign keys, identities and
guards restored, composite keys added between the partitioned tables and reference triggers
on the plain tables that point at rounds. Months: those of the stored rounds up to twelve
past today; later ones come from ``manage.py history_partitions``. SQLite: nothing."""

from django.db import migrations


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    from tables.history.partitions import partition_all

    partition_all(schema_editor)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    from tables.history.partitions import unpartition_all

    unpartition_all(schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("audit", "0007_finding_gaming_day"),
        ("tables", "0009_gaming_day_on_revisions_and_wagers"),
        ("jackpots", "0006_references_into_partitioned_rounds"),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
