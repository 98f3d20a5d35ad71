"""Append-only audit tables, enforced by PostgreSQL triggers.

Revisions, wagers, ruleset versions and history rows refuse every UPDATE and DELETE.
Rounds and findings refuse them too, unless the transaction has said, through
:func:`allow_audit_write`, that it is one of the services allowed to (a correction, a
void, a review). SQLite (the quick start) has no such triggers; the services are the
only writers there.
"""

from __future__ import annotations

from django.db import connection

GUARD_FUNCTIONS = """
CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'Corrections are new revisions made by the services, with a reason and an author.';
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION casino_guard_change() RETURNS trigger AS $$
BEGIN
  IF coalesce(current_setting('casino.audit_write', true), '') = 'on' THEN
    IF TG_OP = 'DELETE' THEN
      RAISE EXCEPTION '% rows are never deleted', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% may only change through the audit services: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$ LANGUAGE plpgsql;
"""


def trigger_sql(table: str, function: str) -> str:
    name = f"{table}_guard"
    return (
        f"DROP TRIGGER IF EXISTS {name} ON {table};"
        f"CREATE TRIGGER {name} BEFORE UPDATE OR DELETE ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION {function}();"
    )


def install_guards(schema_editor, *, append_only: tuple[str, ...], guarded: tuple[str, ...]) -> None:
    """Migration helper: create the guard functions and triggers (PostgreSQL only)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(GUARD_FUNCTIONS, params=None)
    for table in append_only:
        schema_editor.execute(trigger_sql(table, "casino_refuse_change"), params=None)
    for table in guarded:
        schema_editor.execute(trigger_sql(table, "casino_guard_change"), params=None)


def allow_audit_write(conn=None) -> None:
    """Let this transaction update guarded audit rows (rounds, findings). Call inside atomic().

    ``conn``: the connection to allow it on, when not the default (a data migration's).
    """
    conn = conn or connection
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor:
            cursor.execute("SELECT set_config('casino.audit_write', 'on', true)")
