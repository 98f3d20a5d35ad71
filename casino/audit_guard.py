"""Append-only audit tables, enforced by PostgreSQL triggers.

Two kinds of guard (SQLite, the quick start, has neither; the services are the only
writers there):

* **append-only** tables refuse every UPDATE and DELETE (revisions, wagers, ledger legs,
  every history table, ...).
* **guarded** tables refuse DELETE, and an UPDATE may only make the moves their
  :data:`RULES` list: a status transition named there (with the columns that go with it),
  a counter, a column set once from NULL, a number that only grows. Everything else in the
  row must stay as it was.

The transaction-local flag ``casino.audit_write`` (set by :func:`allow_audit_write` in the
services that update guarded rows) is only a seatbelt against an accidental ORM save: any
session can set a custom setting, so the flag never widens what may change. What may
change is decided by the trigger, from the old and the new row, whoever asks. The app runs
as a role that owns no table (deploy/README.md), so it can neither drop these triggers nor
skip them (``ALTER TABLE ... DISABLE TRIGGER``, ``session_replication_role``, ``TRUNCATE``).
A data migration that must rewrite a guarded column runs as the owner and disables the
table's ``<table>_guard`` trigger inside its own transaction (``ALTER TABLE`` is
transactional), which no app connection can do.
"""

from __future__ import annotations

import json

from django.db import connection

# Guarded tables and what an UPDATE may change. Keys: "status" (the status column), "moves"
# ("from>to" transitions), "with" (columns that may change only together with a move),
# "editable" + "editable_in" (columns that may change while the status is one of these),
# "free" (counters derived from other rows), "once" (set once from NULL), "up" (only grows),
# "needs" (moves and editable columns that need a column set in the old row; see findings),
# "any_writer" (the rule alone holds: a writer need not be a service that called
# allow_audit_write; for a counter bumped on the recording path, where switching the guard off
# would leave every guarded row of the recording's transaction open).
RULES: dict[str, dict] = {
    # A player's name and loyalty number change (with the history's reason and author); the
    # identifier the rounds carry, the casino and who registered them never do.
    "players_player": {"free": ["name", "loyalty_number"]},
    "tables_round": {
        "status": "status", "moves": ["active>voided"],
        "with": ["void_reason", "voided_by_id", "voided_at"],
        "free": ["open_findings"], "up": ["revision"],
    },
    "audit_finding": {
        "status": "status",
        "moves": ["open>confirmed", "open>dismissed", "open>escalated", "open>superseded",
                  "escalated>confirmed", "escalated>dismissed",
                  # A reviewed finding sent back to surveillance (a correction or void of its
                  # round) is decided again: confirm keeps it, dismiss releases it.
                  "confirmed>dismissed", "confirmed>escalated"],
        "with": ["review_note", "reviewed_by_id", "reviewed_at", "reopened_at"],
        # A reviewed finding may be sent back (reopened_*) and, only once it has been, decided
        # again: a move out of a reviewed status or a new decision in the same one needs
        # reopened_at set in the old row. Each step is a history row with its own chain link,
        # so audit_verify names a step taken behind the services' back.
        "editable_in": ["confirmed", "escalated"],
        "editable": ["reopened_at", "reopened_reason", "review_note", "reviewed_by_id", "reviewed_at"],
        # (An escalated finding awaits its decision: escalated>confirmed/dismissed need nothing.)
        "needs": {"column": "reopened_at", "moves": ["confirmed>dismissed", "confirmed>escalated"],
                  "in": ["confirmed", "escalated"],
                  "editable": ["review_note", "reviewed_by_id", "reviewed_at"]},
    },
    "tables_tablesession": {"once": ["closed_at", "closed_by_id"]},
    "tables_dealerassignment": {"once": ["ended_at"]},
    "jackpots_jackpotaward": {
        "status": "status", "moves": ["pending>paid", "pending>reversed"],
        "with": ["paid_by_id", "paid_at", "payment_transaction_id", "w2g_reference", "winner_name",
                 "winner_id_reference", "federal_withholding"],
        # A pending award follows the round's corrections (amount, seat, revision).
        "editable_in": ["pending"],
        "editable": ["amount", "seat", "player", "wager", "w2g_required"],
        # Any award, a paid one too, follows its round to a newer revision when a correction
        # leaves it as it was (audit/jackpots/services.py refuses one that would change it).
        "up": ["revision_id"],
    },
    "jackpots_jackpotadjustment": {
        "status": "status", "moves": ["requested>approved", "requested>rejected"],
        "with": ["decided_by_id", "decided_at", "decision_note", "transaction_id"],
    },
    "jackpots_jackpotlineconfig": {
        "status": "status", "moves": ["pending>active", "pending>superseded", "active>superseded"],
        "with": ["activated_at", "activated_by_round_id", "ledger_position"],
    },
    # A slip series' counter: numbers are issued, never taken back (tables/accounting/serials.py).
    "accounting_serialcounter": {"up": ["last"]},
    # A table's round counter: a round's number is never given twice (tables.models.RoundCounter).
    "tables_roundcounter": {"up": ["last"], "any_writer": True},
    # An opener or closer never changes; its posting is linked once, right after it is written.
    "accounting_inventoryslip": {"once": ["transaction_id"]},
    # Fills and credits: requested > issued > received, or voided from requested or issued with
    # a second person; the void's first signature is written while the slip is open.
    "accounting_chipslip": {
        "status": "status", "moves": ["requested>issued", "issued>received", "requested>voided", "issued>voided"],
        "with": ["issued_by_id", "issued_at", "received_by_id", "received_at", "received_dealer_id",
                 "transaction_id", "voided_by_id", "voided_at"],
        "editable_in": ["requested", "issued"],
        "editable": ["void_reason", "void_requested_by_id", "void_requested_at"],
    },
    # A hold fluctuation investigated in writing (audit/fluctuations): its figures and drafted
    # explanation never change; the owner writes a conclusion (open > in review), a gaming manager
    # who did not write it signs it off or sends it back (in review > signed off / open).
    "fluctuations_investigation": {
        "status": "status", "moves": ["open>in_review", "in_review>signed_off", "in_review>open"],
        "with": ["conclusion", "concluded_by_id", "concluded_at", "review_note", "signed_off_by_id",
                 "signed_off_at"],
        "editable_in": ["open"], "editable": ["owner_id"],
    },
}

