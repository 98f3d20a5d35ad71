"""A day's findings listed in order from an index of the day: the desk newest first
(gaming_day, created_at, id), the API by id (gaming_day, id). Without them a page of 50 sorted
every finding of the period after joining each to its round (on the busiest property's day of a
million rounds, 25,000 findings). PostgreSQL makes each on every month's partition."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("audit", "0009_partition_keys_by_month")]

    operations = [
        migrations.AddIndex(
            model_name="finding",
            index=models.Index(fields=["gaming_day", "created_at", "id"], name="finding_day_newest"),
        ),
        migrations.AddIndex(
            model_name="finding",
            index=models.Index(fields=["gaming_day", "id"], name="finding_day_id"),
        ),
    ]
