"""The casino and its memberships belong to the core app (``casino``) now; their tables keep
their names (``tables_casino``...), so only Django's idea of the models moves: no SQL runs."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('casino', '0004_casino_in_the_core'),
        ('closing', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.AlterField(
                model_name='dayclose',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='dayreopen',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='finalrun',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.casino'),
            ),
        ]),
    ]
