"""Issue #14: a session may continue one of an earlier gaming day (a table left open across the
gaming-day start rolls over to a continuation session). Data: migration 0005."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0003_leaner_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicaltablesession",
            name="continues",
            field=models.ForeignKey(
                blank=True, db_constraint=False,
                help_text="The session of an earlier gaming day this one continues (the table stayed open).",
                null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name="+",
                to="tables.tablesession"),
        ),
        migrations.AddField(
            model_name="tablesession",
            name="continues",
            field=models.OneToOneField(
                blank=True,
                help_text="The session of an earlier gaming day this one continues (the table stayed open).",
                null=True, on_delete=django.db.models.deletion.PROTECT, related_name="continuation",
                to="tables.tablesession"),
        ),
    ]
