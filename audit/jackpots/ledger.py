"""Double-entry posting and balances.

Legs are debit-positive (cash and expenses grow with debits; liabilities and revenue with
credits, so their balance is minus the sum of their legs). :func:`ledger_post` refuses an
unbalanced posting before it reaches the database; on PostgreSQL a deferred constraint
trigger checks it again at COMMIT (migration 0002).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal

from django.db.models import Q
from django.utils import timezone

from audit.jackpots import rollup
from audit.jackpots.models import JackpotBank, LedgerAccount, LedgerLeg, LedgerTransaction
from audit.jackpots.rules import ZERO, apply
from casino.double_entry import LedgerUnbalanced, legs_merged  # noqa: F401 - LedgerUnbalanced: callers catch it here
from casino.gaming_day import gaming_day_of
from casino.money import money_sum
from tables import chain
from tables.games.settings.paytables import JACKPOT_LINES
from tables.models import ChainLink

BANK_KINDS = (
    LedgerAccount.PAYABLE,
    LedgerAccount.CASH,
    LedgerAccount.TAX_REVENUE,
    LedgerAccount.HOUSE_FUNDING,
    LedgerAccount.RELEASED,
)
LINE_KINDS = (LedgerAccount.METER, LedgerAccount.RESERVE)


def bank_accounts_ensure(bank: JackpotBank) -> None:
    wanted = [(kind, "") for kind in BANK_KINDS] + [
        (kind, line) for line in JACKPOT_LINES for kind in LINE_KINDS
    ]
    have = set(LedgerAccount.objects.filter(bank=bank).values_list("kind", "line"))
    LedgerAccount.objects.bulk_create(
        [LedgerAccount(bank=bank, kind=k, line=ln) for k, ln in wanted if (k, ln) not in have]
    )


class Book:
    """A bank's accounts and their balances inside one posting transaction.

    Load it after the bank's meters are locked; every posting through it updates the
    in-memory balances, so later legs of the same service call see earlier ones.
    """

    def __init__(self, bank: JackpotBank):
        self.bank = bank
        self.chain_head: str | None = None  # read at the first posting, under the meters' locks
        self.accounts = {(a.kind, a.line): a for a in LedgerAccount.objects.filter(bank=bank)}
        self.balance: dict[tuple[str, str], Decimal] = defaultdict(lambda: ZERO)
        raw = balances_by_account(bank, kinds={a.pk: a.kind for a in self.accounts.values()})
        for key, account in self.accounts.items():
            self.balance[key] = raw.get(account.pk, ZERO)
        self._last_day: date | None | bool = False  # the rollup's latest day, read at the first posting

    def account(self, kind: str, line: str = "") -> LedgerAccount:
        return self.accounts[(kind, line)]

    def post(
        self,
        *,
        kind: str,
        legs: list[tuple[tuple[str, str], Decimal]],
        memo: str,
        author,
        at,
        line: str = "",
        round=None,
        revision=None,
        contribution_base=ZERO,  # noqa: A002
        reverses: LedgerTransaction | None = None,
    ) -> LedgerTransaction | None:
        """Post ``legs`` ((kind, line) -> debit-positive amount). Zero legs are dropped; a
        posting with nothing left is not written. Returns the transaction."""
        merged = legs_merged(kind, legs)
        if not merged:
            return None
        at = at or timezone.now()
        casino = self.bank.casino
        txn = LedgerTransaction.objects.create(
            bank=self.bank,
            kind=kind,
            created_at=at,
            gaming_day=gaming_day_of(at, casino.time_zone, casino.gaming_day_start_hour),
            memo=memo[:300],
            line=line,
            created_by=author,
            round=round,
            revision=revision,
            reverses=reverses,
            contribution_base=contribution_base,
        )
        LedgerLeg.objects.bulk_create(
            [
                LedgerLeg(transaction=txn, account=self.accounts[k], amount=v)
                for k, v in merged.items()
            ]
        )
        name = chain.bank_chain(self.bank.pk)
        if self.chain_head is None:
            self.chain_head = chain.chain_head(name)
        legs = [(self.accounts[k].pk, v) for k, v in merged.items()]
        self.chain_head = chain.append(
            name, self.chain_head, [(ChainLink.LEDGER, txn.pk, chain.ledger_text(txn, legs), txn.created_at)]
        )
        self._rollup(txn, merged, contribution_base)
        apply(self.balance, merged.items())
        return txn

    def _rollup(self, txn: LedgerTransaction, merged, contribution_base) -> None:
        """The daily balance rollup, in this transaction (audit/jackpots/rollup.py)."""
        if self._last_day is False:
            self._last_day = rollup.last_day(self.bank.pk)
        rows = [(self.accounts[k].pk, txn.kind, v) for k, v in merged.items()]
        if contribution_base and txn.kind == LedgerTransaction.TAX:  # the base the reports sum is the tax's
            rows.append((self.accounts[(LedgerAccount.CASH, "")].pk, rollup.BASE, contribution_base))
        day = txn.gaming_day
        rollup.rollup_add(bank_id=self.bank.pk, day=day, rows=rows,
                          later=self._last_day is not None and day < self._last_day)
        if self._last_day is None or day > self._last_day:
            self._last_day = day

    def legs_of(self, txn: LedgerTransaction) -> dict[tuple[str, str], Decimal]:
        by_pk = {a.pk: key for key, a in self.accounts.items()}
        return {by_pk[leg.account_id]: leg.amount for leg in txn.legs.all()}

    def reverse(
        self, txn: LedgerTransaction, *, author, at, memo: str, legs=None
    ) -> LedgerTransaction | None:
        """A new transaction of the same kind: ``legs`` (every leg negated by default)."""
        if legs is None:
            legs = [(key, -amount) for key, amount in self.legs_of(txn).items()]
        return self.post(
            kind=txn.kind,
            legs=legs,
            memo=f"reversal of #{txn.pk}: {memo}",
            author=author,
            at=at,
            line=txn.line,
            round=txn.round,
            revision=txn.revision,
            reverses=txn,
            contribution_base=-txn.contribution_base,
        )


def balances_by_account(
    bank: JackpotBank, *, at=None, before_day=None, upto_day=None, kinds: dict[int, str] | None = None
) -> dict[int, Decimal]:
    """Natural-sign balance of each account id: as of ``at`` (inclusive), or over the
    transactions of gaming days before ``before_day`` / up to ``upto_day`` (inclusive).
    ``kinds``: the bank's account id -> kind, when the caller has them already."""
    return bank_balances([bank], at=at, before_day=before_day, upto_day=upto_day, kinds=kinds)[0][bank.pk]


