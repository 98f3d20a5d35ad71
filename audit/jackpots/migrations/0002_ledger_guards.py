"""PostgreSQL guarantees for the jackpot ledger.

* Every ledger transaction's legs sum to zero and it has at least two legs: a constraint
  trigger, DEFERRABLE INITIALLY DEFERRED, so the legs of one posting may be inserted one by
  one and are checked together at COMMIT.
* Legs, transactions and every history row are append-only; awards, adjustments and line
  configurations change only inside the jackpot services (casino.audit_guard).
"""

from django.db import migrations

from casino.audit_guard import install_guards

APPEND_ONLY = (
    "jackpots_ledgerleg",
    "jackpots_ledgertransaction",
    "jackpots_historicaljackpotbank",
    "jackpots_historicaljackpotbanktable",
    "jackpots_historicaljackpotlineconfig",
    "jackpots_historicaljackpotaward",
    "jackpots_historicaljackpotadjustment",
)
GUARDED = ("jackpots_jackpotaward", "jackpots_jackpotadjustment", "jackpots_jackpotlineconfig")

BALANCED = """
CREATE OR REPLACE FUNCTION jackpots_check_balanced() RETURNS trigger AS $$
DECLARE
  txn bigint;
  total numeric;
  legs integer;
BEGIN
  IF TG_TABLE_NAME = 'jackpots_ledgertransaction' THEN
    txn := NEW.id;
  ELSE
    txn := NEW.transaction_id;
  END IF;
  SELECT coalesce(sum(amount), 0), count(*) INTO total, legs
    FROM jackpots_ledgerleg WHERE transaction_id = txn;
  IF total <> 0 OR legs < 2 THEN
    RAISE EXCEPTION 'ledger transaction % is unbalanced: % legs summing to %', txn, legs, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS jackpots_leg_balanced ON jackpots_ledgerleg;
CREATE CONSTRAINT TRIGGER jackpots_leg_balanced AFTER INSERT ON jackpots_ledgerleg
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION jackpots_check_balanced();
DROP TRIGGER IF EXISTS jackpots_transaction_balanced ON jackpots_ledgertransaction;
CREATE CONSTRAINT TRIGGER jackpots_transaction_balanced AFTER INSERT ON jackpots_ledgertransaction
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION jackpots_check_balanced();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    install_guards(schema_editor, append_only=APPEND_ONLY, guarded=GUARDED)
    schema_editor.execute(BALANCED, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP TRIGGER IF EXISTS jackpots_leg_balanced ON jackpots_ledgerleg", params=None)
    schema_editor.execute(
        "DROP TRIGGER IF EXISTS jackpots_transaction_balanced ON jackpots_ledgertransaction", params=None)
    for table in APPEND_ONLY + GUARDED:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_guard ON {table}", params=None)


class Migration(migrations.Migration):
    dependencies = [("jackpots", "0001_banks_meters_ledger")]

    operations = [migrations.RunPython(forwards, backwards)]
