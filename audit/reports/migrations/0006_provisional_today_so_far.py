from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('reports', '0005_history_reasons_text'),
    ]

    operations = [
        migrations.AddField(
            model_name='dailyreport',
            name='provisional',
            field=models.BooleanField(default=False, help_text="Today so far: the current gaming day's figures until the run read its rounds (as of its start); never signed, replaced by the final report at the close."),
        ),
        migrations.RemoveConstraint(
            model_name='dailyreport',
            name='dailyreport_one_per_day',
        ),
        migrations.AddConstraint(
            model_name='dailyreport',
            constraint=models.UniqueConstraint(fields=('casino', 'gaming_day', 'provisional'), name='dailyreport_one_per_day_and_kind'),
        ),
    ]
