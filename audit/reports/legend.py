"""What each column of the daily report counts: one text per column, for the page and every export.

Written once here (from the definitions in README.md beside this file) so that the report
page's header tooltips and legend, the CSV's and XLSX's legend and the PDF's "What each
column counts" say the same thing.
"""

from __future__ import annotations

#: field -> (header, what it counts)
COLUMNS: dict[str, tuple[str, str]] = {
    "rounds": ("Rounds", "Active rounds recorded in the gaming day; voided rounds are counted apart and "
                         "left out of every money column."),
    "seats_played": ("Seats played", "Seats with a wager, counted once per round (Hold'em Blackjack: the "
                                     "players dealt into the hand)."),
    "handle": ("Handle", "Stakes wagered against the house. Taxpayer's Fortune: the markers. Hold'em "
                         "Blackjack is player against player: its handle is the chips contested in the "
                         "pots the house rakes (every chip put in, less uncalled bets handed back), not "
                         "the players' stacks nor the sum of their stakes, which counts uncalled bets."),
    "paid": ("Paid", "What the house paid out on winning wagers, jackpots included (the dealer's recorded "
                     "pay where one was recorded, else the settlement)."),
    "win": ("Win", "House win in cash: stakes lost by players less what was paid. Hold'em Blackjack: the "
                   "rake taken."),
    "hold_pct": ("Hold %", "Win / handle x 100, shown to 2 decimals."),
    "expected_win": ("Win if settled right", "The win had every wager been paid as the rules say."),
    "theo_win": ("Theo win", "Theoretical win: handle x house edge, per wager type and ruleset version "
                             "(the basis column says whether the edge is exact math or an assumption)."),
    "ci": ("95% interval", "Theoretical win +/- 1.96 standard deviations; a win outside it makes the "
                           "table an outlier (worth a look, not proof of anything)."),
    "error_cost": ("Errors lost(+)/saved(-)", "Dealer errors: recorded pay less correct pay. + the house "
                                              "lost money (overpaid), - players were shorted (underpaid)."),
    "taxes": ("TF taxes", "Taxpayer's Fortune taxes collected."),
    "jackpots": ("TF jackpots", "Taxpayer's Fortune jackpots paid."),
    "findings": ("Findings", "Open, confirmed and escalated findings by kind, with the money at stake "
                             "(dismissed and superseded ones are not counted)."),
    "dealer_rate": ("Dealer rate", "Rounds with at least one counted finding / rounds dealt; a dealer is "
                                   "flagged when far above the floor's rate (z > 3, at least 3 such rounds)."),
    "house_edge_pct": ("Edge %", "House edge of the wager type, in percent of handle."),
}


def legend() -> list[tuple[str, str]]:
    """(header, what it counts), in the order of the report's columns."""
    return list(COLUMNS.values())
