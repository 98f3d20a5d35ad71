"""Guard every table that records what happened; chain links; a ledger transaction closes
when the database transaction that wrote it ends.

Guards (casino/audit_guard.py): append-only now also for idempotency keys, jackpot meters,
ledger accounts, bank memberships, the theoretical assumptions' history and the chain
links; guarded by column-level rules (RULES) for rounds, findings, table sessions, dealer
assignments, awards, adjustments and line configurations (the flag alone no longer lets a
session change anything but the moves the rules name).
"""

from django.db import migrations, models

from casino.audit_guard import install_guards
from casino.double_entry import closed_transaction_sql

APPEND_ONLY = (
    "tables_idempotencykey",
    "jackpots_jackpotmeter",
    "jackpots_ledgeraccount",
    "jackpots_jackpotbanktable",
    "reports_historicaltheoreticalassumption",
    "audit_chainlink",
)
GUARDED = (
    "tables_round",
    "audit_finding",
    "tables_tablesession",
    "tables_dealerassignment",
    "jackpots_jackpotaward",
    "jackpots_jackpotadjustment",
    "jackpots_jackpotlineconfig",
)

# A leg may only join a transaction written by the same database transaction (the SQL is
# shared with the chip ledger: casino/double_entry.py, the same text as before).
CLOSED = closed_transaction_sql("jackpots", transaction_table="jackpots_ledgertransaction",
                                leg_table="jackpots_ledgerleg")


def seal(apps, schema_editor):
    """Link what was recorded before the chains (the live models: the chain's texts are the
    verifier's own, written once in audit/chain.py; on a new database there is nothing)."""
    from audit import chain_verify

    chain_verify.seal_existing()


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    install_guards(schema_editor, append_only=APPEND_ONLY, guarded=GUARDED)
    schema_editor.execute(CLOSED, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP TRIGGER IF EXISTS jackpots_leg_closed ON jackpots_ledgerleg", params=None)
    for table in APPEND_ONLY + ("tables_tablesession", "tables_dealerassignment"):
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_guard ON {table}", params=None)
    # The other guarded tables keep a guard (their rules, which 0002's reinstall would give too).


class Migration(migrations.Migration):

    dependencies = [
        ('audit', '0004_finding_reopened'),
        # The data migrations that rewrite rounds and findings run under the old guards.
        ('tables', '0005_rounds_on_their_recorded_gaming_day'),
        ('jackpots', '0003_w2g_thresholds'),
        ('tables', '0006_casino_memberships'),
        ('reports', '0002_default_assumptions'),
    ]

    operations = [
        migrations.CreateModel(
            name='ChainLink',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('chain', models.CharField(help_text='"table:<id>" or "bank:<id>".', max_length=40)),
                ('kind', models.CharField(choices=[('revision', 'revision with its wagers and findings'), ('finding', 'finding added by a re-audit'), ('status', 'finding status change (history row)'), ('void', 'round voided'), ('ledger', 'ledger transaction with its legs')], max_length=10)),
                ('ref', models.BigIntegerField(help_text='The id of what the link covers (see kind).')),
                ('digest', models.CharField(max_length=64)),
                ('created_at', models.DateTimeField()),
            ],
            options={
                'ordering': ['chain', 'id'],
                'indexes': [models.Index(fields=['chain', 'id'], name='audit_chain_chain_ea3b1e_idx'), models.Index(fields=['kind', 'ref'], name='audit_chain_kind_bfd0de_idx')],
            },
        ),
        migrations.RunPython(seal, migrations.RunPython.noop),
        migrations.RunPython(forwards, backwards),
    ]
