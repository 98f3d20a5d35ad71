"""Combine the slices' SQL aggregates into the report's lines: tables, pits, games, the floor.

Every quantity in a slice is a sum, so slices add up exactly; the roll-up from tables to
pits, games and the floor is again only addition (the variance of independent wagers adds
too). The money definitions are in audit/reports/README.md.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from audit.decisions.figures import decision_cost, decision_theo, play_quality
from audit.decisions.selectors import DecisionFigures, table_games
from tables.accounting.selectors_win import CashFigures
from tables.models import Dealer, RulesetVersion, Table

from ..models import (
    LEVEL_FLOOR,
    LEVEL_GAME,
    LEVEL_PIT,
    LEVEL_TABLE,
    DealerLine,
    ReportLine,
    ReportWagerLine,
)
from ..theoretical import JACKPOT_KEY, RAKE_KEY, TAX_KEY, OddsBook, wager_type
from .cash import day_cash, line_cash_fields, rolled_up, table_reconciliation

CENT = Decimal("0.01")
ZERO = Decimal(0)
#: Two-sided 95% normal interval (COMAR 36.05.03.25 asks for 95%).
CI_Z = Decimal("1.96")
#: A dealer is flagged when their rate of rounds with findings is this many binomial standard
#: deviations above the floor's, with at least DEALER_MIN_ERRORS such rounds.
DEALER_Z = 3.0
DEALER_MIN_ERRORS = 3
_SUMS = ("n", "handle", "handle_sq", "paid", "net", "expected", "error", "over", "under")


def _cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def _hold(win: Decimal, handle: Decimal) -> Decimal | None:
    return (
        (100 * win / handle).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP) if handle else None
    )


def combine_partials(partials: list[dict]) -> dict:
    """Add the slices' rows together, keyed as in :func:`..selectors.slice_aggregates`.

    ``decisions``: the slices' decisions' figures per (table, game), as of each slice's end like
    every other figure; None when a slice still had rounds queued for pricing (they may be priced
    before the combine, where no slice would count them) or kept no such figures: the combine
    then reads the day's rows."""
    wagers: dict[tuple, list[Decimal]] = {}
    tables: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    findings: dict[tuple, list] = defaultdict(lambda: [0, ZERO])
    dealers: dict[int, list] = defaultdict(lambda: [0, 0, 0, ZERO])
    pays: dict[tuple[int, int], list] = defaultdict(lambda: [0, 0, 0, ZERO])
    decisions: dict[tuple[int, str], list] | None = defaultdict(lambda: [ZERO, ZERO, 0])
    for part in partials:
        got = part.get("decisions")
        if got is None or got["pending"]:
            decisions = None
        elif decisions is not None:
            for table, game, cost, handle, seats in got["tables"]:
                d = decisions[(table, game)]
                d[0] += Decimal(cost)
                d[1] += Decimal(handle)
                d[2] += seats
        for table, dealer, recorded, attested, neither, stake in part.get("pays", ()):
            p = pays[(table, dealer)]
            p[0] += recorded
            p[1] += attested
            p[2] += neither
            p[3] += Decimal(stake)
        for table, version, wager, n, *amounts in part.get("wagers", ()):
            row = wagers.setdefault((table, version, wager), [ZERO] * len(_SUMS))
            for i, value in enumerate((n, *amounts)):
                row[i] += Decimal(value)
        for table, rounds, seats, voided in part.get("tables", ()):
            t = tables[table]
            t[0] += rounds
            t[1] += seats
            t[2] += voided
        for table, kind, n, amount in part.get("findings", ()):
            f = findings[(table, kind)]
            f[0] += n
            f[1] += Decimal(amount)
        for dealer, rounds, error_rounds, n, amount in part.get("dealers", ()):
            d = dealers[dealer]
            d[0] += rounds
            d[1] += error_rounds
            d[2] += n
            d[3] += Decimal(amount)
    return {
        "wagers": {k: dict(zip(_SUMS, v, strict=True)) for k, v in wagers.items()},
        "tables": dict(tables),
        "findings": dict(findings),
        "dealers": dict(dealers),
        "pays": dict(pays),
        "decisions": None if decisions is None else {k: DecisionFigures(*v) for k, v in decisions.items()},
    }


