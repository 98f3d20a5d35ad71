"""Recompute every meter from the recorded rounds and compare with the ledger.

The replay reads no amount from the ledger. It walks the bank's ledger transactions in
the order they were posted (ids handed out under the meter lock) and computes each one's
legs again with the posting rules of rules.py, from what the ledger was posted from: the
round revision's stored wagers (tax, wins), the award, the approved adjustment, the line
configuration in effect at that point (each version takes effect at its
``ledger_position``). A reversal is recomputed from the replayed legs of what it
reverses, by the same reversal rule the services use, at the moment it was posted: so a
correction or a void is replayed where it happened, not where its round was first
recorded, and the comparison is exact.

Then it checks the rounds against the postings: every active round at the bank's tables
has its current revision's tax posted and standing (and nothing of an older revision), a
voided round has nothing standing, the standing awards are the current revision's wins,
and no meter is below its reset value. Any difference per account (meters, reserves,
payable, cash, tax revenue, house funding, released) or in the contribution base is
reported, as is an award that is not what the replayed meter held.

A period's check (``day_from``/``day_to``, issue #20) replays only the transactions posted on
those gaming days, starting from what the ledger held before the first of them (earlier
periods' checks vouch for that), and checks the rounds of those gaming days; it reads the
rounds, revisions and wagers of those days by their own ``gaming_day`` (partition pruning),
never years of them. Over the whole history it gives exactly the figures of the full replay.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import NamedTuple

from django.db.models import Max, Min, Q

from audit.jackpots import rollup
from audit.jackpots.ledger import ZERO, balances_by_account
from audit.jackpots.models import (
    JackpotAdjustment,
    JackpotAward,
    JackpotBank,
    JackpotBankTable,
    JackpotLineConfig,
    LedgerAccount,
    LedgerLeg,
    LedgerTransaction,
)
from audit.jackpots.rules import (
    adjustment_legs,
    apply,
    contribution_legs,
    floor_of,
    hit_legs,
    payment_legs,
    reversal_legs,
    tax_legs,
    top_up_legs,
)
from audit.jackpots.services import JACKPOT_WAGER, TAX_WAGER
from casino.money import money_sum
from tables.games.settings.paytables import JACKPOT_LINES
from tables.models import Round, RoundRevision, Wager

#: The longest period one check replays (rounds are read raw; longer spans are checked a
#: period at a time).
MAX_CHECK_DAYS = 31

M, R, P = LedgerAccount.METER, LedgerAccount.RESERVE, LedgerAccount.PAYABLE
T = LedgerTransaction


@dataclass
class Recomputation:
    bank: JackpotBank
    expected: dict[tuple[str, str], Decimal]
    ledger: dict[tuple[str, str], Decimal]
    expected_base: Decimal
    ledger_base: Decimal
    rounds: int
    award_mismatches: list[str] = field(default_factory=list)
    round_mismatches: list[str] = field(default_factory=list)
    #: Where the daily balance rollup the pages read disagrees with the legs (audit/jackpots/rollup.py).
    rollup_mismatches: list[str] = field(default_factory=list)

    @property
    def differences(self) -> list[dict]:
        out = []
        keys = sorted(set(self.expected) | set(self.ledger))
        for key in keys:
            exp, led = self.expected.get(key, ZERO), self.ledger.get(key, ZERO)
            if exp != led:
                out.append(
                    {
                        "account": key[0],
                        "line": key[1],
                        "recomputed": str(exp),
                        "ledger": str(led),
                        "difference": str(led - exp),
                    }
                )
        if self.expected_base != self.ledger_base:
            out.append(
                {
                    "account": "contribution_base",
                    "line": "",
                    "recomputed": str(self.expected_base),
                    "ledger": str(self.ledger_base),
                    "difference": str(self.ledger_base - self.expected_base),
                }
            )
        return out

    @property
    def ok(self) -> bool:
        return (not self.differences and not self.award_mismatches and not self.round_mismatches
                and not self.rollup_mismatches)


def _merged(legs) -> dict[tuple[str, str], Decimal]:
    out: dict[tuple[str, str], Decimal] = defaultdict(lambda: ZERO)
    for key, amount in legs:
        out[key] += amount
    return {k: v for k, v in out.items() if v != 0}


class _Revisions:
    """Tax and wins of every revision of the rounds at the bank's tables (one query), or
    of a period's rounds there and of the other rounds ``also`` names."""

    def __init__(self, table_ids, period: tuple[date, date] | None = None, also=(), within=None):
        self.tax: dict[int, Decimal] = defaultdict(lambda: ZERO)
        self.wins: dict[int, list[tuple[str, int, Decimal]]] = defaultdict(list)
        kinds = (TAX_WAGER, JACKPOT_WAGER)
        if period is None:
            self._add(Wager.objects.filter(round__table_id__in=table_ids, wager__in=kinds))
            return
        first, last = period
        # The round ids first (index (gaming_day, table)), then their wagers by the (round,
        # revision) index: a join lets the planner scan the whole month's wager partition.
        within = list(Round.objects.filter(
            table_id__in=table_ids, gaming_day__gte=first, gaming_day__lte=last).values_list("pk", flat=True)
        ) if within is None else within
        self._add(Wager.objects.filter(
            gaming_day__gte=first, gaming_day__lte=last, round_id__in=within, wager__in=kinds))
        # Rounds of other days the period's postings name (a correction posted today of a
        # round of last month): each read on its own day, so only its partition is scanned.
        elsewhere = defaultdict(set)
        for pk, day in Round.objects.filter(pk__in=set(also) - {None}).values_list("pk", "gaming_day"):
            if not first <= day <= last:
                elsewhere[day].add(pk)
        for day, pks in elsewhere.items():
            self._add(Wager.objects.filter(gaming_day=day, round_id__in=pks, wager__in=kinds))

    def _add(self, wagers) -> None:
        # Unordered: Wager's default order joins the revisions and the rounds (each a partitioned table).
        rows = wagers.order_by().values_list("revision_id", "wager", "seat", "line", "expected_net")
        for revision, wager, seat, line, net in rows:
            if wager == TAX_WAGER:
                self.tax[revision] -= net
            elif net > 0:
                self.wins[revision].append((line, seat, net))


