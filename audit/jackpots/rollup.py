"""The ledger's daily balance rollup (``LedgerDayBalance``): balances that cost the same whatever
the history (issue #20).

The legs stay the source of truth; the rollup is derived from them. Per account, transaction
kind and gaming day a row holds the day's sum of legs (``moved``, debit-positive) and the
running sum through that day (``closing``); kind :data:`BASE` on the bank's cash account holds
the tax postings' contribution base. So the balance of an account through a gaming day is, per
kind, the ``closing`` of its latest row on or before that day: an index probe, not a sum over
years of legs, and a period's movements by kind are two such probes.

Kept by :func:`rollup_add`, which :class:`audit.jackpots.ledger.Book` calls in the posting's own
transaction, under the bank's meter locks every posting holds (so a bank's rows have one writer
at a time). :func:`rollup_verify` compares the rows with the legs; :func:`rollup_rebuild`
recomputes them from the legs (the ``jackpots_rollup`` command, the migration that created the
table). A period's recomputation check verifies the rows of its days
(``audit/jackpots/reconcile.py``).

Two statements are written by hand: the upsert (Django's ``bulk_create`` cannot add to a row on
conflict) and the closings' read, which every posting makes (the ORM spent ten times the
database's time building its subqueries); everything else is the ORM.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from functools import lru_cache

from django.db import connections, router
from django.db.models import Case, DecimalField, F, Q, Value, When
from django.db.models.functions import Round

from audit.jackpots.models import (
    JackpotBank,
    JackpotMeter,
    LedgerAccount,
    LedgerDayBalance,
    LedgerLeg,
    LedgerTransaction,
)
from audit.jackpots.rules import CENT, ZERO
from casino.money import MONEY_SUM, cents, money_sum
from casino.prepared import PREPARED

#: The rollup's kind for the contribution base (on the cash account; it is not a leg).
BASE = "base"
KINDS = (*(k for k, _ in LedgerTransaction.KINDS), BASE)

_UPSERT = (
    "INSERT INTO {t} (bank_id, account_id, kind, gaming_day, moved, closing) VALUES {rows} "
    "ON CONFLICT (account_id, kind, gaming_day) DO UPDATE SET "
    "moved = ROUND({t}.moved + excluded.moved, 2), closing = ROUND({t}.closing + excluded.moved, 2)"
)
# A new day's row starts from the latest earlier row of its account and kind.
_ROW = (
    "(%s, %s, %s, %s, %s, ROUND(%s + COALESCE((SELECT p.closing FROM {t} p WHERE p.account_id = %s AND p.kind = %s "
    "AND p.gaming_day < %s ORDER BY p.gaming_day DESC LIMIT 1), 0), 2))"
)
# ROUND(..., 2): the sums are whole cents; on SQLite (a REAL column, float arithmetic) it stores the
# float a cents value is stored as, not 0.1 + 0.2's (so ``moved = 0`` holds for a day that cancels out).


def rollup_add(*, bank_id: int, day: date, rows: list[tuple[int, str, Decimal]], later: bool) -> None:
    """Add ``rows`` ((account id, kind, debit-positive amount)) to ``day``'s rows. ``later``: the
    bank has rows after ``day`` (a posting dated in the past), whose running sums move too."""
    if not rows:
        return
    db = router.db_for_write(LedgerDayBalance)
    table = connections[db].ops.quote_name(LedgerDayBalance._meta.db_table)
    params: list = []
    for account, kind, amount in rows:
        params += [bank_id, account, kind, day, amount, amount, account, kind, day]
    sql = _UPSERT.format(t=table, rows=", ".join([_ROW.format(t=table)] * len(rows)))
    with connections[db].cursor() as cursor:
        cursor.execute(sql, params)
    if later:
        LedgerDayBalance.objects.filter(
            Q(*(Q(account_id=a, kind=k) for a, k, _ in rows), _connector=Q.OR), gaming_day__gt=day
        ).update(closing=Round(F("closing") + Case(
            *(When(account_id=a, kind=k, then=Value(v)) for a, k, v in rows),
            default=Value(ZERO), output_field=DecimalField(**MONEY_SUM)), 2))


def last_day(bank_id: int) -> date | None:
    """The bank's latest gaming day with a rollup row."""
    row = LedgerDayBalance.objects.filter(bank_id=bank_id).order_by("-gaming_day").values("gaming_day").first()
    return row["gaming_day"] if row else None


