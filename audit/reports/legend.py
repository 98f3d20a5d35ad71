"""What each column of the daily report counts: one text per column, for the page and every export.

Written once here (from the definitions in README.md beside this file) so that the report
page's header tooltips and legend, the CSV's and XLSX's legend and the PDF's "What each
column counts" say the same thing.
"""

from __future__ import annotations

from audit.decisions.figures import DECISION_COST, DECISION_THEO, PLAY_QUALITY, PRICED_HANDLE

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
    "handle_hold_pct": ("Hold % of handle", "Recorded-play win / handle x 100, shown to 2 decimals: near the house edge; not the regulators' hold % (win / drop)."),
    "expected_win": ("Win if settled right", "The win had every wager been paid as the rules say."),
    "theo_win": ("Theo win", "Theoretical win: handle x house edge, per wager type and ruleset version "
                             "(the basis column says whether the edge is exact math or an assumption)."),
    "ci": ("95% interval", "Theoretical win +/- 1.96 standard deviations; a win outside it makes the "
                           "table an outlier (worth a look, not proof of anything)."),
    # The players' decisions (audit/decisions/figures.py: the same texts as the ratings').
    "decision_cost": DECISION_COST,
    "decision_theo": DECISION_THEO,
    "decision_handle": PRICED_HANDLE,
    "play_quality_pct": PLAY_QUALITY,
    "error_cost": ("Errors lost(+)/saved(-)", "Dealer errors: recorded pay less correct pay. + the house "
                                              "lost money (overpaid), - players were shorted (underpaid)."),
    "taxes": ("TF taxes", "Taxpayer's Fortune taxes collected."),
    "jackpots": ("TF jackpots", "Taxpayer's Fortune jackpots paid."),
    "findings": ("Findings", "Open, confirmed and escalated findings by kind, with the money at stake "
                             "(dismissed and superseded ones are not counted)."),
    "dealer_rate": ("Dealer rate", "Rounds with at least one counted finding / rounds dealt; a dealer is "
                                   "flagged when far above the floor's rate (z > 3, at least 3 such rounds)."),
    "house_edge_pct": ("Edge %", "House edge of the wager type, in percent of handle."),
    # The cash figures (ACCOUNTING.md; COMAR 36.05.03.25, K.A.R. 112-108-51, OAC 3772-11-43).
    "opener": ("Opener", "Chips on the table when the gaming day began: the day's first opener slip."),
    "closer": ("Closer", "Chips on the table when the gaming day ended: the day's last closer slip."),
    "fills": ("Fills", "Chips the cage sent to the table: fill slips received at the table."),
    "credits": ("Credits", "Chips the table returned to the cage: credit slips received."),
    "drop": ("Drop", "Cash and markers counted in the table's drop box (the signed soft count); "
                     "\"count pending\" until a second counter signs it."),
    "estimated_drop": ("Estimated drop", "Cash and marker buy-ins recorded at the table (chips from "
                                         "another table are not drop)."),
    "stat_win": ("Statistical win", "Closer - opener + drop + credits - fills. Unknown, never zero, until "
                                    "the count is signed; a pit, game or the floor adds its complete tables "
                                    "only and says how many it left out."),
    "drop_hold_pct": ("Hold % (win / drop)", "Statistical win / drop x 100: the hold regulators and published "
                                             "statistics use (blackjack typically 12-20%)."),
    "cash_difference": ("Cash - play", "Statistical win less the win had every wager been settled right "
                                       "(complete tables only)."),
    "cash_errors": ("of which dealer errors", "Win less the win if settled right: a wrong pay recorded as "
                                              "the pay made moved the tray's chips, so the cash has it too."),
    "cash_jackpots": ("of which TF jackpots", "Taxpayer's Fortune jackpots: paid by the cage, not from the "
                                              "tray, so the cash wins them back against the recorded play."),
    "cash_unexplained": ("Unexplained", "What is left: unrecorded rounds, fills or credits, or a miscount. "
                                        "Beyond the casino's threshold it is a finding for surveillance."),
    "drop_gap": ("Drop - buy-ins", "Counted drop less the recorded buy-ins: above zero points at buy-ins "
                                   "and play not recorded, below at a miscount. It does not move the win."),
    "why": ("Why it won or lost", "The win split into the house edge (theoretical win), luck (where the "
                                  "settled-right win sits in its distribution) and dealer error."),
}


def legend() -> list[tuple[str, str]]:
    """(header, what it counts), in the order of the report's columns."""
    return list(COLUMNS.values())