@dataclass
class _Start:
    """A period's transactions and what the ledger held before the first of them."""

    txns: list[tuple]
    after: int | None  # the id past the last one replayed (None: nothing posted after the period)
    balance: dict[tuple[str, str], Decimal]
    replayed: dict[int, dict]  # reversed transactions from before the period: their legs
    kinds: dict[int, tuple]
    live_hits: dict[int, tuple[int | None, str, bool]]


def _ledger_legs(txn_ids, keys) -> dict[int, dict]:
    out: dict[int, dict] = defaultdict(dict)
    for txn, account, amount in LedgerLeg.objects.filter(transaction_id__in=txn_ids).values_list(
        "transaction_id", "account_id", "amount"
    ):
        if amount:
            out[txn][keys[account]] = amount
    return out


def _or(conditions: list[Q]) -> Q | None:
    return Q(*conditions, _connector=Q.OR) if conditions else None


def _legs_since(marks: dict[int, int | None], keys) -> dict[int, dict[tuple[str, str], Decimal]]:
    """Per bank: the debit-positive sum of each account's legs posted at or after its mark."""
    out: dict[int, dict] = defaultdict(lambda: defaultdict(lambda: ZERO))
    where = _or([Q(transaction__bank_id=b, transaction_id__gte=pk) for b, pk in marks.items() if pk is not None])
    if where is not None:
        for bank_id, account, total in LedgerLeg.objects.filter(where).values_list(
                "transaction__bank_id", "account_id").annotate(s=money_sum("amount")):
            out[bank_id][keys[account]] += total
    return out


