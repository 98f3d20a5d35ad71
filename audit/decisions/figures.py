"""Decision theo and play quality: what the players' own decisions gave the house beyond the edge.

Written once here for the daily report (audit/reports: its build, legend and every export), the player
ratings (audit/ratings) and the desk's advantage page, from the stored prices (models.py):

- **decisions' cost**: for each recorded decision the engine prices (the three blackjack games'
  split, hit, stand, double, insurance and even money; Ante Up 21's fold or bet; Poker or Bust's
  draw or stand, once its whole-game solve is stored), (the best action's expected value - the
  taken action's) x its stake, summed; never negative.
- **decision theo** = theo + the decisions' cost, each to the cent (so the figures shown add up).
  Theo prices the exact edge, which assumes the best play; the cost adds what the play recorded
  gave away. Hold'em Blackjack has no priced decision (nor Poker or Bust before its solve is
  stored): decision theo = theo.
- **play quality** = the decisions' cost / the priced handle (the initial stakes those decisions
  serve: the 21 bet, Ante Up 21's ANTE with its fold decision, Poker or Bust's Ante and Odds), shown as a percentage of the
  priced handle to 2 decimals; lower is better play (0.00% is the best play); none ("—") without
  a priced handle.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal(0)
#: Shown where there is no priced handle (no priced decision).
NO_QUALITY = "—"

#: The three figures' names and definitions, for the legend, the API's help texts and the pages.
DECISION_COST = (
    "Decisions' cost",
    "What the players' own decisions gave the house beyond the edge: for each recorded decision the "
    "engine prices (the three blackjack games' split, hit, stand, double and insurance; Ante Up 21's "
    "fold or bet; Poker or Bust's draw or stand), the best action's expected value less the taken "
    "action's, times its stake. 0 where no decision is priced (Hold'em Blackjack; Poker or Bust until "
    "its whole-game solve has been run for the table's rules).")
DECISION_THEO = (
    "Decision theo",
    "Theo + the decisions' cost: the theoretical win of the play as recorded (theo prices the exact "
    "edge, which assumes the best play). Hold'em Blackjack tables have no priced decisions, nor Poker "
    "or Bust tables until the whole-game solve is stored: their decision theo is their theo.")
PRICED_HANDLE = (
    "Priced handle",
    "The initial stakes the priced decisions serve: the 21 bet, Ante Up 21's ANTE when its fold "
    "decision is priced, Poker or Bust's Ante and Odds.")
PLAY_QUALITY = (
    "Play quality",
    "Decisions' cost / priced handle, as a percentage of the priced handle (e.g. \"0.84% of the priced "
    "handle\"); lower is better play, 0.00% is the best play; \"—\" without a priced handle.")


def cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def decision_cost(cost: Decimal | None) -> Decimal:
    """The decisions' cost to the cent (0 without priced decisions)."""
    return cents(cost or ZERO)


def decision_theo(theo: Decimal, cost: Decimal | None) -> Decimal:
    """Theo (to the cent) + the decisions' cost (to the cent)."""
    return cents(theo) + decision_cost(cost)


def play_quality(cost: Decimal | None, handle: Decimal | None) -> Decimal | None:
    """The decisions' cost as a percentage of the priced handle, to 2 decimals; None without one."""
    if not handle:
        return None
    return cents(100 * (cost or ZERO) / handle)


def play_quality_text(pct: Decimal | None) -> str:
    """``0.84% of the priced handle``; ``—`` without a priced handle."""
    return NO_QUALITY if pct is None else f"{pct}% of the priced handle"
