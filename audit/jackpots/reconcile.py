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
from datetime import date
from decimal import Decimal

from django.db.models import Max, Min, Sum

from audit.jackpots import rollup
from audit.jackpots.ledger import ZERO, balances_by_account
from audit.jackpots.models import (
    JackpotAdjustment,
    JackpotAward,
    JackpotBank,
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
from tables.games.paytables import JACKPOT_LINES
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

    def __init__(self, table_ids, period: tuple[date, date] | None = None, also=()):
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
            table_id__in=table_ids, gaming_day__gte=first, gaming_day__lte=last).values_list("pk", flat=True))
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
        rows = wagers.values_list("revision_id", "wager", "seat", "line", "expected_net")
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


def _raw_before(bank: JackpotBank, keys: dict[int, tuple[str, str]], pk: int | None) -> dict:
    """The debit-positive sum of each account's legs posted before transaction ``pk`` (all when
    None): the rollup's running sums now, less the legs posted since ``pk`` (so the cost is that
    of the postings since, never of the whole history)."""
    now = rollup.closings({bank.pk: None}).get(bank.pk, {})
    raw: dict[tuple[str, str], Decimal] = defaultdict(lambda: ZERO)
    for account, sums in now.items():
        raw[keys[account]] += sum((v for k, v in sums.items() if k != rollup.BASE), ZERO)
    if pk is not None:
        since = LedgerLeg.objects.filter(transaction__bank=bank, transaction_id__gte=pk)
        for account, total in since.values("account").annotate(total=Sum("amount")).values_list("account", "total"):
            raw[keys[account]] -= total
    return raw


def _start(bank: JackpotBank, keys: dict[int, tuple[str, str]], first_day: date, last_day: date) -> _Start:
    """The period's transactions (by id, from the first posted on ``first_day`` to the last
    posted on ``last_day``) and the ledger's own state before them."""
    span = T.objects.filter(bank=bank, gaming_day__gte=first_day, gaming_day__lte=last_day).aggregate(
        first=Min("pk"), last=Max("pk"))
    after = T.objects.filter(bank=bank, gaming_day__gt=last_day).aggregate(pk=Min("pk"))["pk"]
    if span["first"] is None:
        txns, begin = [], after
    else:
        txns = list(T.objects.filter(bank=bank, pk__gte=span["first"], pk__lte=span["last"]).order_by(
            "pk").values_list("pk", "kind", "line", "round_id", "revision_id", "reverses_id"))
        begin = span["first"]
        # Postings are replayed by id: one of another day amid the period's (an adjustment
        # approved today between postings of a round recorded late) is replayed with them.
        after = span["last"] + 1
    balance: dict[tuple[str, str], Decimal] = defaultdict(lambda: ZERO)
    apply(balance, _raw_before(bank, keys, begin).items())
    earlier = T.objects.filter(bank=bank, pk__lt=begin) if begin is not None else T.objects.none()
    originals = {r for *_x, r in txns if r is not None and (begin is None or r < begin)}
    kinds = {pk: (kind, rev) for pk, kind, rev in earlier.filter(pk__in=originals).values_list(
        "pk", "kind", "revision_id")}
    # Hits standing when the period starts: a hit's reversal is a hit too (Book.reverse).
    hits = earlier.filter(kind=T.HIT)
    gone = set(hits.filter(reverses__isnull=False).values_list("reverses_id", flat=True))
    standing = {pk: (r, ln) for pk, r, ln in hits.filter(reverses__isnull=True).values_list(
        "pk", "round_id", "line") if pk not in gone}
    hit_legs_ = _ledger_legs(standing, keys)
    return _Start(
        txns=txns,
        after=after,
        balance=balance,
        replayed=_ledger_legs(originals, keys),
        kinds=kinds,
        live_hits={pk: (r, ln, bool(hit_legs_[pk].get((M, ln)))) for pk, (r, ln) in standing.items()},
    )