class _Batch:
    """Every read of a period's check (``day_from``..``day_to``) for any number of banks, in a
    fixed number of queries: the period's postings, the ledger's state before and after them (the
    rollup's running sums now, less the legs posted since: the cost of the postings since, never
    of the whole history), the period's rounds, revisions and wagers, and the rollup's rows of the
    period against the legs."""

    def __init__(self, banks, period: tuple[date, date]):
        first, last = period
        pks = [b.pk for b in banks]
        self.members: dict[int, dict] = defaultdict(dict)
        for bank_id, table, added in JackpotBankTable.objects.filter(bank__in=pks).values_list(
                "bank_id", "table_id", "added_at"):
            self.members[bank_id][table] = added
        self.accounts: dict[int, dict] = defaultdict(dict)
        keys = {}
        for a in LedgerAccount.objects.filter(bank__in=pks):
            self.accounts[a.bank_id][a.pk] = keys[a.pk] = (a.kind, a.line)
        spans = {b: (lo, hi) for b, lo, hi in T.objects.filter(
            bank__in=pks, gaming_day__gte=first, gaming_day__lte=last).values("bank").annotate(
            lo=Min("pk"), hi=Max("pk")).values_list("bank", "lo", "hi")}
        later = dict(T.objects.filter(bank__in=pks, gaming_day__gt=last).values("bank").annotate(
            pk=Min("pk")).values_list("bank", "pk"))
        self.txns: dict[int, list[tuple]] = defaultdict(list)
        where = _or([Q(bank_id=b, pk__gte=lo, pk__lte=hi) for b, (lo, hi) in spans.items()])
        if where is not None:
            for bank_id, *row in T.objects.filter(where).order_by("pk").values_list(
                    "bank_id", "pk", "kind", "line", "round_id", "revision_id", "reverses_id"):
                self.txns[bank_id].append(tuple(row))
        # Postings are replayed by id: one of another day amid the period's (an adjustment
        # approved today between postings of a round recorded late) is replayed with them.
        self.begin = {b: spans[b][0] if b in spans else later.get(b) for b in pks}
        self.after = {b: spans[b][1] + 1 if b in spans else later.get(b) for b in pks}
        now: dict[int, dict] = defaultdict(lambda: defaultdict(lambda: ZERO))
        for bank_id, sums in rollup.closings(dict.fromkeys(pks)).items():
            for account, by_kind in sums.items():
                now[bank_id][keys[account]] += sum((v for k, v in by_kind.items() if k != rollup.BASE), ZERO)
        self.raw_before, self.raw_closing = {}, {}
        for raw, marks in ((self.raw_before, self.begin), (self.raw_closing, self.after)):
            since = _legs_since(marks, keys)
            for b in pks:
                raw[b] = {k: v - since[b][k] for k, v in now[b].items()} | {
                    k: -v for k, v in since[b].items() if k not in now[b]}
        hits = list(T.objects.filter(bank__in=pks, kind=T.HIT).values_list(
            "bank_id", "pk", "round_id", "line", "reverses_id"))
        self.originals = {b: {r for *_x, r in self.txns[b] if r is not None and (
            self.begin[b] is None or r < self.begin[b])} for b in pks}
        self.standing: dict[int, dict] = {}
        for b in pks:
            # Hits standing when the period starts: a hit's reversal is a hit too (Book.reverse).
            earlier = [h for h in hits if h[0] == b and self.begin[b] is not None and h[1] < self.begin[b]]
            gone = {h[4] for h in earlier if h[4] is not None}
            self.standing[b] = {h[1]: (h[2], h[3]) for h in earlier if h[4] is None and h[1] not in gone}
        every_original = set().union(*self.originals.values()) if pks else set()
        self.kinds = {pk: (kind, rev) for pk, kind, rev in T.objects.filter(pk__in=every_original).values_list(
            "pk", "kind", "revision_id")}
        self.legs = _ledger_legs(every_original | {pk for s in self.standing.values() for pk in s}, keys)
        gone_now = {h[4] for h in hits if h[4] is not None}
        self.hits_now = {b: {h[1] for h in hits if h[0] == b and h[4] is None} - gone_now for b in pks}
        self.ledger_base = dict.fromkeys(pks, ZERO)
        where = _or([Q(bank_id=b, pk__gte=lo, pk__lte=hi) for b, (lo, hi) in spans.items()])
        if where is not None:
            for bank_id, total in T.objects.filter(where, kind=T.TAX).values("bank").annotate(
                    s=money_sum("contribution_base")).values_list("bank", "s"):
                self.ledger_base[bank_id] = total or ZERO
        # The period's rounds at every bank's tables (a table is in one bank: rounds, revisions and
        # tax postings keyed by round serve every bank).
        tables = {t: b for b in pks for t in self.members[b]}
        within = _period_rounds(tables, period)
        self.rounds = defaultdict(list)
        for rnd in _round_rows(within):
            self.rounds[tables[rnd.table_id]].append(rnd)
        ids = [r.pk for rs in self.rounds.values() for r in rs]
        self.revisions = _Revisions(tables, period, also=[t[3] for ts in self.txns.values() for t in ts],
                                    within=ids)
        # The ledger by a subquery of the rounds (a list of thousands of ids costs more to plan).
        self.posted = set(T.objects.filter(bank__in=pks, round_id__in=within.values("pk")).values_list(
            "round_id", flat=True))
        self.revision_rows = list(RoundRevision.objects.filter(
            gaming_day__gte=first, gaming_day__lte=last, round__in=within.values("pk")).order_by().values_list(
            "round_id", "number", "pk"))
        self.taxed_now: dict[int, dict[int, int]] = defaultdict(dict)
        reversed_tax = set()
        for pk, round_id, revision, reverses in T.objects.filter(
                kind=T.TAX, round_id__in=within.values("pk")).values_list(
                "pk", "round_id", "revision_id", "reverses_id"):
            if reverses is None:
                self.taxed_now[round_id][pk] = revision
            else:
                reversed_tax.add((round_id, reverses))
        for round_id, pk in reversed_tax:
            self.taxed_now[round_id].pop(pk, None)
        self.configs = defaultdict(list)
        for config in JackpotLineConfig.objects.filter(bank__in=pks, activated_at__isnull=False).order_by(
                "ledger_position", "pk"):
            self.configs[config.bank_id].append(config)
        self.awards = defaultdict(list)
        for award in JackpotAward.objects.filter(bank__in=pks).select_related("table", "round"):
            self.awards[award.bank_id].append(award)
        self.adjustments = defaultdict(dict)
        for adj in JackpotAdjustment.objects.filter(bank__in=pks, transaction__isnull=False):
            self.adjustments[adj.bank_id][adj.transaction_id] = adj
        # The rollup the pages read must agree with the legs of the period it checks.
        self.rollup = rollup.rollup_verify_banks(banks, first=first, last=last)

    def start(self, bank: JackpotBank) -> _Start:
        b = bank.pk
        balance: dict[tuple[str, str], Decimal] = defaultdict(lambda: ZERO)
        apply(balance, self.raw_before[b].items())
        return _Start(
            txns=self.txns[b],
            after=self.after[b],
            balance=balance,
            replayed={pk: self.legs[pk] for pk in self.originals[b] if pk in self.legs},
            kinds={pk: self.kinds[pk] for pk in self.originals[b] if pk in self.kinds},
            live_hits={pk: (r, ln, bool(self.legs[pk].get((M, ln)))) for pk, (r, ln) in self.standing[b].items()},
        )


