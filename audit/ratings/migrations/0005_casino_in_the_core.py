"""The casino and its memberships belong to the core app (``casino``) now; their tables keep
their names (``tables_casino``...), so only Django's idea of the models moves: no SQL runs."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('casino', '0004_casino_in_the_core'),
        ('ratings', '0004_rating_days_keep_their_theo'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.AlterField(
                model_name='ratingday',
                name='casino',
                field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='casino.casino'),
            ),
        ]),
    ]