def closings(banks_upto: dict[int, date | None]) -> dict[int, dict[int, dict[str, Decimal]]]:
    """Per bank id, account id and kind: the running sum of legs (debit-positive) through the
    bank's day (``None``: everything), read as each account's latest row of each kind on or
    before it: one index probe per account and kind, whatever the history. One query per
    distinct day (banks of one casino share theirs)."""
    by_day: dict[date | None, list[int]] = defaultdict(list)
    for bank_id, day in banks_upto.items():
        by_day[day].append(bank_id)
    out: dict[int, dict[int, dict[str, Decimal]]] = defaultdict(dict)
    db = router.db_for_read(LedgerDayBalance)
    connection = connections[db]
    for day, bank_ids in by_day.items():
        # The day is said once per kind's probe, before the banks.
        params = [connection.ops.adapt_datefield_value(day)] * len(KINDS) if day is not None else []
        params += bank_ids
        with connection.cursor() as cursor:
            cursor.execute(_closings_sql(connection.alias, len(bank_ids), day is not None), params)
            for account_id, bank_id, *sums in cursor.fetchall():
                out[bank_id][account_id] = {k: cents(v) for k, v in zip(KINDS, sums, strict=True) if v is not None}
    return out


@lru_cache(maxsize=64)
def _closings_sql(alias: str, banks: int, bounded: bool) -> str:
    """The statement of :func:`closings` for ``banks`` banks, with or without a last day: written
    once per shape (it is read at every posting; the ORM built its eight subqueries every time)."""
    q = connections[alias].ops.quote_name
    rows, accounts = q(LedgerDayBalance._meta.db_table), q(LedgerAccount._meta.db_table)
    upto = " AND d.gaming_day <= %s" if bounded else ""
    # The kinds are the model's own constants; the banks and the day are parameters.
    probes = ", ".join(
        f"(SELECT d.closing FROM {rows} d WHERE d.account_id = a.id AND d.kind = '{kind}'{upto} "  # noqa: S608
        "ORDER BY d.gaming_day DESC LIMIT 1)" for kind in KINDS)
    marks = ", ".join(["%s"] * banks)
    return f"{PREPARED}SELECT a.id, a.bank_id, {probes} FROM {accounts} a WHERE a.bank_id IN ({marks})"  # noqa: S608


def natural(kind_of: dict[int, str], by_kind: dict[int, dict[str, Decimal]]) -> dict[int, Decimal]:
    """Natural-sign balance of each account (liabilities and revenue are credit-normal) from
    its running sums by transaction kind; the contribution base is not a balance."""
    out = {}
    for account, sums in by_kind.items():
        total = sum((v for k, v in sums.items() if k != BASE), ZERO)
        if any(k != BASE for k in sums):
            sign = -1 if kind_of[account] in LedgerAccount.CREDIT_NORMAL else 1
            out[account] = (total * sign).quantize(CENT)
    return out


def base_of(by_kind: dict[int, dict[str, Decimal]]) -> Decimal:
    return sum((sums.get(BASE, ZERO) for sums in by_kind.values()), ZERO).quantize(CENT)