def jackpot_recompute_banks(banks, *, day_from: date, day_to: date) -> list[Recomputation]:
    """The check of gaming days ``day_from``..``day_to`` of each of ``banks``: the same figures as
    :func:`jackpot_recompute` of each, in a fixed number of queries whatever the number of banks."""
    banks = list(banks)
    batch = _Batch(banks, (day_from, day_to))
    return [_recompute(bank, (day_from, day_to), batch) for bank in banks]


def jackpot_recompute(
    bank: JackpotBank, *, day_from: date | None = None, day_to: date | None = None
) -> Recomputation:
    """The whole history's replay, or (``day_from`` and ``day_to``) the check of those gaming days."""
    if day_from is not None:
        return jackpot_recompute_banks([bank], day_from=day_from, day_to=day_to or day_from)[0]
    return _recompute(bank, None, None)


def _recompute(  # noqa: C901 - one walk, one place
    bank: JackpotBank, period: tuple[date, date] | None, batch: _Batch | None
) -> Recomputation:
    if batch is None:
        members = {m.table_id: m.added_at for m in bank.members.all()}
        accounts = {a.pk: (a.kind, a.line) for a in LedgerAccount.objects.filter(bank=bank)}
        start = None
        revisions = _Revisions(members)
        configs = list(
            JackpotLineConfig.objects.filter(bank=bank, activated_at__isnull=False).order_by(
                "ledger_position", "pk"
            )
        )
        awards = list(JackpotAward.objects.filter(bank=bank).select_related("table", "round"))
        adjustments = {
            a.transaction_id: a
            for a in JackpotAdjustment.objects.filter(bank=bank, transaction__isnull=False)
        }
    else:
        members, accounts = batch.members[bank.pk], batch.accounts[bank.pk]
        start = batch.start(bank)
        revisions, configs = batch.revisions, batch.configs[bank.pk]
        awards, adjustments = batch.awards[bank.pk], batch.adjustments[bank.pk]
    by_hit = {a.hit_transaction_id: a for a in awards}
    by_payment = {a.payment_transaction_id: a for a in awards if a.payment_transaction_id}
    bal: dict[tuple[str, str], Decimal] = defaultdict(lambda: ZERO)
    active: dict[str, JackpotLineConfig] = {}
    replayed: dict[int, dict] = {}
    kinds: dict[int, tuple] = {}
    live_hits: dict[int, tuple[int | None, str, bool]] = {}  # hit pk -> (round, line, from meter)
    if start is not None:
        bal.update(start.balance)
        replayed.update(start.replayed)
        kinds.update(start.kinds)
        live_hits.update(start.live_hits)
    live_tax: dict[int, dict[int, int]] = defaultdict(dict)  # round -> {tax pk: revision}
    base = ZERO
    mismatches: list[str] = []
    pending_configs = iter(configs)
    next_config = next(pending_configs, None)

    def floor(line: str) -> Decimal:
        return floor_of(active.get(line))

    if start is None:
        txns = T.objects.filter(bank=bank).order_by("pk").values_list(
            "pk", "kind", "line", "round_id", "revision_id", "reverses_id"
        )
    else:
        txns = start.txns
    for pk, kind, line, round_id, revision_id, reverses_id in txns:
        while next_config is not None and (next_config.ledger_position or 0) < pk:
            active[next_config.line] = next_config
            next_config = next(pending_configs, None)
        if reverses_id is not None:
            original = replayed.get(reverses_id, {})
            legs = reversal_legs(
                original,
                balance=bal,
                floor=floor,
                paid_out=lambda ln, since=reverses_id: any(
                    hit_line == ln and from_meter and hit_pk > since
                    for hit_pk, (_r, hit_line, from_meter) in live_hits.items()
                ),
            )
            live_hits.pop(reverses_id, None)
            if kinds.get(reverses_id, (None,))[0] == T.TAX:
                base -= revisions.tax[kinds[reverses_id][1]]
                live_tax[round_id].pop(reverses_id, None)
        elif kind in (T.SEED, T.RESET):
            legs = top_up_legs(line, floor(line), bal[(M, line)], bal[(R, line)])
        elif kind == T.TAX:
            tax = revisions.tax[revision_id]
            base += tax
            legs = tax_legs(tax)
            live_tax[round_id][pk] = revision_id
        elif kind == T.CONTRIBUTION:
            tax, legs = revisions.tax[revision_id], []
            for ln in JACKPOT_LINES:
                config = active.get(ln)
                if config is not None and config.progressive:
                    legs += contribution_legs(tax, ln, config, bal[(M, ln)])
        elif kind == T.HIT:
            award = by_hit[pk]
            progressive = line in active and active[line].progressive
            first = not any(r == round_id and ln == line for r, ln, _m in live_hits.values())
            if progressive and first and award.amount != bal[(M, line)]:
                mismatches.append(
                    f"{award.table.label} round {award.round.sequence} seat {award.seat} {line}: "
                    f"award {award.amount}, recomputed meter {bal[(M, line)]}"
                )
            legs = hit_legs(line, award.amount, bal[(M, line)], first=first, progressive=progressive)
            live_hits[pk] = (round_id, line, bool(_merged(legs).get((M, line))))
        elif kind == T.PAYMENT:
            legs = payment_legs(by_payment[pk].amount)
        else:  # adjustment
            adj = adjustments[pk]
            legs = adjustment_legs(adj.target, adj.line, adj.amount)
        merged = _merged(legs)
        apply(bal, merged.items())
        replayed[pk] = merged
        kinds[pk] = (kind, revision_id)
    # Versions configured after the last replayed posting: all of them, or those before
    # the period's end.
    while next_config is not None and (
        start is None or start.after is None or (next_config.ledger_position or 0) < start.after
    ):
        active[next_config.line] = next_config
        next_config = next(pending_configs, None)

    if start is None:
        rounds, round_problems = _rounds_check(bank, members, revisions, live_tax, awards, live_hits)
    else:
        rounds, round_problems = _rounds_check(bank, members, revisions, batch.taxed_now, awards,
                                               batch.hits_now[bank.pk], batch=batch)
    for line in JACKPOT_LINES:
        if bal[(M, line)] < floor(line):
            round_problems.append(
                f"{line}: recomputed meter {bal[(M, line)]} is below its reset {floor(line)}"
            )
    keys = sorted(set(accounts.values()))
    if batch is None:
        ledger = {accounts[pk]: value for pk, value in balances_by_account(bank).items()}
        ledger_base = sum(
            (t.contribution_base for t in T.objects.filter(bank=bank, kind=T.TAX)), ZERO
        )
        # The rollup the pages read must agree with the legs.
        rollup_problems = rollup.rollup_verify(bank)
    else:
        ledger = defaultdict(lambda: ZERO)
        apply(ledger, batch.raw_closing[bank.pk].items())
        ledger_base = batch.ledger_base[bank.pk]
        rollup_problems = batch.rollup[bank.pk]
    return Recomputation(
        bank=bank,
        expected={k: bal[k] for k in keys},
        ledger={k: ledger.get(k, ZERO) for k in keys},
        expected_base=base,
        ledger_base=ledger_base,
        rounds=rounds,
        award_mismatches=mismatches,
        round_mismatches=round_problems,
        rollup_mismatches=rollup_problems,
    )


