"""Two PostgreSQL roles: the owner runs migrations and owns the tables and their guards;
the app connects as a role that owns nothing and holds only the grants below.

The app role may SELECT, INSERT, UPDATE and DELETE; never TRUNCATE, REFERENCES or TRIGGER,
never DDL (it owns no table, so ``ALTER TABLE ... DISABLE TRIGGER`` is refused), never
``session_replication_role`` (superuser only). Append-only tables (those whose guard is
``casino_refuse_change``) grant it only SELECT and INSERT (and UPDATE where the services
lock rows, :data:`LOCK_ROWS`: the trigger refuses the update itself), guarded tables no DELETE,
so the privilege system refuses before the triggers do. Default privileges give tables the
owner creates later the plain grant; ``grant_app_role`` after each ``migrate`` narrows them
again (deploy/README.md).
"""

from __future__ import annotations

from django.conf import settings
from django.core import checks
from django.db import connections
from psycopg import sql

WRITES = "SELECT, INSERT, UPDATE, DELETE"
# Append-only tables whose rows the services lock (SELECT ... FOR UPDATE needs the UPDATE
# privilege): they keep it, and their trigger still refuses every UPDATE. The meters serialise
# a bank's posts; a drop box serialises its drop and its counts; a buy-in or a cash-out, its one void.
LOCK_ROWS = frozenset({"jackpots_jackpotmeter", "accounting_dropbox", "accounting_buyin", "compliance_cashout"})


def _role_problems(cursor, role: str, *, of_owner: bool = True) -> list[str]:
    cursor.execute("SELECT rolsuper, rolreplication, rolbypassrls, rolcreaterole, rolcreatedb "
                   "FROM pg_roles WHERE rolname = %s", [role])
    row = cursor.fetchone()
    if row is None:
        return [f'role "{role}" does not exist (create it: createuser --pwprompt {role})']
    names = ("SUPERUSER", "REPLICATION", "BYPASSRLS", "CREATEROLE", "CREATEDB")
    problems = [f'role "{role}" has {name}' for name, on in zip(names, row, strict=True) if on]
    cursor.execute("SELECT count(*) FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner "
                   "JOIN pg_namespace n ON n.oid = c.relnamespace "
                   "WHERE r.rolname = %s AND n.nspname = 'public'", [role])
    owned = cursor.fetchone()[0]
    if owned:
        problems.append(f'role "{role}" owns {owned} relations in schema public (the owner role must)')
    if not of_owner:
        return problems
    cursor.execute("SELECT pg_has_role(%s, current_user, 'MEMBER')", [role])
    if cursor.fetchone()[0]:
        problems.append(f'role "{role}" is a member of the owner role')
    return problems


def _tables_guarded_by(cursor, function: str) -> list[str]:
    cursor.execute("SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                   "JOIN pg_proc p ON p.oid = t.tgfoid JOIN pg_namespace n ON n.oid = c.relnamespace "
                   "WHERE p.proname = %s AND n.nspname = 'public' AND NOT t.tgisinternal ORDER BY 1", [function])
    return [r[0] for r in cursor.fetchall()]


def grant_app_role(role: str, *, using: str = "default") -> list[str]:
    """Give ``role`` exactly what the app needs on this database (run as the owner); the
    statements run. Refuses a role that could get around the guards."""
    connection = connections[using]
    with connection.cursor() as cursor:
        problems = _role_problems(cursor, role)
        if problems:
            raise ValueError("; ".join(problems))
        r = sql.Identifier(role)
        statements = [
            sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(connection.settings_dict["NAME"]), r),
            sql.SQL("REVOKE CREATE ON SCHEMA public FROM PUBLIC, {}").format(r),
            sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(r),
            sql.SQL("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {}").format(r),
            sql.SQL(f"GRANT {WRITES} ON ALL TABLES IN SCHEMA public TO {{}}").format(r),
            sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {}").format(r),
            sql.SQL(f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT {WRITES} ON TABLES TO {{}}").format(r),
            sql.SQL("ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO {}").format(r),
        ]
        for table in _tables_guarded_by(cursor, "casino_refuse_change"):
            refused = "DELETE" if table in LOCK_ROWS else "UPDATE, DELETE"
            statements.append(sql.SQL(f"REVOKE {refused} ON {{}} FROM {{}}").format(sql.Identifier(table), r))
        for table in _tables_guarded_by(cursor, "casino_guard_change"):
            statements.append(sql.SQL("REVOKE DELETE ON {} FROM {}").format(sql.Identifier(table), r))
        done = []
        for statement in statements:
            text = statement.as_string(cursor.connection)
            cursor.execute(text)
            done.append(text)
        return done


@checks.register(checks.Tags.database, deploy=True)
def app_role_owns_nothing(app_configs=None, databases=None, **kwargs):
    """``check --deploy``: in production the app must not connect as the tables' owner, on the
    primary nor on the read replica (DATABASE_REPLICA_URL) if there is one."""
    if not settings.PRODUCTION:
        return []
    found = []
    for alias in ("default", "replica"):
        if alias not in settings.DATABASES or connections[alias].vendor != "postgresql":
            continue
        name = "DATABASE_URL" if alias == "default" else "DATABASE_REPLICA_URL"
        try:
            with connections[alias].cursor() as cursor:
                cursor.execute("SELECT current_user")
                problems = _role_problems(cursor, cursor.fetchone()[0], of_owner=False)
        except Exception as exc:  # noqa: BLE001 - an unreachable database is reported by its own checks
            found.append(checks.Warning(f"{name}: could not check the database role: {exc}", id="casino.W101"))
            continue
        found += [checks.Error(f"{name}: {p}: the app must connect as a role that owns nothing and is no "
                               "superuser (deploy/README.md)", id="casino.E101") for p in problems]
    return found
