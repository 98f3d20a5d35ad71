"""Revisions and wagers carry their round's gaming day (issue #20): the partition key of the
tables that grow with play, and what lets a day's reads prune. Their foreign keys become
db_constraint=False in Django: in PostgreSQL, composite keys (round_id, gaming_day) take
their place once the tables are partitioned (audit 0008, tables/history/partitions.py).

The day is filled from the round. Revisions and wagers are append-only in PostgreSQL: their
guards are switched off for the fill inside this migration's own transaction, by the owner
(as tables 0005 does).
"""

from django.db import migrations, models
import django.db.models.deletion

FILLED = ("tables_roundrevision", "tables_wager")


def fill(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for table in FILLED:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        for table in FILLED:
            cursor.execute(f"UPDATE {table} SET gaming_day = (SELECT r.gaming_day FROM tables_round r "  # noqa: S608
                           f"WHERE r.id = {table}.round_id)")
        if connection.vendor == "postgresql":
            for table in FILLED:
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0008_membership_history_reasons_text"),
    ]

    operations = [
        migrations.AddField(model_name="roundrevision", name="gaming_day", field=models.DateField(null=True)),
        migrations.AddField(model_name="wager", name="gaming_day", field=models.DateField(null=True)),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(model_name="roundrevision", name="gaming_day", field=models.DateField()),
        migrations.AlterField(model_name="wager", name="gaming_day", field=models.DateField()),
        migrations.RemoveConstraint(model_name="roundrevision", name="roundrevision_unique_number"),
        migrations.AddConstraint(
            model_name="roundrevision",
            constraint=models.UniqueConstraint(fields=("round", "number", "gaming_day"),
                                               name="roundrevision_unique_number"),
        ),
        migrations.AlterField(
            model_name="roundrevision", name="round",
            field=models.ForeignKey(db_constraint=False, db_index=False,
                                    on_delete=django.db.models.deletion.PROTECT, related_name="revisions",
                                    to="tables.round"),
        ),
        migrations.AlterField(
            model_name="wager", name="revision",
            field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="wagers", to="tables.roundrevision"),
        ),
        migrations.AlterField(
            model_name="wager", name="round",
            field=models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="wagers", to="tables.round"),
        ),
        migrations.AlterField(
            model_name="idempotencykey", name="round",
            field=models.ForeignKey(db_constraint=False, db_index=False, null=True,
                                    on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                    to="tables.round"),
        ),
    ]
