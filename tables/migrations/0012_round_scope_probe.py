"""The rounds' key with the table and status beside it, so that each finding of a day that is
scoped to its casino (round -> table) and filtered by its round's status reads its round from
the index alone; and a day's rounds in the order the rounds list gives them (newest recorded
first), which recorded_at's own index gives only across the whole month's partition.
PostgreSQL makes them on every month's partition; SQLite leaves out the included columns."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("tables", "0011_round_counter")]

    operations = [
        migrations.AddIndex(
            model_name="round",
            index=models.Index(fields=["id", "gaming_day"], include=("table", "status"), name="round_scope_probe"),
        ),
        migrations.AddIndex(
            model_name="round",
            index=models.Index(fields=["gaming_day", "recorded_at"], name="round_day_recorded"),
        ),
    ]
