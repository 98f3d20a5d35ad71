"""Recompute every meter from the recorded rounds and compare with the ledger.

The replay reads no amount from the ledger. It walks, in the order they were posted (the
ledger's transaction ids, handed out under the meter lock), the events the ledger was
posted from: each line configuration taking effect, every active round at the bank's
tables (its current revision's stored wagers, where the round was first posted), every
approved adjustment and every award payment, and applies the posting rules again
(hit -> reset -> contributions with the cap; resets from the hidden reserve first). Any
difference per meter, reserve, payable or contribution base is reported, as is an award
whose amount is not what the replayed meter held.

Known limit, documented: a correction or void posts when it is made, the replay puts the
round where it was first posted. The sums are the same unless a cap or a reset top-up
sat between the two moments, in which case the difference is reported for a person to
read, which is what the check is for.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Min

from audit.jackpots.ledger import ZERO, cents
from audit.jackpots.models import (
    JackpotAdjustment,
    JackpotAward,
    JackpotBank,
    JackpotLineConfig,
    LedgerTransaction,
)
from audit.jackpots.selectors import line_balances_by_kind
from audit.jackpots.services import JACKPOT_WAGER, TAX_WAGER
from tables.games.paytables import JACKPOT_LINES
from tables.models import Round, Wager

M, R, P = "meter", "reserve", "payable"


@dataclass
class Recomputation:
    bank: JackpotBank
    expected: dict[tuple[str, str], Decimal]
    ledger: dict[tuple[str, str], Decimal]
    expected_base: Decimal
    ledger_base: Decimal
    rounds: int
    award_mismatches: list[str] = field(default_factory=list)

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
        return not self.differences and not self.award_mismatches


def _events(bank: JackpotBank):
    """Events in the order they were posted. The ledger's transaction ids are a sequence
    handed out under the bank's meter lock, so they order the events; the replay reads no
    amount from the ledger. A round with no posting (no tax, no hit) changes nothing."""
    events = []
    for config in JackpotLineConfig.objects.filter(
        bank=bank, activated_at__isnull=False, activated_by_round__isnull=True
    ):
        events.append((config.ledger_position or 0, 3, config.pk, "config", config))
    members = {m.table_id: m.added_at for m in bank.members.all()}
    first_posting = dict(
        LedgerTransaction.objects.filter(bank=bank, round__isnull=False)
        .values("round")
        .annotate(first=Min("pk"))
        .values_list("round", "first")
    )
    rounds = Round.objects.filter(table_id__in=members, status=Round.ACTIVE).select_related("table")
    for rnd in rounds:
        if rnd.recorded_at >= members[rnd.table_id] or rnd.pk in first_posting:
            events.append((first_posting.get(rnd.pk, 0), 2, rnd.pk, "round", rnd))
    for adj in JackpotAdjustment.objects.filter(bank=bank, status=JackpotAdjustment.APPROVED):
        events.append((adj.transaction_id, 2, adj.pk, "adjustment", adj))
    for award in JackpotAward.objects.filter(bank=bank, status=JackpotAward.PAID):
        events.append((award.payment_transaction_id, 2, award.pk, "payment", award))
    events.sort(key=lambda e: e[:3])
    return events


def jackpot_recompute(bank: JackpotBank) -> Recomputation:
    bal: dict[tuple[str, str], Decimal] = defaultdict(lambda: ZERO)
    active: dict[str, JackpotLineConfig] = {}
    by_round = defaultdict(list)
    for config in JackpotLineConfig.objects.filter(bank=bank, activated_by_round__isnull=False):
        by_round[config.activated_by_round_id].append(config)
    base = ZERO
    mismatches: list[str] = []
    rounds = 0

    def floor(line: str) -> Decimal:
        config = active.get(line)
        return config.reset if config is not None and config.progressive else ZERO

    def top_up(line: str) -> None:
        short = floor(line) - bal[(M, line)]
        if short > 0:
            from_reserve = min(short, max(bal[(R, line)], ZERO))
            bal[(R, line)] -= from_reserve
            bal[(M, line)] += short

    for _at, _order, _pk, kind, obj in _events(bank):
        if kind == "config":
            active[obj.line] = obj
            top_up(obj.line)
        elif kind == "adjustment":
            bal[(obj.target, obj.line)] += obj.amount
        elif kind == "payment":
            bal[(P, "")] -= obj.amount
        else:
            rounds += 1
            wagers = list(
                Wager.objects.filter(
                    round=obj, revision__number=obj.revision, wager__in=(TAX_WAGER, JACKPOT_WAGER)
                ).order_by("seat")
            )
            tax = sum((-w.expected_net for w in wagers if w.wager == TAX_WAGER), ZERO)
            wins = defaultdict(list)
            for w in wagers:
                if w.wager == JACKPOT_WAGER and w.expected_net > 0:
                    wins[w.line].append(w)
            for line in JACKPOT_LINES:
                if not wins.get(line):
                    continue
                progressive = line in active and active[line].progressive
                for i, w in enumerate(wins[line]):
                    bal[(P, "")] += w.expected_net
                    if progressive and i == 0:
                        if w.expected_net != bal[(M, line)]:
                            mismatches.append(
                                f"{obj.table.label} round {obj.sequence} seat {w.seat} {line}: award "
                                f"{w.expected_net}, recomputed meter {bal[(M, line)]}"
                            )
                        bal[(M, line)] -= min(w.expected_net, max(bal[(M, line)], ZERO))
                for config in by_round.get(obj.pk, []):
                    if config.line == line:
                        active[line] = config
                top_up(line)
            if tax > 0:
                base += tax
                for line in JACKPOT_LINES:
                    config = active.get(line)
                    if config is None or not config.progressive:
                        continue
                    increment, hidden = (
                        cents(tax * config.increment_rate),
                        cents(tax * config.hidden_rate),
                    )
                    to_meter = increment
                    if config.cap is not None:
                        to_meter = min(increment, max(config.cap - bal[(M, line)], ZERO))
                    bal[(M, line)] += to_meter
                    bal[(R, line)] += hidden + increment - to_meter
    ledger = line_balances_by_kind(bank)
    keys = [(M, line) for line in JACKPOT_LINES] + [(R, line) for line in JACKPOT_LINES] + [(P, "")]
    ledger_base = sum(
        (
            t.contribution_base
            for t in LedgerTransaction.objects.filter(bank=bank, kind=LedgerTransaction.TAX)
        ),
        ZERO,
    )
    return Recomputation(
        bank=bank,
        expected={k: bal[k] for k in keys},
        ledger={k: ledger.get(k, ZERO) for k in keys},
        expected_base=base,
        ledger_base=ledger_base,
        rounds=rounds,
        award_mismatches=mismatches,
    )
