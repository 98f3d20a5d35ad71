"""The casino and its memberships belong to the core app (``casino``) now; their tables keep
their names (``tables_casino``...), so only Django's idea of the models moves: no SQL runs."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('advantage', '0004_change_counters_of_existing_lines'),
        ('casino', '0004_casino_in_the_core'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.AlterField(
                model_name='dayresult',
                name='casino',
                field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='casino.casino'),
            ),
        ]),
    ]
