"""PostgreSQL guards (casino/audit_guard.py): cash-outs, their voids, identifications, MTL
sign-offs, CTR exceptions and the settings' history are append-only. A cash-out row is locked
(SELECT ... FOR UPDATE) by its void, so it is in casino/db_roles.py LOCK_ROWS."""

from django.db import migrations

from casino.audit_guard import install_guards

APPEND_ONLY = ("compliance_cashout", "compliance_cashoutvoid", "compliance_patronidentification",
               "compliance_mtlsignoff", "compliance_ctrexception", "compliance_historicalcompliancesettings")


def forwards(apps, schema_editor):
    install_guards(schema_editor, append_only=APPEND_ONLY, guarded=())


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in APPEND_ONLY:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_guard ON {table}", params=None)


class Migration(migrations.Migration):
    dependencies = [("compliance", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
