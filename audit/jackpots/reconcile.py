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
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from audit.jackpots.ledger import ZERO, balances_by_account
from audit.jackpots.models import (
    JackpotAdjustment,
    JackpotAward,
    JackpotBank,
    JackpotLineConfig,
    LedgerAccount,
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
        return not self.differences and not self.award_mismatches and not self.round_mismatches


def _merged(legs) -> dict[tuple[str, str], Decimal]:
    out: dict[tuple[str, str], Decimal] = defaultdict(lambda: ZERO)
    for key, amount in legs:
        out[key] += amount
    return {k: v for k, v in out.items() if v != 0}


class _Revisions:
    """Tax and wins of every revision of the rounds at the bank's tables (one query)."""

    def __init__(self, table_ids):
        self.tax: dict[int, Decimal] = defaultdict(lambda: ZERO)
        self.wins: dict[int, list[tuple[str, int, Decimal]]] = defaultdict(list)
        rows = Wager.objects.filter(
            round__table_id__in=table_ids, wager__in=(TAX_WAGER, JACKPOT_WAGER)
        ).values_list("revision_id", "wager", "seat", "line", "expected_net")
        for revision, wager, seat, line, net in rows:
            if wager == TAX_WAGER:
                self.tax[revision] -= net
            elif net > 0:
                self.wins[revision].append((line, seat, net))


def jackpot_recompute(bank: JackpotBank) -> Recomputation:  # noqa: C901 - one walk, one place
    members = {m.table_id: m.added_at for m in bank.members.all()}
    revisions = _Revisions(members)
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
    live_tax: dict[int, dict[int, int]] = defaultdict(dict)  # round -> {tax pk: revision}
    base = ZERO
    mismatches: list[str] = []
    pending_configs = iter(configs)
    next_config = next(pending_configs, None)

    def floor(line: str) -> Decimal:
        return floor_of(active.get(line))

    txns = T.objects.filter(bank=bank).order_by("pk").values_list(
        "pk", "kind", "line", "round_id", "revision_id", "reverses_id"
    )
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
    while next_config is not None:
        active[next_config.line] = next_config
        next_config = next(pending_configs, None)

    rounds, round_problems = _rounds_check(bank, members, revisions, live_tax, awards, live_hits)
    for line in JACKPOT_LINES:
        if bal[(M, line)] < floor(line):
            round_problems.append(
                f"{line}: recomputed meter {bal[(M, line)]} is below its reset {floor(line)}"
            )
    accounts = {a.pk: (a.kind, a.line) for a in LedgerAccount.objects.filter(bank=bank)}
    ledger = {accounts[pk]: value for pk, value in balances_by_account(bank).items()}
    keys = sorted(set(accounts.values()))
    ledger_base = sum(
        (t.contribution_base for t in T.objects.filter(bank=bank, kind=T.TAX)), ZERO
    )
    return Recomputation(
        bank=bank,
        expected={k: bal[k] for k in keys},
        ledger={k: ledger.get(k, ZERO) for k in keys},
        expected_base=base,
        ledger_base=ledger_base,
        rounds=rounds,
        award_mismatches=mismatches,
        round_mismatches=round_problems,
    )


def _rounds_check(bank, members, revisions, live_tax, awards, live_hits) -> tuple[int, list[str]]:
    """Every round at the bank's tables against what stands in the replayed ledger."""
    posted = set(
        T.objects.filter(bank=bank, round__isnull=False).values_list("round_id", flat=True)
    )
    problems: list[str] = []
    count = 0
    rounds = Round.objects.filter(table_id__in=members).select_related("table")
    revision_pk, number_of = {}, {}
    for r, n, pk in RoundRevision.objects.filter(round__table_id__in=members).values_list(
        "round_id", "number", "pk"
    ):
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