def _from_legs(banks, first: date | None = None, last: date | None = None):
    """{(account id, kind, day): amount} summed from the legs and the tax postings' base."""
    legs = LedgerLeg.objects.filter(transaction__bank__in=banks)
    txns = LedgerTransaction.objects.filter(bank__in=banks, kind=LedgerTransaction.TAX)
    if first is not None:
        legs = legs.filter(transaction__gaming_day__gte=first)
        txns = txns.filter(gaming_day__gte=first)
    if last is not None:
        legs = legs.filter(transaction__gaming_day__lte=last)
        txns = txns.filter(gaming_day__lte=last)
    out: dict[tuple[int, str, date], Decimal] = {}
    for account, kind, day, total in legs.values_list(
            "account_id", "transaction__kind", "transaction__gaming_day").annotate(s=money_sum("amount")):
        out[(account, kind, day)] = total
    cash = dict(LedgerAccount.objects.filter(bank__in=banks, kind=LedgerAccount.CASH).values_list("bank_id", "pk"))
    for bank, day, total in txns.values_list("bank_id", "gaming_day").annotate(s=money_sum("contribution_base")):
        if total:
            out[(cash[bank], BASE, day)] = total
    return out


def rollup_verify(bank: JackpotBank, *, first: date | None = None, last: date | None = None) -> list[str]:
    """Where the rollup of ``bank`` (over gaming days ``first``..``last``, else all) disagrees with
    the legs: a day's sum, or a running sum that is not the previous row's plus the day's."""
    return rollup_verify_banks([bank], first=first, last=last)[bank.pk]


def rollup_verify_banks(banks, *, first: date | None = None, last: date | None = None) -> dict[int, list[str]]:
    """:func:`rollup_verify` of each of ``banks`` (by id), in a fixed number of queries. A running
    sum starts from the row before ``first`` (the check of the days before vouches for it)."""
    pks = [b.pk for b in banks]
    want = _from_legs(pks, first, last)
    rows = LedgerDayBalance.objects.filter(bank__in=pks)
    if first is not None:
        rows = rows.filter(gaming_day__gte=first)
    if last is not None:
        rows = rows.filter(gaming_day__lte=last)
    have = {(r.account_id, r.kind, r.gaming_day): r for r in rows.order_by("gaming_day")}
    accounts = {a.pk: a for a in LedgerAccount.objects.filter(bank__in=pks)}
    problems: dict[int, list[str]] = {pk: [] for pk in pks}
    for key in sorted(set(want) | set(have), key=lambda k: (k[2], k[0], k[1])):
        account, kind, day = key
        moved = have[key].moved if key in have else ZERO
        if moved != want.get(key, ZERO):
            problems[accounts[account].bank_id].append(
                f"rollup {accounts[account]} {kind} {day}: moved {moved}, the legs sum to {want.get(key, ZERO)}")
    before = {} if first is None else closings(dict.fromkeys(pks, first - timedelta(days=1)))
    running: dict[tuple[int, str], Decimal] = {}
    for (account, kind, day), row in have.items():
        key = (account, kind)
        if key not in running:
            running[key] = before.get(row.bank_id, {}).get(account, {}).get(kind, ZERO)
        running[key] += row.moved
        if row.closing != running[key]:
            problems[row.bank_id].append(f"rollup {accounts[account]} {kind} {day}: closing {row.closing}, the "
                                         f"running sum is {running[key]}")
            running[key] = row.closing
    return problems


def rollup_rebuild(bank: JackpotBank) -> int:
    """Recompute ``bank``'s rollup from its legs (the repair path); returns the rows written.
    Call inside a transaction: it locks the bank's meters (in pk order, as every writer does) so
    no posting lands between the delete and the rebuild."""
    list(JackpotMeter.objects.select_for_update().filter(bank=bank).order_by("pk"))
    LedgerDayBalance.objects.filter(bank=bank).delete()
    running: dict[tuple[int, str], Decimal] = defaultdict(lambda: ZERO)
    rows = []
    for (account, kind, day), moved in sorted(_from_legs([bank.pk]).items(), key=lambda kv: kv[0][2]):
        running[(account, kind)] += moved
        rows.append(LedgerDayBalance(bank=bank, account_id=account, kind=kind, gaming_day=day, moved=moved,
                                     closing=running[(account, kind)]))
    LedgerDayBalance.objects.bulk_create(rows, batch_size=2000)
    return len(rows)


def day_before(day: date) -> date:
    return day - timedelta(days=1)