class _RoundRow(NamedTuple):
    pk: int
    table_id: int
    label: str
    sequence: int
    status: str
    revision: int
    recorded_at: datetime


def _round_rows(rounds) -> list[_RoundRow]:
    """What the rounds check reads of each round (thousands a day: tuples, not model instances)."""
    return [_RoundRow(*row) for row in rounds.values_list(
        "pk", "table_id", "table__label", "sequence", "status", "revision", "recorded_at")]


def _period_rounds(members, period: tuple[date, date]):
    first, last = period
    return Round.objects.filter(table_id__in=members, gaming_day__gte=first, gaming_day__lte=last)


def _rounds_check(bank, members, revisions, live_tax, awards, live_hits, *, batch=None) -> tuple[int, list[str]]:
    """Every round at the bank's tables (or the period's) against what stands in the ledger."""
    problems: list[str] = []
    count = 0
    if batch is None:
        posted = set(
            T.objects.filter(bank=bank, round__isnull=False).values_list("round_id", flat=True)
        )
        rounds = _round_rows(Round.objects.filter(table_id__in=members))
        revision_rows = RoundRevision.objects.filter(round__table_id__in=members).order_by().values_list(
            "round_id", "number", "pk")
    else:
        posted, rounds, revision_rows = batch.posted, batch.rounds[bank.pk], batch.revision_rows
    revision_pk, number_of = {}, {}
    for r, n, pk in revision_rows:
        revision_pk[(r, n)], number_of[pk] = pk, n
    standing = defaultdict(list)
    for award in awards:
        hit_stands = award.hit_transaction_id in live_hits
        if (award.status != JackpotAward.REVERSED) != hit_stands:
            problems.append(
                f"award {award.pk} ({award.line} {award.amount}) is {award.status} but its hit "
                f"{'stands' if hit_stands else 'was reversed'}"
            )
        if award.status != JackpotAward.REVERSED:
            standing[award.round_id].append((award.line, award.seat, award.amount))
    for rnd in rounds:
        if rnd.recorded_at < members[rnd.table_id] and rnd.pk not in posted:
            continue
        where = f"{rnd.label} round {rnd.sequence}"
        taxed = set(live_tax.get(rnd.pk, {}).values())
        if rnd.status != Round.ACTIVE:
            if taxed or standing.get(rnd.pk):
                problems.append(f"{where} is voided but its tax or award still stands")
            continue
        count += 1
        rev = revision_pk[(rnd.pk, rnd.revision)]
        expected = {rev} if revisions.tax[rev] > 0 else set()
        if taxed != expected:
            problems.append(
                f"{where}: revision {rnd.revision} collected {revisions.tax[rev]} in tax; the "
                f"standing tax postings are of revisions {sorted(number_of[t] for t in taxed)}"
            )
        if Counter(standing.get(rnd.pk, [])) != Counter(revisions.wins[rev]):
            problems.append(
                f"{where}: standing awards {sorted(standing.get(rnd.pk, []))} are not revision "
                f"{rnd.revision}'s wins {sorted(revisions.wins[rev])}"
            )
    return count, problems
