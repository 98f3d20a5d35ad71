"""The dealer page's pays (recorded, attested, not recorded) in the daily rollups, so that a
dealer's busy day is read from its rollup rows, not from its hundred thousand wagers; the rollups
of the rounds already recorded are rebuilt by the writer (``manage.py rollups_rebuild --from --to``
does the same in parts on a very large database)."""

from django.db import migrations, models


def build(apps, schema_editor):
    if not apps.get_model("tables", "Round").objects.using(schema_editor.connection.alias).exists():
        return
    from audit.rollups.writer import rollups_rebuild

    rollups_rebuild()


class Migration(migrations.Migration):

    dependencies = [("rollups", "0003_wide_money_sums"), ("tables", "0014_round_dealer_recorded")]

    operations = [
        migrations.AddField(
            model_name="dailyrollup", name="pays_recorded",
            field=models.IntegerField(default=0, help_text="Wagers whose pay the dealer's recording gives."),
        ),
        migrations.AddField(
            model_name="dailyrollup", name="pays_attested",
            field=models.IntegerField(default=0, help_text='Wagers "paid as shown": attested, not recorded.'),
        ),
        migrations.AddField(
            model_name="dailyrollup", name="pays_not_recorded",
            field=models.IntegerField(default=0, help_text="Wagers with neither a recorded pay nor an attestation."),
        ),
        migrations.RunPython(build, migrations.RunPython.noop),
    ]
