"""The casino and its memberships belong to the core app (``casino``) now; their tables keep
their names (``tables_casino``...), so only Django's idea of the models moves: no SQL runs."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('casino', '0004_casino_in_the_core'),
        ('players', '0002_guards'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.AlterField(
                model_name='historicalplayer',
                name='casino',
                field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='player',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='players', to='casino.casino'),
            ),
        ]),
    ]
