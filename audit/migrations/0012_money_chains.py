"""Hash chains over the money records (audit/money_chain.py) and the record of fork repairs.

The chain links may now cover the chip ledger, buy-ins, slips, drops, counts, Title 31
records, closes and reopens; what was written before is sealed into one chain per casino
(``money:<casino>:sealed``), so a database that already holds them verifies clean. Fork
repairs (``audit_verify --repair-forks``) are kept in an append-only table.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino.audit_guard import install_guards


def seal(apps, schema_editor):
    """Link the money records written before the chains (the live models: the texts are the
    verifier's own, audit/money_chain.py; on a new database there is nothing)."""
    from audit import money_chain

    money_chain.seal_existing()


def guard(apps, schema_editor):
    install_guards(schema_editor, append_only=("audit_chainrepair",), guarded=())


def unguard(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP TRIGGER IF EXISTS audit_chainrepair_guard ON audit_chainrepair", params=None)


class Migration(migrations.Migration):

    dependencies = [
        ('audit', '0011_finding_day_indexes'),
        ('accounting', '0008_slip_max'),
        ('compliance', '0002_guards'),
        ('closing', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='chainlink',
            name='chain',
            field=models.CharField(help_text='"table:<id>", "bank:<id>" or "money:<casino>:<gaming day>".', max_length=40),
        ),
        migrations.AlterField(
            model_name='chainlink',
            name='kind',
            field=models.CharField(choices=[('revision', 'revision with its wagers and findings'), ('finding', 'finding added by a re-audit'), ('status', 'finding status change (history row)'), ('void', 'round voided'), ('ledger', 'ledger transaction with its legs'), ('chiptxn', 'chip ledger transaction with its legs'), ('buyin', 'buy-in'), ('buyinvoid', 'buy-in void'), ('invslip', 'opener or closer slip with its lines'), ('chipslip', 'fill or credit state (history row) with its lines'), ('dropbox', 'drop box'), ('boxdrop', 'drop box dropped'), ('softcount', 'soft count with its lines'), ('countsign', 'soft count signature'), ('cashout', 'cash-out'), ('cashoutvd', 'cash-out void'), ('patronid', 'patron identification'), ('ctrexcept', 'CTR exception'), ('mtlsignoff', 'MTL sign-off'), ('dayclose', 'gaming day closed'), ('dayreopen', 'gaming day reopened')], max_length=10),
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
                'ordering': ['id'],
                'indexes': [models.Index(fields=['new_digest'], name='audit_chain_new_dig_dd430f_idx')],
            },
        ),
        migrations.RunPython(seal, migrations.RunPython.noop),
        migrations.RunPython(guard, unguard),
    ]
