"""Reads: the meter board, balances as of any moment, the ledger and the liability report.

Every figure is a sum of ledger legs; nothing here reads a stored running total.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from django.db.models import OuterRef, Subquery

from audit.jackpots import rollup
from audit.jackpots.ledger import balances_by_account, bank_balances
from audit.jackpots.models import (
    JackpotAward,
    JackpotBank,
    JackpotBankTable,
    JackpotLineConfig,
    JackpotMeter,
    LedgerAccount,
    LedgerTransaction,
)
from audit.jackpots.rules import CENT, ZERO
from tables.games.settings.paytables import JACKPOT_LINE_NAMES, JACKPOT_LINES

MOVEMENTS = ("contribution", "seed", "reset", "hit", "payment", "adjustment")
M, R, PAYABLE = LedgerAccount.METER, LedgerAccount.RESERVE, LedgerAccount.PAYABLE


@dataclass
class LineState:
    line: str
    name: str
    progressive: bool
    config: JackpotLineConfig | None
    pending: JackpotLineConfig | None
    meter: Decimal
    reserve: Decimal
    last_hit: JackpotAward | None = None

    @property
    def liability(self) -> Decimal:
        return self.meter + self.reserve


@dataclass
class BankState:
    bank: JackpotBank
    at: object
    lines: list[LineState]
    payable: Decimal
    contribution_base: Decimal
    tables: list[str] = field(default_factory=list)

    @property
    def total_liability(self) -> Decimal:
        return sum((ln.liability for ln in self.lines), ZERO) + self.payable


def bank_state(bank: JackpotBank, *, at=None) -> BankState:
    """Meters, reserves, payable and the contribution base of ``bank`` now or as of ``at``."""
    return bank_states([bank], at=at)[0]


def bank_states(banks, *, at=None) -> list[BankState]:
    """:func:`bank_state` of each of ``banks``, in a fixed number of queries whatever the number
    of banks and the length of their history (balances from the daily rollup, the last hit of
    each line by one index probe)."""
    banks = list(banks)
    pks = [b.pk for b in banks]
    accounts = {(a.bank_id, a.kind, a.line): a.pk for a in LedgerAccount.objects.filter(bank__in=pks)}
    balances, bases = bank_balances(banks, at=at, kinds={pk: k for (_b, k, _l), pk in accounts.items()})
    configs = JackpotLineConfig.objects.filter(bank__in=pks)
    if at is not None:
        configs = configs.filter(created_at__lte=at)
    active, pending = defaultdict(dict), defaultdict(dict)
    for config in configs.order_by("number"):
        activated = config.activated_at is not None and (at is None or config.activated_at <= at)
        if activated:
            active[config.bank_id][config.line] = config
        elif config.status == JackpotLineConfig.PENDING or (
            at is not None and config.activated_at is not None
        ):
            pending[config.bank_id][config.line] = config
    latest = JackpotAward.objects.filter(bank=OuterRef("bank"), line=OuterRef("line")).exclude(
        status=JackpotAward.REVERSED)
    if at is not None:
        latest = latest.filter(won_at__lte=at)
    hits = JackpotMeter.objects.filter(bank__in=pks).annotate(
        hit=Subquery(latest.order_by("-won_at", "-pk").values("pk")[:1])).values_list("hit", flat=True)
    last = {(a.bank_id, a.line): a for a in JackpotAward.objects.filter(
        pk__in=[h for h in hits if h is not None]).select_related("table")}
    tables = defaultdict(list)
    for bank_id, label in JackpotBankTable.objects.filter(bank__in=pks).order_by("table__label").values_list(
            "bank_id", "table__label"):
        tables[bank_id].append(label)
    states = []
    for bank in banks:
        balance = balances[bank.pk]
        lines = []
        for line in JACKPOT_LINES:
            config = active[bank.pk].get(line)
            waiting = pending[bank.pk].get(line)
            lines.append(
                LineState(
                    line=line,
                    name=JACKPOT_LINE_NAMES[line],
                    progressive=bool(config and config.progressive),
                    config=config,
                    pending=waiting if waiting is not config else None,
                    meter=balance.get(accounts[(bank.pk, M, line)], ZERO),
                    reserve=balance.get(accounts[(bank.pk, R, line)], ZERO),
                    last_hit=last.get((bank.pk, line)),
                )
            )
        states.append(BankState(
            bank=bank,
            at=at,
            lines=lines,
            payable=balance.get(accounts[(bank.pk, PAYABLE, "")], ZERO),
            contribution_base=bases[bank.pk],
            tables=tables[bank.pk],
        ))
    return states


def meter_board(*, casino=None, at=None, banks=None) -> list[BankState]:
    banks = (JackpotBank.objects.all() if banks is None else banks).select_related("casino").order_by(
        "casino__name", "name")
    if casino is not None:
        banks = banks.filter(casino=casino)
    return bank_states(banks, at=at)


def ledger_transactions(
    *, bank: JackpotBank, day_from: date | None = None, day_to: date | None = None
):
    qs = (
        LedgerTransaction.objects.filter(bank=bank)
        .select_related("created_by", "round__table", "reverses")
        .prefetch_related("legs__account")
        .order_by("created_at", "pk")
    )
    if day_from is not None:
        qs = qs.filter(gaming_day__gte=day_from)
    if day_to is not None:
        qs = qs.filter(gaming_day__lte=day_to)
    return qs


@dataclass
class ReportRow:
    bank: str
    line: str  # a jackpot line, "payable" or "total"
    opening: Decimal = ZERO
    movements: dict[str, Decimal] = field(default_factory=lambda: dict.fromkeys(MOVEMENTS, ZERO))
    closing: Decimal = ZERO

    def as_dict(self) -> dict:
        return {
            "bank": self.bank,
            "line": self.line,
            "opening": str(self.opening),
            **{k: str(v) for k, v in self.movements.items()},
            "closing": str(self.closing),
        }


@dataclass
class LiabilityReport:
    day_from: date
    day_to: date
    rows: list[ReportRow]
    banks: list[dict]

    CSV_COLUMNS = ("bank", "line", "opening", *MOVEMENTS, "closing")


def _period(moved: dict, account: LedgerAccount, *kinds: str, sign: int = 1) -> Decimal:
    return sum((moved.get((account.pk, k), ZERO) for k in kinds), ZERO) * sign


def liability_report(*, day_from: date, day_to: date, banks=None) -> LiabilityReport:
    """Opening liability, its movements by kind and the closing liability per line (meter +
    hidden reserve) and for awards payable, per bank, over gaming days [day_from, day_to].

    Liabilities are credit-normal, so a movement is minus the sum of the period's legs.
    Closing = opening + every movement, and it equals the ledger balance at the end of
    ``day_to`` (both are sums of the same legs; the tests check it independently too).
    Every figure is a difference of two running sums of the daily rollup (through ``day_to``
    and through the day before ``day_from``): a fixed number of queries whatever the number of
    banks, the length of the period or of the history.
    """
    if banks is None:
        banks = JackpotBank.objects.select_related("casino").order_by("casino__name", "name")
    banks = list(banks)
    pks = [b.pk for b in banks]
    all_accounts = list(LedgerAccount.objects.filter(bank__in=pks))
    kinds = {a.pk: a.kind for a in all_accounts}
    before = rollup.closings(dict.fromkeys(pks, day_from - timedelta(days=1)))
    through = rollup.closings(dict.fromkeys(pks, day_to))
    rows: list[ReportRow] = []
    summaries = []
    for bank in banks:
        accounts = {(a.kind, a.line): a for a in all_accounts if a.bank_id == bank.pk}
        start, end = before.get(bank.pk, {}), through.get(bank.pk, {})
        opening, closing = rollup.natural(kinds, start), rollup.natural(kinds, end)
        moved = {
            (account, kind): (total - start.get(account, {}).get(kind, ZERO)).quantize(CENT)
            for account, sums in end.items() for kind, total in sums.items() if kind != rollup.BASE
        }
        total = ReportRow(bank.name, "total")
        groups = [(line, [accounts[(M, line)], accounts[(R, line)]]) for line in JACKPOT_LINES]
        groups.append(("payable", [accounts[(PAYABLE, "")]]))
        for label, group in groups:
            row = ReportRow(bank.name, label)
            for account in group:
                row.opening += opening.get(account.pk, ZERO)
                row.closing += closing.get(account.pk, ZERO)
                for kind in MOVEMENTS:
                    row.movements[kind] -= moved.get((account.pk, kind), ZERO)
            if (
                label != "payable"
                and row.opening == row.closing == 0
                and not any(row.movements.values())
            ):
                continue
            rows.append(row)
            total.opening += row.opening
            total.closing += row.closing
            for kind in MOVEMENTS:
                total.movements[kind] += row.movements[kind]
        rows.append(total)

        house = accounts[(LedgerAccount.HOUSE_FUNDING, "")]
        released = accounts[(LedgerAccount.RELEASED, "")]
        base = rollup.base_of(end) - rollup.base_of(start)
        summaries.append(
            {
                "bank": bank.name,
                "opening_liability": total.opening,
                "contribution_base": base,
                "contributions": total.movements["contribution"],
                "house_funding": _period(moved, house, "seed", "reset", "hit"),
                "payments": -total.movements["payment"],
                "approved_reductions": _period(moved, released, "adjustment", sign=-1) + 0,
                "approved_increases": _period(moved, house, "adjustment"),
                "closing_liability": total.closing,
            }
        )
    return LiabilityReport(day_from=day_from, day_to=day_to, rows=rows, banks=summaries)


def pending_awards(*, bank: JackpotBank | None = None):
    qs = JackpotAward.objects.filter(status=JackpotAward.PENDING).select_related(
        "table", "bank__casino", "round"
    )
    return qs.filter(bank=bank) if bank is not None else qs




def adjustment_balance(adjustment) -> Decimal:
    """What the account an adjustment moves (its bank's line meter or hidden reserve) holds now."""
    account = LedgerAccount.objects.filter(
        bank=adjustment.bank_id, kind=adjustment.target, line=adjustment.line
    ).first()
    return ZERO if account is None else balances_by_account(adjustment.bank).get(account.pk, ZERO)
