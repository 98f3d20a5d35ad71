"""Findings and chain links are written by recording a round, so they belong to the floor app
(``tables``) now; their tables keep their names (``audit_finding``...), so only Django's idea
of the models moves: no SQL runs."""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models


MOVED = ("finding", "historicalfinding", "chainlink", "chainrepair")


def _relabel(apps, source: str, target: str) -> None:
    # Permissions and admin log entries point at content types by id: relabel the rows (a fresh
    # database has none yet; post_migrate makes them under the new label).
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label=source, model__in=MOVED).update(app_label=target)


def _content_types_follow(apps, schema_editor):
    _relabel(apps, "audit", "tables")


def _content_types_return(apps, schema_editor):
    _relabel(apps, "tables", "audit")


class Migration(migrations.Migration):

    dependencies = [
        ('audit', '0013_finding_day_largest'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('tables', '0015_casino_leaves_the_floor'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='ChainLink',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('chain', models.CharField(help_text='"table:<id>", "bank:<id>" or "money:<casino>:<gaming day>".', max_length=40)),
                    ('kind', models.CharField(choices=[('revision', 'revision with its wagers and findings'), ('finding', 'finding added by a re-audit'), ('status', 'finding status change (history row)'), ('void', 'round voided'), ('ledger', 'ledger transaction with its legs'), ('chiptxn', 'chip ledger transaction with its legs'), ('buyin', 'buy-in'), ('buyinvoid', 'buy-in void'), ('invslip', 'opener or closer slip with its lines'), ('chipslip', 'fill or credit state (history row) with its lines'), ('dropbox', 'drop box'), ('boxdrop', 'drop box dropped'), ('softcount', 'soft count with its lines'), ('countsign', 'soft count signature'), ('cashout', 'cash-out'), ('cashoutvd', 'cash-out void'), ('patronid', 'patron identification'), ('ctrexcept', 'CTR exception'), ('mtlsignoff', 'MTL sign-off'), ('dayclose', 'gaming day closed'), ('dayreopen', 'gaming day reopened')], max_length=10)),
                    ('ref', models.BigIntegerField(help_text='The id of what the link covers (see kind).')),
                    ('digest', models.CharField(max_length=64)),
                    ('created_at', models.DateTimeField()),
                ],
                options={
                    'db_table': 'audit_chainlink',
                    'ordering': ['chain', 'id'],
                    'indexes': [models.Index(fields=['chain', 'id'], name='audit_chain_chain_ea3b1e_idx'), models.Index(fields=['kind', 'ref'], name='audit_chain_kind_bfd0de_idx')],
                },
            ),
            migrations.CreateModel(
                name='HistoricalFinding',
                fields=[
                    ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                    ('gaming_day', models.DateField()),
                    ('kind', models.CharField(choices=[('overpay', 'overpay'), ('underpay', 'underpay'), ('procedure', 'procedure'), ('rule_violation', 'rule violation')], max_length=20)),
                    ('code', models.CharField(db_index=True, max_length=60)),
                    ('message', models.TextField()),
                    ('path', models.CharField(blank=True, max_length=200)),
                    ('rule', models.TextField(blank=True)),
                    ('expected', models.CharField(blank=True, max_length=200, null=True)),
                    ('recorded', models.CharField(blank=True, max_length=200, null=True)),
                    ('amount', models.DecimalField(decimal_places=2, help_text='Money at stake.', max_digits=14)),
                    ('seat', models.PositiveSmallIntegerField(blank=True, null=True)),
                    ('player', models.CharField(blank=True, max_length=40)),
                    ('status', models.CharField(choices=[('open', 'open'), ('confirmed', 'confirmed as dealer error'), ('dismissed', 'dismissed as a recording mistake'), ('escalated', 'escalated'), ('superseded', 'superseded by a correction')], default='open', max_length=12)),
                    ('review_note', models.TextField(blank=True)),
                    ('reviewed_at', models.DateTimeField(blank=True, null=True)),
                    ('reopened_at', models.DateTimeField(blank=True, help_text='Sent back to surveillance by a correction or void; cleared by a decision.', null=True)),
                    ('reopened_reason', models.TextField(blank=True, help_text='What changed the round: revision, author, reason.')),
                    ('created_at', models.DateTimeField()),
                    ('history_id', models.AutoField(primary_key=True, serialize=False)),
                    ('history_date', models.DateTimeField(db_index=True)),
                    ('history_change_reason', models.TextField(null=True)),
                    ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                    ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('reviewed_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('revision', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tables.roundrevision')),
                    ('round', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tables.round')),
                ],
                options={
                    'verbose_name': 'historical finding',
                    'verbose_name_plural': 'historical findings',
                    'db_table': 'audit_historicalfinding',
                    'ordering': ('-history_date', '-history_id'),
                    'get_latest_by': ('history_date', 'history_id'),
                },
                bases=(simple_history.models.HistoricalChanges, models.Model),
            ),
            migrations.CreateModel(
                name='ChainRepair',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('link', models.BigIntegerField(help_text='The ChainLink re-digested.')),
                    ('chain', models.CharField(max_length=40)),
                    ('kind', models.CharField(max_length=10)),
                    ('ref', models.BigIntegerField()),
                    ('forked', models.BooleanField(help_text='It followed a stale head (else: a link before it was re-linked).')),
                    ('previous_used', models.CharField(help_text='The head the link was written after.', max_length=64)),
                    ('old_digest', models.CharField(max_length=64)),
                    ('new_digest', models.CharField(max_length=64)),
                    ('repaired_at', models.DateTimeField()),
                    ('reason', models.TextField()),
                    ('repaired_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'audit_chainrepair',
                    'ordering': ['id'],
                    'indexes': [models.Index(fields=['new_digest'], name='audit_chain_new_dig_dd430f_idx')],
                },
            ),
            migrations.CreateModel(
                name='Finding',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('gaming_day', models.DateField()),
                    ('kind', models.CharField(choices=[('overpay', 'overpay'), ('underpay', 'underpay'), ('procedure', 'procedure'), ('rule_violation', 'rule violation')], max_length=20)),
                    ('code', models.CharField(db_index=True, max_length=60)),
                    ('message', models.TextField()),
                    ('path', models.CharField(blank=True, max_length=200)),
                    ('rule', models.TextField(blank=True)),
                    ('expected', models.CharField(blank=True, max_length=200, null=True)),
                    ('recorded', models.CharField(blank=True, max_length=200, null=True)),
                    ('amount', models.DecimalField(decimal_places=2, help_text='Money at stake.', max_digits=14)),
                    ('seat', models.PositiveSmallIntegerField(blank=True, null=True)),
                    ('player', models.CharField(blank=True, max_length=40)),
                    ('status', models.CharField(choices=[('open', 'open'), ('confirmed', 'confirmed as dealer error'), ('dismissed', 'dismissed as a recording mistake'), ('escalated', 'escalated'), ('superseded', 'superseded by a correction')], default='open', max_length=12)),
                    ('review_note', models.TextField(blank=True)),
                    ('reviewed_at', models.DateTimeField(blank=True, null=True)),
                    ('reopened_at', models.DateTimeField(blank=True, help_text='Sent back to surveillance by a correction or void; cleared by a decision.', null=True)),
                    ('reopened_reason', models.TextField(blank=True, help_text='What changed the round: revision, author, reason.')),
                    ('created_at', models.DateTimeField()),
                    ('reviewed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('revision', models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.PROTECT, related_name='findings', to='tables.roundrevision')),
                    ('round', models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.PROTECT, related_name='findings', to='tables.round')),
                ],
                options={
                    'db_table': 'audit_finding',
                    'ordering': ['-created_at', 'id'],
                    'indexes': [models.Index(fields=['status', 'kind'], name='audit_findi_status_172398_idx'), models.Index(fields=['gaming_day', 'created_at', 'id'], name='finding_day_newest'), models.Index(fields=['gaming_day', 'id'], name='finding_day_id'), models.Index(fields=['gaming_day', '-amount', '-created_at', 'id'], name='finding_day_largest')],
                },
            ),
        ]),
        migrations.RunPython(_content_types_follow, _content_types_return, elidable=False),
    ]