GUARD_FUNCTIONS = """
CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'Corrections are new revisions made by the services, with a reason and an author.';
END $$ LANGUAGE plpgsql;

-- The rule (casino/audit_guard.py RULES) is the trigger's argument, as JSON.
CREATE OR REPLACE FUNCTION casino_guard_change() RETURNS trigger AS $$
DECLARE
  rule jsonb := coalesce(TG_ARGV[0], '{}')::jsonb;
  old_row jsonb;
  new_row jsonb;
  col text;
  status_col text := rule->>'status';
  move text;
  needs jsonb := rule->'needs';
  unmet boolean := false;
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION '% rows are never deleted', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF coalesce(current_setting('casino.audit_write', true), '') <> 'on'
     AND NOT coalesce((rule->>'any_writer')::boolean, false) THEN
    RAISE EXCEPTION '% may only change through the audit services: % refused', TG_TABLE_NAME, TG_OP
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  old_row := to_jsonb(OLD);
  new_row := to_jsonb(NEW);
  IF needs IS NOT NULL THEN
    unmet := old_row->>(needs->>'column') IS NULL;
  END IF;
  FOR col IN SELECT jsonb_array_elements_text(coalesce(rule->'free', '[]')) LOOP
    old_row := old_row - col; new_row := new_row - col;
  END LOOP;
  FOR col IN SELECT jsonb_array_elements_text(coalesce(rule->'once', '[]')) LOOP
    IF old_row->col <> 'null'::jsonb AND old_row->col IS DISTINCT FROM new_row->col THEN
      RAISE EXCEPTION '%.% is set once and never changed', TG_TABLE_NAME, col USING ERRCODE = 'insufficient_privilege';
    END IF;
    old_row := old_row - col; new_row := new_row - col;
  END LOOP;
  FOR col IN SELECT jsonb_array_elements_text(coalesce(rule->'up', '[]')) LOOP
    IF (new_row->>col)::numeric < (old_row->>col)::numeric THEN
      RAISE EXCEPTION '%.% only grows', TG_TABLE_NAME, col USING ERRCODE = 'insufficient_privilege';
    END IF;
    old_row := old_row - col; new_row := new_row - col;
  END LOOP;
  IF rule->'editable_in' ? (old_row->>status_col) THEN
    FOR col IN SELECT jsonb_array_elements_text(coalesce(rule->'editable', '[]')) LOOP
      IF unmet AND coalesce(needs->'in' ? (old_row->>status_col), false)
         AND coalesce(needs->'editable' ? col, false) THEN
        CONTINUE;  -- not yet sent back: the decision stands as it is
      END IF;
      old_row := old_row - col; new_row := new_row - col;
    END LOOP;
  END IF;
  IF status_col IS NOT NULL AND old_row->status_col IS DISTINCT FROM new_row->status_col THEN
    move := (old_row->>status_col) || '>' || (new_row->>status_col);
    IF NOT coalesce(rule->'moves' ? move, false)
       OR (unmet AND coalesce(needs->'moves' ? move, false)) THEN
      RAISE EXCEPTION '%: status % refused', TG_TABLE_NAME, move USING ERRCODE = 'insufficient_privilege';
    END IF;
    old_row := old_row - status_col; new_row := new_row - status_col;
    FOR col IN SELECT jsonb_array_elements_text(coalesce(rule->'with', '[]')) LOOP
      old_row := old_row - col; new_row := new_row - col;
    END LOOP;
  END IF;
  IF old_row IS DISTINCT FROM new_row THEN
    RAISE EXCEPTION '%: % may not change', TG_TABLE_NAME,
      (SELECT string_agg(key, ', ') FROM jsonb_each(old_row) o
        WHERE o.value IS DISTINCT FROM new_row->o.key)
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
"""


def trigger_sql(table: str, function: str, argument: str | None = None) -> str:
    name = f"{table}_guard"
    args = "" if argument is None else "'" + argument.replace("'", "''") + "'"
    return (
        f"DROP TRIGGER IF EXISTS {name} ON {table};"
        f"CREATE TRIGGER {name} BEFORE UPDATE OR DELETE ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION {function}({args});"
    )


def install_guards(schema_editor, *, append_only: tuple[str, ...], guarded: tuple[str, ...]) -> None:
    """Migration helper: create the guard functions and triggers (PostgreSQL only). A guarded
    table's rule comes from :data:`RULES` (none: every column stays as it was)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(GUARD_FUNCTIONS, params=None)
    for table in append_only:
        schema_editor.execute(trigger_sql(table, "casino_refuse_change"), params=None)
    for table in guarded:
        rule = json.dumps(RULES.get(table, {}), sort_keys=True)
        schema_editor.execute(trigger_sql(table, "casino_guard_change", rule), params=None)


def allow_audit_write(conn=None) -> None:
    """Let this transaction update guarded audit rows (rounds, findings). Call inside atomic().

    ``conn``: the connection to allow it on, when not the default (a data migration's).
    """
    conn = conn or connection
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor:
            cursor.execute("SELECT set_config('casino.audit_write', 'on', true)")
