"""Findings (and their history) carry their round's gaming day (issue #20): the partition
key, filled from the round. Their foreign keys become db_constraint=False in Django; in
PostgreSQL composite keys take their place (0008). Both tables are guarded: the fill runs
with their triggers off inside this migration's transaction, as the owner (tables 0005)."""

import django.db.models.deletion
from django.db import migrations, models

FILLED = ("audit_finding", "audit_historicalfinding")


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
        ("audit", "0006_history_reasons_text"),
        ("tables", "0009_gaming_day_on_revisions_and_wagers"),
    ]

    operations = [
        migrations.AddField(model_name="finding", name="gaming_day", field=models.DateField(null=True)),
        migrations.AddField(model_name="historicalfinding", name="gaming_day", field=models.DateField(null=True)),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(model_name="finding", name="gaming_day", field=models.DateField()),
        migrations.AlterField(model_name="historicalfinding", name="gaming_day", field=models.DateField()),
        migrations.AlterField(
            model_name="finding", name="revision",
            field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="findings", to="tables.roundrevision"),
        ),
        migrations.AlterField(
            model_name="finding", name="round",
            field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="findings", to="tables.round"),
        ),
    ]
