"""Findings and chain links are written by recording a round, so they belong to the floor app
(``tables``) now; their tables keep their names (``audit_finding``...), so only Django's idea
of the models moves: no SQL runs."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0016_findings_and_chain_links_on_the_floor'),
        ('audit', '0013_finding_day_largest'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.DeleteModel(
                name='ChainLink',
            ),
            migrations.RemoveField(
                model_name='finding',
                name='reviewed_by',
            ),
            migrations.RemoveField(
                model_name='finding',
                name='revision',
            ),
            migrations.RemoveField(
                model_name='finding',
                name='round',
            ),
            migrations.RemoveField(
                model_name='historicalfinding',
                name='history_user',
            ),
            migrations.RemoveField(
                model_name='historicalfinding',
                name='reviewed_by',
            ),
            migrations.RemoveField(
                model_name='historicalfinding',
                name='revision',
            ),
            migrations.RemoveField(
                model_name='historicalfinding',
                name='round',
            ),
            migrations.DeleteModel(
                name='ChainRepair',
            ),
            migrations.DeleteModel(
                name='Finding',
            ),
            migrations.DeleteModel(
                name='HistoricalFinding',
            ),
        ]),
    ]