def bank_balances(
    banks, *, at=None, before_day=None, upto_day=None, kinds: dict[int, str] | None = None
) -> tuple[dict[int, dict[int, Decimal]], dict[int, Decimal]]:
    """Per bank id: the natural-sign balance of each account id (as :func:`balances_by_account`)
    and the contribution base, for any number of banks in a fixed number of queries, from the
    daily rollup (never a sum over the history's legs).

    As of ``at``: the rollup through the gaming day before ``at``'s, plus the legs of ``at``'s
    gaming day posted at or before ``at`` (a posting's gaming day is that of its time, so no
    posting of an earlier day is later than ``at``)."""
    banks = list(banks)
    if kinds is None:
        kinds = dict(LedgerAccount.objects.filter(bank__in=banks).values_list("pk", "kind"))
    upto: dict[int, date | None] = {}
    today: dict[int, date] = {}
    for bank in banks:
        if at is not None:
            casino = bank.casino
            today[bank.pk] = gaming_day_of(at, casino.time_zone, casino.gaming_day_start_hour)
            upto[bank.pk] = today[bank.pk] - timedelta(days=1)
        else:
            day = None if before_day is None else before_day - timedelta(days=1)
            if upto_day is not None:
                day = upto_day if day is None else min(day, upto_day)
            upto[bank.pk] = day
    sums = rollup.closings(upto)
    if today:
        _add_day_so_far(sums, banks, today, at)
    balances = {bank.pk: rollup.natural(kinds, sums.get(bank.pk, {})) for bank in banks}
    bases = {bank.pk: rollup.base_of(sums.get(bank.pk, {})) for bank in banks}
    return balances, bases


def _add_day_so_far(sums, banks, today: dict[int, date], at) -> None:
    """Add to ``sums`` the legs and the base posted on each bank's ``today`` up to ``at``."""
    by_day = defaultdict(list)
    for bank in banks:
        by_day[today[bank.pk]].append(bank.pk)
    where = Q(*(Q(transaction__bank_id__in=pks, transaction__gaming_day=day) for day, pks in by_day.items()),
              _connector=Q.OR)
    legs = LedgerLeg.objects.filter(where, transaction__created_at__lte=at).values_list(
        "transaction__bank_id", "account_id", "transaction__kind").annotate(s=money_sum("amount"))
    for bank_id, account, kind, total in legs:
        by_kind = sums[bank_id].setdefault(account, {})
        by_kind[kind] = by_kind.get(kind, ZERO) + total
    base = Q(*(Q(bank_id__in=pks, gaming_day=day) for day, pks in by_day.items()), _connector=Q.OR)
    cash = dict(LedgerAccount.objects.filter(bank__in=list(today), kind=LedgerAccount.CASH).values_list(
        "bank_id", "pk"))
    for bank_id, total in LedgerTransaction.objects.filter(
            base, kind=LedgerTransaction.TAX, created_at__lte=at).values_list("bank_id").annotate(
            s=money_sum("contribution_base")):
        if total:
            by_kind = sums[bank_id].setdefault(cash[bank_id], {})
            by_kind[rollup.BASE] = by_kind.get(rollup.BASE, ZERO) + total
