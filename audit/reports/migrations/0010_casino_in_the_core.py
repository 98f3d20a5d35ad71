"""The casino and its memberships belong to the core app (``casino``) now; their tables keep
their names (``tables_casino``...), so only Django's idea of the models moves: no SQL runs."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('casino', '0004_casino_in_the_core'),
        ('reports', '0009_assumption_notes_say_their_basis'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.AlterField(
                model_name='dailyreport',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='daily_reports', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='monthtableline',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.casino'),
            ),
        ]),
    ]
