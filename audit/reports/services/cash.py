"""The daily report's cash side: each table's signed money (tables/accounting/selectors_win.py,
the one definition of statistical win and hold % of drop) beside its recorded play, and the
difference between the two split into what the project can explain (README.md, "Recorded
play against cash").

    difference  = statistical win - win if settled right
                = dealer errors            (win - win if settled right: a wrong pay recorded as the
                                            pay made moved the tray's chips, so the cash has it too)
                + TF jackpots              (paid by the cage, not from the tray: the rounds count
                                            them as paid by the table, the cash does not)
                + unexplained              (what is left: unrecorded rounds, fills or credits, miscounts)

Buy-ins recorded against the counted drop (the drop gap) do not move the win: a buy-in's cash
goes into the box and the same chips leave the tray. The gap is shown beside the split as a
pointer to the cause of the unexplained part, not subtracted from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from tables.accounting.models import AccountingFinding
from tables.accounting.selectors_win import CashFigures, summed, table_days
from tables.accounting.services.findings import accounting_settings

ZERO = Decimal(0)
COUNT_PENDING = "count pending"


@dataclass
class Reconciliation:
    """A complete table day's (or a sum of them) statistical win against its recorded play."""

    difference: Decimal = ZERO
    errors: Decimal = ZERO
    jackpots: Decimal = ZERO
    drop_gap: Decimal = ZERO

    @property
    def unexplained(self) -> Decimal:
        return self.difference - self.errors - self.jackpots

    def add(self, other: Reconciliation) -> None:
        self.difference += other.difference
        self.errors += other.errors
        self.jackpots += other.jackpots
        self.drop_gap += other.drop_gap


def day_cash(casino_id: int, gaming_day) -> dict[int, CashFigures]:
    """Table id -> the table's signed money for the day (every table with a signed record or a buy-in)."""
    return {table: figures for (table, _), figures in table_days([casino_id], gaming_day).items()}


def pending_reason(figures: CashFigures) -> str:
    """Why a table day has no statistical win ("" when it has one)."""
    if figures.complete:
        return ""
    if figures.opener is None and figures.closer is None:
        return "no chip inventory"
    if figures.drop is None:  # first: a table still open today has no closer yet either
        return COUNT_PENDING
    if figures.opener is None:
        return "no opener"
    return "no closer"


def table_reconciliation(figures: CashFigures, *, win: Decimal, expected_win: Decimal,
                         jackpots: Decimal) -> Reconciliation | None:
    """The split of one table day's difference; None until its statistical win is known."""
    stat_win = figures.stat_win
    if stat_win is None:
        return None
    return Reconciliation(difference=stat_win - expected_win, errors=win - expected_win, jackpots=jackpots,
                          drop_gap=figures.drop - figures.estimated_drop)


def line_cash_fields(figures: CashFigures, rec: Reconciliation | None, *, rollup: bool) -> dict:
    """The ReportLine fields of a unit's cash figures and reconciliation (``rollup``: a sum of
    table days, which knows how many it holds and left out)."""
    tables, incomplete = (figures.tables, figures.incomplete) if rollup else (int(figures.complete),
                                                                              int(not figures.complete))
    out = {
        "opener": figures.opener, "closer": figures.closer, "fills": figures.fills, "credits": figures.credits,
        "drop": figures.drop, "estimated_drop": figures.estimated_drop, "stat_win": figures.stat_win,
        "drop_hold_pct": figures.drop_hold_pct,
        "cash_tables": tables, "cash_incomplete": incomplete,
        "cash_pending": "" if rollup else pending_reason(figures),
    }
    if rec is not None:
        out.update(cash_difference=rec.difference, cash_errors=rec.errors, cash_jackpots=rec.jackpots,
                   cash_unexplained=rec.unexplained, drop_gap=rec.drop_gap)
    return out


def rolled_up(pairs: list[tuple[CashFigures, Reconciliation | None]]) -> tuple[CashFigures, Reconciliation | None]:
    """A pit's, game's or the floor's figures: sums of its complete table days only."""
    total = summed(figures for figures, _ in pairs)
    recs = [rec for _, rec in pairs if rec is not None]
    if not recs:
        return total, None
    rec = Reconciliation()
    for one in recs:
        rec.add(one)
    return total, rec


def likely_causes(rec: Reconciliation) -> list[str]:
    """What the figures point at, in words surveillance can act on."""
    causes = []
    if rec.unexplained > 0:
        causes.append("the cash won more than the recorded play: rounds the house won that nobody recorded, "
                      "chips that reached the tray without a received fill slip (unrecorded fills), or a drop "
                      "counted high")
    else:
        causes.append("the cash won less than the recorded play: rounds the players won that nobody recorded, "
                      "chips that left the tray without a credit slip (unrecorded credits), chips missing from "
                      "the tray, or a drop counted short")
    if rec.drop_gap > 0:
        causes.append(f"the counted drop is {rec.drop_gap:,.2f} above the recorded buy-ins: buy-ins not recorded, "
                      "which suggests play that was not recorded either")
    elif rec.drop_gap < 0:
        causes.append(f"the counted drop is {-rec.drop_gap:,.2f} below the recorded buy-ins: a miscount (a short "
                      "box) or a buy-in recorded that did not happen")
    return causes


def unexplained_findings_raise(report, units: list[tuple[object, Reconciliation]]) -> list[AccountingFinding]:
    """A finding for each table whose unexplained difference is beyond the casino's threshold.

    ``units``: (table, reconciliation) of the report's complete table days. Findings are
    append-only: a re-run that finds the same amount for the same table and day adds nothing;
    a different amount (a revised count, a corrected round) is a new finding beside the old.
    """
    limit = accounting_settings(report.casino).unexplained_above
    raised = []
    for table, rec in units:
        amount = rec.unexplained.quantize(Decimal("0.01"))
        if abs(amount) <= limit:
            continue
        same = AccountingFinding.objects.filter(casino_id=report.casino_id, table=table,
                                                gaming_day=report.gaming_day,
                                                code=AccountingFinding.UNEXPLAINED_DIFFERENCE, amount=amount)
        if same.exists():
            continue
        message = (f"Table {table.label}, gaming day {report.gaming_day}: the statistical win is "
                   f"{rec.difference:+,.2f} from the win had every wager been settled right; dealer errors "
                   f"({rec.errors:+,.2f}) and jackpots paid by the cage ({rec.jackpots:+,.2f}) leave "
                   f"{amount:+,.2f} unexplained (threshold {limit:,.2f}). Likely: " + "; ".join(likely_causes(rec)) + ".")
        raised.append(AccountingFinding(casino_id=report.casino_id, table=table, gaming_day=report.gaming_day,
                                        code=AccountingFinding.UNEXPLAINED_DIFFERENCE, amount=amount,
                                        message=message, created_at=timezone.now()))
    if raised:
        with transaction.atomic():
            AccountingFinding.objects.bulk_create(raised)
    return raised