def jackpot_recompute(  # noqa: C901 - one walk, one place
    bank: JackpotBank, *, day_from: date | None = None, day_to: date | None = None
) -> Recomputation:
    """The whole history's replay, or (``day_from`` and ``day_to``) the check of those gaming days."""
    members = {m.table_id: m.added_at for m in bank.members.all()}
    accounts = {a.pk: (a.kind, a.line) for a in LedgerAccount.objects.filter(bank=bank)}
    period = None if day_from is None else (day_from, day_to or day_from)
    start = None if period is None else _start(bank, accounts, *period)
    if start is None:
        revisions = _Revisions(members)
    else:
        revisions = _Revisions(members, period, also=[t[3] for t in start.txns])
    configs = list(
        JackpotLineConfig.objects.filter(bank=bank, activated_at__isnull=False).order_by(
            "ledger_position", "pk"
        )
    )
    awards = list(JackpotAward.objects.filter(bank=bank).select_related("table", "round"))
    by_hit = {a.hit_transaction_id: a for a in awards}
    by_payment = {a.payment_transaction_id: a for a in awards if a.payment_transaction_id}
    adjustments = {
        a.transaction_id: a
        for a in JackpotAdjustment.objects.filter(bank=bank, transaction__isnull=False)
    }
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
        taxed_now, hits_now = _standing_now(bank, members, period)
        rounds, round_problems = _rounds_check(bank, members, revisions, taxed_now, awards, hits_now, period=period)
    for line in JACKPOT_LINES:
        if bal[(M, line)] < floor(line):
            round_problems.append(
                f"{line}: recomputed meter {bal[(M, line)]} is below its reset {floor(line)}"
            )
    keys = sorted(set(accounts.values()))
    # The rollup the pages read must agree with the legs (of the period, for a period's check).
    rollup_problems = rollup.rollup_verify(bank, first=day_from and period[0], last=day_from and period[1])
    if start is None:
        ledger = {accounts[pk]: value for pk, value in balances_by_account(bank).items()}
        ledger_base = sum(
            (t.contribution_base for t in T.objects.filter(bank=bank, kind=T.TAX)), ZERO
        )
    else:
        ledger = defaultdict(lambda: ZERO)
        apply(ledger, _raw_before(bank, accounts, start.after).items())
        ledger_base = ZERO
        if start.txns:
            ledger_base = T.objects.filter(
                bank=bank, kind=T.TAX, pk__gte=start.txns[0][0], pk__lte=start.txns[-1][0]
            ).aggregate(s=Sum("contribution_base"))["s"] or ZERO
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


def _period_rounds(members, period: tuple[date, date]):
    first, last = period
    return Round.objects.filter(table_id__in=members, gaming_day__gte=first, gaming_day__lte=last)


def _standing_now(bank: JackpotBank, members, period: tuple[date, date]):
    """From the ledger as it stands: the standing tax postings of the period's rounds
    (round -> {posting: revision}) and the standing hits (every hit not reversed)."""
    live_tax: dict[int, dict[int, int]] = defaultdict(dict)
    reversed_tax = set()
    for pk, round_id, revision, reverses in T.objects.filter(
        kind=T.TAX, round_id__in=_period_rounds(members, period).values("pk")
    ).values_list("pk", "round_id", "revision_id", "reverses_id"):
        if reverses is None:
            live_tax[round_id][pk] = revision
        else:
            reversed_tax.add((round_id, reverses))
    for round_id, pk in reversed_tax:
        live_tax[round_id].pop(pk, None)
    hits = T.objects.filter(bank=bank, kind=T.HIT)
    gone = set(hits.filter(reverses__isnull=False).values_list("reverses_id", flat=True))
    live_hits = set(hits.filter(reverses__isnull=True).values_list("pk", flat=True)) - gone
    return live_tax, live_hits


def _rounds_check(bank, members, revisions, live_tax, awards, live_hits, *, period=None) -> tuple[int, list[str]]:
    """Every round at the bank's tables (or the period's) against what stands in the ledger."""
    problems: list[str] = []
    count = 0
    if period is None:
        posted = set(
            T.objects.filter(bank=bank, round__isnull=False).values_list("round_id", flat=True)
        )
        rounds = Round.objects.filter(table_id__in=members).select_related("table")
        revision_rows = RoundRevision.objects.filter(round__table_id__in=members)
    else:
        first, last = period
        within = _period_rounds(members, period)
        posted = set(T.objects.filter(bank=bank, round_id__in=within.values("pk")).values_list(
            "round_id", flat=True))
        rounds = within.select_related("table")
        revision_rows = RoundRevision.objects.filter(
            gaming_day__gte=first, gaming_day__lte=last, round__in=within.values("pk"))
    revision_pk, number_of = {}, {}
    for r, n, pk in revision_rows.values_list("round_id", "number", "pk"):
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
        where = f"{rnd.table.label} round {rnd.sequence}"
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
