"""Rounds and revisions are partitioned by gaming day in PostgreSQL (audit 0008): a foreign
key into them would need the day, which these rows do not carry. Django drops its
one-column constraints here; a constraint trigger checks that the round or revision
referred to exists (tables/history/partitions.py, REFERRERS)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("jackpots", "0005_w2g_history_reasons_text"),
        ("tables", "0009_gaming_day_on_revisions_and_wagers"),
    ]

    operations = [
        migrations.AlterField(
            model_name="jackpotaward", name="revision",
            field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="+", to="tables.roundrevision"),
        ),
        migrations.AlterField(
            model_name="jackpotaward", name="round",
            field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="jackpot_awards", to="tables.round"),
        ),
        migrations.AlterField(
            model_name="jackpotlineconfig", name="activated_by_round",
            field=models.ForeignKey(blank=True, db_constraint=False,
                                    help_text="The round whose hit let this pending version take effect.",
                                    null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                    to="tables.round"),
        ),
        migrations.AlterField(
            model_name="ledgertransaction", name="revision",
            field=models.ForeignKey(blank=True, db_constraint=False, null=True,
                                    on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                    to="tables.roundrevision"),
        ),
        migrations.AlterField(
            model_name="ledgertransaction", name="round",
            field=models.ForeignKey(blank=True, db_constraint=False, null=True,
                                    on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                    to="tables.round"),
        ),
    ]
