"""The casino and its memberships belong to the core app (``casino``) now; their tables keep
their names (``tables_casino``...), so only Django's idea of the models moves: no SQL runs."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounting', '0010_credit_dealer_signed'),
        ('casino', '0004_casino_in_the_core'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.AlterField(
                model_name='account',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='chip_accounts', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='accountingfinding',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='accountingsettings',
                name='casino',
                field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='accounting_settings', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='buyin',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='chipset',
                name='casino',
                field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='chip_set', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='chipslip',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='dropbox',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='historicalaccountingsettings',
                name='casino',
                field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='historicalchipset',
                name='casino',
                field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='historicalchipslip',
                name='casino',
                field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='inventoryslip',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='serialcounter',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casino.casino'),
            ),
            migrations.AlterField(
                model_name='transaction',
                name='casino',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='chip_transactions', to='casino.casino'),
            ),
        ]),
    ]
