"""The casino and its memberships belong to the core app (``casino``) now; their tables keep
their names (``tables_casino``...), so only Django's idea of the models moves: no SQL runs."""

import django.db.models.deletion
from django.db import migrations, models


MOVED = ("casino", "casinomembership", "historicalcasino", "historicalcasinomembership")


def _relabel(apps, source: str, target: str) -> None:
    # Permissions and admin log entries point at content types by id: relabel the rows (a fresh
    # database has none yet; post_migrate makes them under the new label).
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label=source, model__in=MOVED).update(app_label=target)


def _content_types_follow(apps, schema_editor):
    _relabel(apps, "tables", "casino")


def _content_types_return(apps, schema_editor):
    _relabel(apps, "casino", "tables")


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('accounting', '0011_casino_in_the_core'),
        ('advantage', '0005_casino_in_the_core'),
        ('casino', '0004_casino_in_the_core'),
        ('closing', '0002_casino_in_the_core'),
        ('compliance', '0003_casino_in_the_core'),
        ('fluctuations', '0003_casino_in_the_core'),
        ('jackpots', '0009_casino_in_the_core'),
        ('players', '0003_casino_in_the_core'),
        ('ratings', '0005_casino_in_the_core'),
        ('reports', '0010_casino_in_the_core'),
        ('tables', '0014_round_dealer_recorded'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.AlterField(
                model_name='dealer',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='dealers', to='casino.casino'),
            ),
            migrations.RemoveField(
                model_name='historicalcasinomembership',
                name='casino',
            ),
            migrations.RemoveField(
                model_name='casinomembership',
                name='casino',
            ),
            migrations.AlterField(
                model_name='historicalruleset',
                name='casino',
                field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='ruleset',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rulesets', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='pit',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='pits', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='historicaldealer',
                name='casino',
                field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='historicalpit',
                name='casino',
                field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='casino.casino'),
            ),
            migrations.RemoveField(
                model_name='casinomembership',
                name='user',
            ),
            migrations.RemoveField(
                model_name='historicalcasino',
                name='history_user',
            ),
            migrations.RemoveField(
                model_name='historicalcasinomembership',
                name='history_user',
            ),
            migrations.RemoveField(
                model_name='historicalcasinomembership',
                name='user',
            ),
            migrations.DeleteModel(
                name='Casino',
            ),
            migrations.DeleteModel(
                name='CasinoMembership',
            ),
            migrations.DeleteModel(
                name='HistoricalCasino',
            ),
            migrations.DeleteModel(
                name='HistoricalCasinoMembership',
            ),
        ]),
        migrations.RunPython(_content_types_follow, _content_types_return, elidable=False),
    ]
