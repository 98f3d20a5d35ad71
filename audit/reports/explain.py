"""Why a table (a pit, a game, the floor) won or lost: the written explanation regulators ask
for when hold fluctuates (COMAR 36.05.03.25 asks for written results), drafted from the
report's own figures.

The recorded-play win splits exactly into three parts:

    win = theoretical win           (the house edge: handle x edge, the engine's math)
        + luck                      (win had every wager been settled right - theoretical win)
        - dealer errors' cost       (recorded pays - correct pays: + the house lost)

Luck is placed in its distribution: z = luck / the win's standard deviation, and whether the
settled-right win lies in the 95% interval (theo +/- 1.96 sd) the report already prints. The
figures are sums, so the same split holds for a table's day, a pit's month or a game's year.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
Z95 = Decimal("1.96")


def _money(value: Decimal) -> str:
    return f"{value.quantize(CENT, rounding=ROUND_HALF_UP):,.2f}"


def _signed(value: Decimal) -> str:
    return ("+" if value >= 0 else "-") + _money(abs(value))


@dataclass(frozen=True)
class WinExplanation:
    win: Decimal
    edge: Decimal
    luck: Decimal
    errors: Decimal
    z: Decimal | None
    percentile: Decimal | None
    within_95: bool | None

    @property
    def text(self) -> str:
        verb = "won" if self.win >= 0 else "lost"
        parts = [f"The recorded play {verb} {_money(abs(self.win))}: {_signed(self.edge)} is the house edge "
                 f"(theoretical win)"]
        if self.z is None:
            parts.append(f"{_signed(self.luck)} is luck (no spread to measure it against)")
        else:
            where = "inside" if self.within_95 else "outside"
            parts.append(f"{_signed(self.luck)} is luck (z = {self.z:+.2f}, percentile {self.percentile:.1f}, "
                         f"{where} the 95% interval)")
        if self.errors:
            who = "overpaid by the dealers" if self.errors < 0 else "players shorted by the dealers"
            parts.append(f"{_signed(self.errors)} is dealer error ({who})")
        else:
            parts.append("no dealer error was found")
        return "; ".join(parts) + "."


def win_explanation(*, win: Decimal, expected_win: Decimal, theo_win: Decimal, theo_sd: Decimal) -> WinExplanation:
    """Split ``win`` (recorded play) into edge + luck + errors. ``expected_win``: the win had
    every wager been settled right, so errors = win - expected_win = -(the report's error cost)."""
    luck = expected_win - theo_win
    errors = win - expected_win
    z = percentile = within = None
    if theo_sd > 0:
        z_float = float(luck / theo_sd)
        z = Decimal(z_float).quantize(CENT, rounding=ROUND_HALF_UP)
        percentile = Decimal(50 * (1 + math.erf(z_float / math.sqrt(2)))).quantize(Decimal("0.1"))
        within = abs(luck) <= Z95 * theo_sd
    return WinExplanation(win=win, edge=theo_win, luck=luck, errors=errors, z=z,
                          percentile=percentile, within_95=within)