@dataclass
class _WagerAcc:
    count: int = 0
    handle: Decimal = ZERO
    paid: Decimal = ZERO
    win: Decimal = ZERO
    expected_win: Decimal = ZERO
    theo: Decimal = ZERO
    var: Decimal = ZERO
    error: Decimal = ZERO
    bases: set = field(default_factory=set)

    def add(self, other: _WagerAcc) -> None:
        self.count += other.count
        for name in ("handle", "paid", "win", "expected_win", "theo", "var", "error"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.bases |= other.bases


@dataclass
class _Unit:
    level: str
    key: str
    label: str
    game: str = ""
    rounds: int = 0
    voided: int = 0
    seats: int = 0
    over: Decimal = ZERO
    under: Decimal = ZERO
    taxes: Decimal = ZERO
    jackpots: Decimal = ZERO
    # The priced decisions (audit/decisions/figures.py): their cost in money (exact) and the handle they serve.
    decisions_cost: Decimal = ZERO
    decisions_handle: Decimal = ZERO
    findings: dict = field(default_factory=dict)
    wagers: dict = field(default_factory=dict)  # (game, wager type) -> _WagerAcc

    def add(self, other: _Unit) -> None:
        self.rounds += other.rounds
        self.voided += other.voided
        self.seats += other.seats
        self.over += other.over
        self.under += other.under
        self.taxes += other.taxes
        self.jackpots += other.jackpots
        self.decisions_cost += other.decisions_cost
        self.decisions_handle += other.decisions_handle
        for kind, (n, amount) in other.findings.items():
            mine = self.findings.setdefault(kind, [0, ZERO])
            mine[0] += n
            mine[1] += amount
        for key, acc in other.wagers.items():
            self.wagers.setdefault(key, _WagerAcc()).add(acc)


def _basis(bases: set) -> str:
    return " + ".join(sorted(bases)) if bases else ""


def build_lines(
    report, combined: dict, decisions: dict | None = None
) -> tuple[list[ReportLine], list[ReportWagerLine], list[DealerLine], dict]:
    """Unsaved lines of every level, the dealers' lines, and facts for the summary.

    ``decisions``: ``{(table id, game): DecisionFigures}`` of the day's priced decisions
    (audit.decisions.selectors.table_games; None: read them for the whole day)."""
    book = OddsBook()
    cash = day_cash(report.casino_id, report.gaming_day)
    if decisions is None:
        decisions = table_games(report.casino_id, report.gaming_day)
    table_ids = (
        set(combined["tables"])
        | {k[0] for k in combined["wagers"]}
        | {k[0] for k in combined["findings"]}
        | set(cash)  # a table that counted money but recorded no round is what the cash side is for
        | {k[0] for k in decisions}
    )
    tables = {t.pk: t for t in Table.objects.filter(pk__in=table_ids).select_related("pit")}
    versions = {
        v.pk: v for v in RulesetVersion.objects.filter(pk__in={k[1] for k in combined["wagers"]})
    }
    units: dict[int, _Unit] = {}
    for pk, table in tables.items():
        rounds, seats, voided = combined["tables"].get(pk, (0, 0, 0))
        units[pk] = _Unit(
            LEVEL_TABLE,
            str(pk),
            f"{table.pit.name} / {table.label}",
            table.game,
            rounds,
            voided,
            seats,
        )
    notes: dict[str, str] = {}
    for (table_id, version_id, wager), s in combined["wagers"].items():
        unit, version = units[table_id], versions[version_id]
        odds = book.odds(version, wager)
        acc = _WagerAcc(count=int(s["n"]), handle=s["handle"], error=s["error"])
        if wager == RAKE_KEY:  # the house's own settlement: its net is the house's win
            acc.win, acc.expected_win, acc.theo = s["net"], s["expected"], s["expected"]
        else:
            acc.paid, acc.win, acc.expected_win = s["paid"], -s["net"], -s["expected"]
            acc.theo = s["handle"] * odds.house_edge
            acc.var = s["handle_sq"] * odds.variance
        if wager == JACKPOT_KEY:  # stake 0: the tax row carries the marker's handle
            unit.jackpots += s["net"]
        if wager == TAX_KEY:
            unit.taxes += -s["net"]
        acc.bases.add(odds.basis)
        notes[f"{version.game}/{wager_type(wager)}"] = f"{odds.basis}: {odds.note}".strip(": ")
        unit.over += s["over"]
        unit.under += s["under"]
        unit.wagers.setdefault((version.game, wager_type(wager)), _WagerAcc()).add(acc)
    for (table_id, kind), (n, amount) in combined["findings"].items():
        unit = units[table_id]
        unit.findings[kind] = [n, amount]
    for (table_id, _game), figures in decisions.items():
        unit = units[table_id]
        unit.decisions_cost += figures.cost
        unit.decisions_handle += figures.handle

    cash_of: dict[tuple[str, str], tuple] = {}  # (level, key) -> (CashFigures, Reconciliation | None)
    for pk, unit in units.items():
        total = _total(unit)
        figures = cash.get(pk, CashFigures())
        rec = table_reconciliation(figures, win=_cents(total.win), expected_win=_cents(total.expected_win),
                                   jackpots=_cents(unit.jackpots))
        cash_of[(LEVEL_TABLE, unit.key)] = (figures, rec)

    rollups: dict[tuple[str, str], _Unit] = {}
    members: dict[tuple[str, str], list] = defaultdict(list)
    floor = _Unit(LEVEL_FLOOR, "floor", "Floor")
    for pk, unit in units.items():
        table = tables[pk]
        pit = rollups.setdefault(
            (LEVEL_PIT, str(table.pit_id)), _Unit(LEVEL_PIT, str(table.pit_id), table.pit.name)
        )
        game = rollups.setdefault(
            (LEVEL_GAME, table.game),
            _Unit(LEVEL_GAME, table.game, table.get_game_display(), table.game),
        )
        for target in (pit, game, floor):
            target.add(unit)
            members[(target.level, target.key)].append(cash_of[(LEVEL_TABLE, unit.key)])
    for key, pairs in members.items():
        cash_of[key] = rolled_up(pairs)
    everything = [
        floor,
        *sorted(rollups.values(), key=lambda u: (u.level, u.label)),
        *sorted(units.values(), key=lambda u: u.label),
    ]
    lines, wager_lines = [], []
    for unit in everything:
        total = _total(unit)
        for (game, kind), acc in sorted(unit.wagers.items()):
            sd = Decimal(math.sqrt(acc.var)) if acc.var else ZERO
            wager_lines.append(
                ReportWagerLine(
                    report=report,
                    level=unit.level,
                    key=unit.key,
                    label=unit.label,
                    game=game,
                    wager=kind,
                    basis=_basis(acc.bases),
                    house_edge=(acc.theo / acc.handle).quantize(Decimal("1e-10"))
                    if acc.handle
                    else None,
                    count=acc.count,
                    handle=_cents(acc.handle),
                    paid=_cents(acc.paid),
                    win=_cents(acc.win),
                    expected_win=_cents(acc.expected_win),
                    handle_hold_pct=_hold(acc.win, acc.handle),
                    theo_win=_cents(acc.theo),
                    theo_sd=_cents(sd),
                    error_cost=_cents(acc.error),
                )
            )
        sd = Decimal(math.sqrt(total.var)) if total.var else ZERO
        low, high = total.theo - CI_Z * sd, total.theo + CI_Z * sd
        win = _cents(total.win)
        lines.append(
            ReportLine(
                report=report,
                level=unit.level,
                key=unit.key,
                label=unit.label,
                game=unit.game,
                rounds=unit.rounds,
                voided_rounds=unit.voided,
                seats_played=unit.seats,
                handle=_cents(total.handle),
                paid=_cents(total.paid),
                win=win,
                expected_win=_cents(total.expected_win),
                handle_hold_pct=_hold(total.win, total.handle),
                theo_win=_cents(total.theo),
                theo_sd=_cents(sd),
                ci_low=_cents(low),
                ci_high=_cents(high),
                outlier=bool(total.handle) and not (_cents(low) <= win <= _cents(high)),
                theo_basis=_basis(total.bases),
                decision_cost=decision_cost(unit.decisions_cost),
                decision_theo=decision_theo(total.theo, unit.decisions_cost),
                decision_handle=_cents(unit.decisions_handle),
                play_quality_pct=play_quality(unit.decisions_cost, unit.decisions_handle),
                error_cost=_cents(total.error),
                overpaid=_cents(unit.over),
                underpaid=_cents(unit.under),
                findings={
                    k: {"count": n, "amount": str(_cents(a))}
                    for k, (n, a) in sorted(unit.findings.items())
                },
                taxes=_cents(unit.taxes),
                jackpots=_cents(unit.jackpots),
                # A day without a table still has a floor line: its cash is an empty sum.
                **line_cash_fields(*cash_of.get((unit.level, unit.key), (CashFigures(), None)),
                                   rollup=unit.level != LEVEL_TABLE),
            )
        )
    complete = [(tables[pk], cash_of[(LEVEL_TABLE, str(pk))][1]) for pk in units
                if cash_of[(LEVEL_TABLE, str(pk))][1] is not None]
    floor_cash = cash_of.get((LEVEL_FLOOR, "floor"), (CashFigures(), None))[0]
    facts = {"bases": notes, "complete_tables": complete, "pays": pays_summary(combined.get("pays", {})),
             "cash": {"tables": floor_cash.tables, "incomplete": floor_cash.incomplete}}
    return lines, wager_lines, dealer_lines(report, combined["dealers"]), facts


def _total(unit: _Unit) -> _WagerAcc:
    total = _WagerAcc()
    for acc in unit.wagers.values():
        total.add(acc)
    return total


def pays_summary(pays: dict) -> dict:
    """The day's pays counted apart (docs/floor/recording-rounds.md): recorded, attested "paid
    as shown" and neither, for the floor, each table and each dealer. Only recorded pays are
    judged; the others are never counted as paid correctly (the error figures cover the
    recorded ones)."""

    def add(into: dict, key, label: str, row: list) -> None:
        line = into.setdefault(key, {"label": label, "recorded": 0, "attested": 0, "not_recorded": 0,
                                     "attested_stake": ZERO})
        line["recorded"] += row[0]
        line["attested"] += row[1]
        line["not_recorded"] += row[2]
        line["attested_stake"] += row[3]

    tables = {t.pk: t.label for t in Table.objects.filter(pk__in={t for t, _ in pays})}
    dealers = {d.pk: str(d) for d in Dealer.objects.filter(pk__in={d for _, d in pays})}
    floor: dict = {}
    by_table: dict = {}
    by_dealer: dict = {}
    for (table, dealer), row in pays.items():
        add(floor, "floor", "Floor", row)
        add(by_table, table, tables.get(table, f"table {table}"), row)
        add(by_dealer, dealer, dealers.get(dealer, f"dealer {dealer}"), row)

    def rows(lines: dict) -> list[dict]:
        return [{**line, "attested_stake": str(_cents(line["attested_stake"]))}
                for line in sorted(lines.values(), key=lambda x: x["label"])]

    total = rows(floor)
    return {"floor": total[0] if total else {"label": "Floor", "recorded": 0, "attested": 0, "not_recorded": 0,
                                              "attested_stake": "0.00"},
            "tables": rows(by_table), "dealers": rows(by_dealer)}


def dealer_lines(report, dealers: dict) -> list[DealerLine]:
    """Each dealer's rate of rounds with findings against the floor's (binomial z-score)."""
    total_rounds = sum(d[0] for d in dealers.values())
    total_errors = sum(d[1] for d in dealers.values())
    p = total_errors / total_rounds if total_rounds else 0.0
    names = {d.pk: str(d) for d in Dealer.objects.filter(pk__in=dealers)}
    out = []
    for pk, (rounds, error_rounds, n, amount) in dealers.items():
        z = None
        if rounds and 0 < p < 1:
            z = (error_rounds - rounds * p) / math.sqrt(rounds * p * (1 - p))
        out.append(
            DealerLine(
                report=report,
                dealer_id=pk,
                label=names.get(pk, f"dealer {pk}"),
                rounds=rounds,
                error_rounds=error_rounds,
                findings=n,
                amount=_cents(amount),
                rate=Decimal(error_rounds / rounds if rounds else 0).quantize(Decimal("0.000001")),
                z_score=Decimal(z).quantize(Decimal("0.001")) if z is not None else None,
                flagged=z is not None and z > DEALER_Z and error_rounds >= DEALER_MIN_ERRORS,
            )
        )
    return sorted(out, key=lambda d: (not d.flagged, -d.rate, d.label))
