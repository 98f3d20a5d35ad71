"""A dealer's rounds newest first from one index: (dealer, recorded_at) replaces the dealer's own
foreign-key index (which it also serves), so a recorded round writes no more index entries than
before. PostgreSQL makes it on every month's partition."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("tables", "0013_revision_pays_attested")]

    operations = [
        migrations.AddIndex(
            model_name="round",
            index=models.Index(fields=["dealer", "recorded_at"], name="round_dealer_recorded"),
        ),
        migrations.AlterField(
            model_name="round",
            name="dealer",
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="rounds", to="tables.dealer"),
        ),
    ]
