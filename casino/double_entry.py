"""What every double-entry ledger of the project shares (the jackpot ledger, table accounting).

Legs are debit-positive and a transaction's legs sum to zero. :func:`legs_merged` refuses an
unbalanced or fractional-cent posting before it reaches the database; on PostgreSQL
:func:`ledger_guards_sql` installs the same rule as a constraint trigger checked at COMMIT
(so the legs of one posting may be inserted one by one), and closes a transaction to new
legs once the database transaction that wrote it has ended.
"""

# ruff: noqa: S608 - the SQL is built from table names the migrations pass, never from input

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from decimal import Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


class LedgerUnbalanced(Exception):  # noqa: N818 - a programming error, never user input
    pass


def legs_merged(kind: str, legs: Iterable[tuple[Hashable, Decimal]]) -> dict[Hashable, Decimal]:
    """Sum the legs per key and drop the zero ones; refuse amounts that are not whole cents
    and legs that do not balance."""
    merged: dict[Hashable, Decimal] = defaultdict(lambda: ZERO)
    for key, amount in legs:
        amount = Decimal(amount)
        if amount != amount.quantize(CENT):
            raise LedgerUnbalanced(f"{kind}: leg {key} of {amount} is not whole cents")
        merged[key] += amount
    merged = {k: v for k, v in merged.items() if v != 0}
    total = sum(merged.values(), ZERO)
    if total != 0:
        raise LedgerUnbalanced(f"{kind}: legs sum to {total}, not zero: {merged}")
    return merged


def ledger_guards_sql(prefix: str, *, transaction_table: str, leg_table: str) -> str:
    """PostgreSQL: both guards below. Function and trigger names start ``prefix``."""
    return (balanced_sql(prefix, transaction_table=transaction_table, leg_table=leg_table)
            + closed_transaction_sql(prefix, transaction_table=transaction_table, leg_table=leg_table))


def balanced_sql(prefix: str, *, transaction_table: str, leg_table: str) -> str:
    """Every transaction has at least two legs summing to zero: a constraint trigger,
    DEFERRABLE INITIALLY DEFERRED, so the legs of one posting are checked together at COMMIT."""
    return f"""
CREATE OR REPLACE FUNCTION {prefix}_check_balanced() RETURNS trigger AS $$
DECLARE
  txn bigint;
  total numeric;
  legs integer;
BEGIN
  IF TG_TABLE_NAME = '{transaction_table}' THEN
    txn := NEW.id;
  ELSE
    txn := NEW.transaction_id;
  END IF;
  SELECT coalesce(sum(amount), 0), count(*) INTO total, legs
    FROM {leg_table} WHERE transaction_id = txn;
  IF total <> 0 OR legs < 2 THEN
    RAISE EXCEPTION 'ledger transaction % is unbalanced: % legs summing to %', txn, legs, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS {prefix}_leg_balanced ON {leg_table};
CREATE CONSTRAINT TRIGGER {prefix}_leg_balanced AFTER INSERT ON {leg_table}
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION {prefix}_check_balanced();
DROP TRIGGER IF EXISTS {prefix}_transaction_balanced ON {transaction_table};
CREATE CONSTRAINT TRIGGER {prefix}_transaction_balanced AFTER INSERT ON {transaction_table}
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION {prefix}_check_balanced();
"""


def closed_transaction_sql(prefix: str, *, transaction_table: str, leg_table: str) -> str:
    """A leg may only join a transaction written by the same database transaction (or one of
    its savepoints): the transaction row's xmin must still be in progress, and only our own
    in-progress rows are visible. Balanced legs added to an old transaction are refused."""
    return f"""
CREATE OR REPLACE FUNCTION {prefix}_leg_same_transaction() RETURNS trigger AS $$
DECLARE
  row_xmin xid;
  cur bigint := pg_current_xact_id()::text::bigint;
  full_xid bigint;
BEGIN
  SELECT xmin INTO row_xmin FROM {transaction_table} WHERE id = NEW.transaction_id;
  IF FOUND THEN
    -- xmin is the low 32 bits: give it the current epoch (the previous one if it is more than
    -- 2^31 ahead: our savepoints' xids are a little above our own, never that far).
    full_xid := (cur - (cur % 4294967296)) + row_xmin::text::bigint;
    IF full_xid > cur + 2147483648 THEN
      full_xid := full_xid - 4294967296;
    END IF;
    IF pg_xact_status(full_xid::text::xid8) IS NOT DISTINCT FROM 'in progress' THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'ledger transaction % is closed: legs are written with their transaction only',
    NEW.transaction_id USING ERRCODE = 'insufficient_privilege';
END $$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS {prefix}_leg_closed ON {leg_table};
CREATE TRIGGER {prefix}_leg_closed BEFORE INSERT ON {leg_table}
  FOR EACH ROW EXECUTE FUNCTION {prefix}_leg_same_transaction();
"""


def ledger_guards_drop_sql(prefix: str, *, transaction_table: str, leg_table: str) -> str:
    return (f"DROP TRIGGER IF EXISTS {prefix}_leg_balanced ON {leg_table};"
            f"DROP TRIGGER IF EXISTS {prefix}_transaction_balanced ON {transaction_table};"
            f"DROP TRIGGER IF EXISTS {prefix}_leg_closed ON {leg_table};")
