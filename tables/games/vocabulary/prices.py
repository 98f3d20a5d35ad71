"""The price of a recorded decision, in the one shape every game's pricing gives it
(``tables.games.decision_prices``): what each legal action was worth, which was best, and what
the one taken cost."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one hand: ``values`` per unit of ``stake`` (the 21 bet, Ante Up 21's ANTE,
    Poker or Bust's Ante; insurance: its own stake)."""

    seat: int
    hand: int
    cards: tuple[int, ...]
    action: str
    values: dict[str, float]
    best: str
    cost: float  # best value less the taken one, per unit of ``stake``
    stake: Decimal

    @property
    def cost_money(self) -> Decimal:
        """The decision's cost in money, to the hundredth of a cent (sums are rounded by the reader)."""
        return (self.stake * Decimal(repr(self.cost))).quantize(Decimal("0.0001"))


@dataclass(frozen=True, slots=True)
class RoundPrices:
    """A round's priced decisions, those left unpriced with the reason, the stakes the priced
    decisions serve per seat (play quality = cost / handle), and the dealer's cards as dealt."""

    decisions: tuple[Decision, ...]
    unpriced: tuple[tuple[int, int, str, str], ...]  # (seat, hand, action, why)
    handles: tuple[tuple[int, Decimal], ...] = ()  # (seat, handle)
    dealer: tuple[int, ...] = ()

    @property
    def cost(self) -> Decimal:
        return sum((d.cost_money for d in self.decisions), Decimal(0))
