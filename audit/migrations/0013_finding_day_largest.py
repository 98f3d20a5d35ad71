"""A day's findings largest first, in order from an index of the day (gaming_day, amount desc,
created_at desc, id), as the desk's "Largest first" lists them. Without it that page sorted every
finding of the day that matched (on the busiest property's day of a million rounds, 25,000 of
them, each joined to its round) to show 50. PostgreSQL makes it on every month's partition."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("audit", "0012_money_chains")]

    operations = [
        migrations.AddIndex(
            model_name="finding",
            index=models.Index(fields=["gaming_day", "-amount", "-created_at", "id"], name="finding_day_largest"),
        ),
    ]
