"""PostgreSQL: the composite keys between the partitioned tables (rounds, revisions, wagers,
findings) move from the partitioned tables to each month's partitions, a child's month to its
parent's same month (tables/history/partitions.py explains why: a key into a partitioned table
is checked through every month). Every row is checked again as the month's keys are added.
The reference trigger's function is replaced by one with a static statement per table referred
to (planned once per connection, not at every row). SQLite: nothing."""

from django.db import migrations


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    from tables.history.partitions import REFERRER_FUNCTION, is_partitioned, keys_by_month

    if is_partitioned(schema_editor.connection):
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending checks may block ALTER TABLE
            keys_by_month(cursor)
            cursor.execute(REFERRER_FUNCTION)


def backwards(apps, schema_editor):
    # The function stays: it checks what the one it replaced checked.
    if schema_editor.connection.vendor != "postgresql":
        return
    from tables.history.partitions import is_partitioned, keys_on_parents

    if is_partitioned(schema_editor.connection):
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            keys_on_parents(cursor)


class Migration(migrations.Migration):

    dependencies = [("audit", "0008_partition_by_gaming_day")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
