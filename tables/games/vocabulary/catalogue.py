"""The engine's vocabulary, written once: games, wagers, finding kinds and finding codes.

The bottom of the engine: plain data, importing nothing from the games above it. Every
finding code any game (or the recording service) can emit is a constant here with the
rule it stands for in :data:`FINDINGS`; every wager name a settlement or a recorded pay
can carry is a constant here with its display label in :data:`WAGERS`. The games import
their codes, rule texts and wager names from here, and so do the apps; a test
(``tests/games/test_catalogue.py``) refuses a finding code typed as a string anywhere
else in ``tables/games``.

Codes, wager names and rule texts are stored with every audit and compared by the
tests: they never change once published. A new one is added here, with its rule.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- games -------------------------------------------------------------------------------

ANTE_UP_21 = "ante_up_21"
UPCARD_LUCK_21 = "upcard_luck_21"
POKER_OR_BUST = "poker_or_bust"
HOLDEM_BLACKJACK = "holdem_blackjack"
BLACKJACK_TIE = "blackjack_tie"
#: The three games played on the shared blackjack (``blackjack.py``).
BLACKJACK_GAMES = (ANTE_UP_21, UPCARD_LUCK_21, BLACKJACK_TIE)
#: Every game the house deals against (Hold'em Blackjack is player against player).
HOUSE_GAMES = (*BLACKJACK_GAMES, POKER_OR_BUST)
ALL_GAMES = (ANTE_UP_21, UPCARD_LUCK_21, POKER_OR_BUST, HOLDEM_BLACKJACK, BLACKJACK_TIE)

# --- finding kinds -----------------------------------------------------------------------
# Overpay/underpay come from comparing recorded pays with the engine's.
OVERPAY = "overpay"
UNDERPAY = "underpay"
PROCEDURE = "procedure"
RULE_VIOLATION = "rule_violation"
FINDING_KINDS = (OVERPAY, UNDERPAY, PROCEDURE, RULE_VIOLATION)

# --- wagers ------------------------------------------------------------------------------
# The names a settlement's ``wager`` and a recorded pay's ``wager`` carry (and the keys of
# a seat's ``wagers`` in a round's JSON).

W21 = "21"
INSURANCE = "insurance"
ANTE = "ante"  # Ante Up 21's ANTE and Poker or Bust's Ante
BET = "bet"
POKER_BONUS = "poker_bonus"
UPCARD_LUCK = "upcard_luck"
TAXPAYERS_FORTUNE = "taxpayers_fortune"  # the marker placed
TAXPAYERS_FORTUNE_TAX = "taxpayers_fortune_tax"  # its tax settlement
TAXPAYERS_FORTUNE_JACKPOT = "taxpayers_fortune_jackpot"  # its jackpot settlement (stake 0)
ODDS = "odds"
POT = "pot"  # a Hold'em Blackjack seat's chips, player against player
RAKE = "rake"  # the house's settlement at Hold'em Blackjack (seat 0)
TIE_LS = "tie_LS"
TIE_RS = "tie_RS"
TIE_17 = "tie_17"
TIE_18 = "tie_18"
TIE_19 = "tie_19"
TIE_20 = "tie_20"
TIE_21 = "tie_21"
TIE_BLACKJACK = "tie_blackjack"
#: Blackjack Tie's bonus (as the paytable names it: ``paytables.TIE_BETS``) -> its wager.
TIE_WAGERS = {
    "LS": TIE_LS,
    "RS": TIE_RS,
    "17": TIE_17,
    "18": TIE_18,
    "19": TIE_19,
    "20": TIE_20,
    "21": TIE_21,
    "blackjack": TIE_BLACKJACK,
}


@dataclass(frozen=True, slots=True)
class WagerKind:
    name: str  # as stored: "21", "taxpayers_fortune_tax", "tie_LS"
    label: str  # as the pages show it
    games: tuple[str, ...]


#: Every wager name, in the order the pages list them.
WAGERS: dict[str, WagerKind] = {
    w.name: w
    for w in (
        WagerKind(W21, "21 bet", BLACKJACK_GAMES),
        WagerKind(ANTE, "Ante", (ANTE_UP_21, POKER_OR_BUST)),
        WagerKind(BET, "Bet", (ANTE_UP_21,)),
        WagerKind(POKER_BONUS, "Poker Bonus", (ANTE_UP_21,)),
        WagerKind(INSURANCE, "Insurance", BLACKJACK_GAMES),
        WagerKind(UPCARD_LUCK, "Upcard Luck", (UPCARD_LUCK_21,)),
        WagerKind(TAXPAYERS_FORTUNE, "Taxpayer's Fortune", (UPCARD_LUCK_21,)),
        WagerKind(TAXPAYERS_FORTUNE_TAX, "Taxpayer's Fortune tax", (UPCARD_LUCK_21,)),
        WagerKind(TAXPAYERS_FORTUNE_JACKPOT, "Taxpayer's Fortune jackpot", (UPCARD_LUCK_21,)),
        WagerKind(ODDS, "Odds", (POKER_OR_BUST,)),
        WagerKind(POT, "Pot", (HOLDEM_BLACKJACK,)),
        WagerKind(RAKE, "House rake", (HOLDEM_BLACKJACK,)),
        WagerKind(TIE_LS, "Tie LS (17-19)", (BLACKJACK_TIE,)),
        WagerKind(TIE_RS, "Tie RS (20, 21, BJ)", (BLACKJACK_TIE,)),
        WagerKind(TIE_BLACKJACK, "Tie blackjack", (BLACKJACK_TIE,)),
        WagerKind(TIE_17, "Tie 17", (BLACKJACK_TIE,)),
        WagerKind(TIE_18, "Tie 18", (BLACKJACK_TIE,)),
        WagerKind(TIE_19, "Tie 19", (BLACKJACK_TIE,)),
        WagerKind(TIE_20, "Tie 20", (BLACKJACK_TIE,)),
        WagerKind(TIE_21, "Tie 21", (BLACKJACK_TIE,)),
    )
}
#: wager name -> label, for the pages.
WAGER_LABELS = {name: w.label for name, w in WAGERS.items()}

# --- rule texts --------------------------------------------------------------------------
# The rule a finding quotes (its ``rule``): the card's words where the card says it, else
# the ruling or the ruleset setting. Stored with every finding: never re-worded.

# The shared blackjack (Ante Up 21, Upcard Luck 21, Blackjack Tie)
RULE_H17 = "Dealer must hit soft 17 (rule card; RULINGS.md)."
RULE_S17 = "Dealer stands on all 17s (ruleset: dealer_hits_soft_17 off)."
RULE_DEALER_DRAWS = "Dealer draws to 16 and stands on 17 or more (RULINGS.md)."
RULE_DEALER_COMPLETES = (
    "The dealer completes the hand whenever any wager on the layout still depends on it, "
    "and only then (RULINGS.md)."
)
RULE_PEEK = "Dealer peeks for blackjack with an Ace or ten-value up (ruleset: dealer_peeks)."
RULE_INSURANCE = "Insurance pays 2 to 1, at most half the 21 bet (RULINGS.md)."
RULE_INSURANCE_OFFERED = "Insurance is offered only when the dealer shows an Ace (RULINGS.md)."
RULE_DOUBLE_ON = "Double on the first two cards allowed by the ruleset (double_on)."
RULE_DAS = "Double after split (ruleset: double_after_split)."
RULE_MAX_SPLIT = "Split up to the ruleset's max_split_hands hands."
RULE_RESPLIT_ACES = "Split Aces take one card each and may not be resplit (ruleset: resplit_aces)."
RULE_SPLIT_TENS = "Only equal ranks may be split (ruleset: split_any_ten_values off)."

# Ante Up 21
RULE_ANTE_UP_ANTE = 'The "ANTE" bet may not exceed the "21" bet (rule card).'
RULE_BET = 'The "BET" must be the same amount as the "ANTE" (rule card).'
RULE_BONUS_PLAY = (
    "Players making the POKER BONUS bet must play the poker portion of the game (rule card)."
)
RULE_BONUS_AMOUNT = (
    "To play the POKER BONUS, a fixed bet (ruleset: poker_bonus_amount) is placed (rule card)."
)

# Upcard Luck 21
RULE_UL = "The side bet must not exceed the primary blackjack bet (rule card)."
RULE_TF_UL = (
    "Players who place the Upcard Luck side bet also have the option of placing a tax (rule card)."
)
RULE_TF_AMOUNT = "The minimum tax is $1, which is also the amount of the Taxpayer's Fortune bet (rule card; ruleset)."
RULE_TF_OFFERED = (
    "Taxpayer's Fortune is offered at this table only if the ruleset says so (taxpayers_fortune)."
)

# Blackjack Tie
RULE_BONUS_TOTAL = (
    "The player may only wager a total of all bonus wagers not to exceed the total of "
    "the primary blackjack wager (rule card)."
)

# Poker or Bust
RULE_WAGERS = (
    "The game begins by the player placing two mandatory Ante and Odds wagers of equal amounts."
)
RULE_PLAYER_BUST = (
    "If the player's point total goes over 31, the player has busted and both the "
    "Ante and Odds wagers are lost."
)
RULE_DEALER_DRAW = (
    "After all players have acted, the dealer will expose the down card and deliver "
    "one additional card to his/her hand. If the total of the dealer's three cards is "
    "22 or less, the dealer must take additional cards until his/her hand value "
    "exceeds 22. If the dealer's hand value totals 23 to 31, the dealer must stand "
    "and take no additional cards."
)
RULE_DEALER_BUST = (
    "If the dealer's hand goes over 31, the dealer busts (RULINGS.md: the bust "
    "stands; no further card is dealt)."
)
RULE_ALL_BUST = (
    "The dealer draws only if some player stands (RULINGS.md): when every player "
    "has busted, the dealer takes no card."
)

# Hold'em Blackjack (the card's words)
RULE_ORDER_R1 = "Action starts with the player to the left of the big blind and continues clockwise around the table."
RULE_ORDER_LATER = "Action starts with the player to the left of the dealer button and continues clockwise around the table."
RULE_MATCH = "Players may bet, check, call, raise, or fold in turn until all bets are matched."
RULE_CAP = "There is a maximum of one bet and three raises in each round."
RULE_COMPLETION = (
    "Remaining players complete their hands, in turn, going clockwise around the table."
)
RULE_BUST = "If a player exceeds 21 they can only Stand (but they are still in the game)."
RULE_MAX_CARDS = "A player may draw to a maximum of 7 cards."
RULE_SMALL_BLIND = "The Small Blind is posted by the player to the immediate left of the dealer button and is usually equal to half the Big Blind."
RULE_BIG_BLIND = "The Big Blind is posted by the player left of the Small Blind and is equal to the size of the minimum bet."
RULE_HOLDEM_ANTE = "Antes are posted by all players and are usually equal to half the Small Blind amount."
RULE_BUTTON = (
    "The dealer button is moved from player to player one position clockwise between each hand."
)
RULE_RAKE = "House ruling: rake = the table's percent of all pots, rounded down to the cent, capped; none when the hand ends in round 1."
RULE_AWARDS = "Everything put in the pot is pushed to the winners or taken as rake."
#: The catalogue's words for the bet sizes; a finding quotes them with the table's
#: multiples filled in (``holdem.state.size_rule``).
RULE_BET_SIZES = (
    "Betting is Fixed Limit in rounds 1 and 2 (a bet/raise equals the Big Blind amount, then "
    "the ruleset's round-2 multiple of it) and Spread Limit in the final round (between the "
    "ruleset's smallest and largest multiples of the Big Blind amount)."
)

# Every game
#: What a pay finding stands for (the finding itself quotes no rule: its message says it all).
RULE_PAY = (
    "A recorded pay is the player's net beyond the returned stake and must equal the engine's "
    "settlement of that wager; a pay recorded for a wager that does not exist is judged against 0."
)
#: Added by the recording service (``tables.services.round_limits``), not by a game.
RULE_TABLE_LIMITS = ("A table's limits: every wager at most the table's maximum, the main wager at least "
                     "its minimum (set per table by the gaming manager).")

# --- finding codes -----------------------------------------------------------------------

# The shared blackjack
DEALER_STOOD_SOFT_17 = "DEALER_STOOD_SOFT_17"
DEALER_STOPPED_EARLY = "DEALER_STOPPED_EARLY"
DEALER_DREW_HARD_17 = "DEALER_DREW_HARD_17"
DEALER_DREW_SOFT_17 = "DEALER_DREW_SOFT_17"
DEALER_DREW_SOFT_18_PLUS = "DEALER_DREW_SOFT_18_PLUS"
DEALER_DREW_UNNEEDED = "DEALER_DREW_UNNEEDED"
DEALER_MISSED_PEEK = "DEALER_MISSED_PEEK"
INSURANCE_ABOVE_HALF_BET = "INSURANCE_ABOVE_HALF_BET"
INSURANCE_NOT_OFFERED = "INSURANCE_NOT_OFFERED"
DOUBLE_NOT_ALLOWED = "DOUBLE_NOT_ALLOWED"
DOUBLE_AFTER_SPLIT_NOT_ALLOWED = "DOUBLE_AFTER_SPLIT_NOT_ALLOWED"
SPLIT_ABOVE_MAX_HANDS = "SPLIT_ABOVE_MAX_HANDS"
RESPLIT_ACES_NOT_ALLOWED = "RESPLIT_ACES_NOT_ALLOWED"
SPLIT_UNEQUAL_TEN_VALUES = "SPLIT_UNEQUAL_TEN_VALUES"
# Ante Up 21
ANTE_ABOVE_21_BET = "ANTE_ABOVE_21_BET"
BET_NOT_EQUAL_ANTE = "BET_NOT_EQUAL_ANTE"
POKER_BONUS_WITH_FOLD = "POKER_BONUS_WITH_FOLD"
POKER_BONUS_WRONG_AMOUNT = "POKER_BONUS_WRONG_AMOUNT"
# Upcard Luck 21
UPCARD_LUCK_ABOVE_21_BET = "UPCARD_LUCK_ABOVE_21_BET"
TAXPAYERS_FORTUNE_WITHOUT_UPCARD_LUCK = "TAXPAYERS_FORTUNE_WITHOUT_UPCARD_LUCK"
TAXPAYERS_FORTUNE_WRONG_AMOUNT = "TAXPAYERS_FORTUNE_WRONG_AMOUNT"
TAXPAYERS_FORTUNE_NOT_OFFERED = "TAXPAYERS_FORTUNE_NOT_OFFERED"
# Blackjack Tie
TIE_BONUSES_ABOVE_PRIMARY = "TIE_BONUSES_ABOVE_PRIMARY"
# Poker or Bust
WAGER_MISSING = "WAGER_MISSING"
ANTE_ODDS_UNEQUAL = "ANTE_ODDS_UNEQUAL"
CARDS_AFTER_BUST = "CARDS_AFTER_BUST"
DEALER_STOOD_SHORT = "DEALER_STOOD_SHORT"
DEALER_DREW_ON_STANDING_TOTAL = "DEALER_DREW_ON_STANDING_TOTAL"
DEALER_DREW_AFTER_BUST = "DEALER_DREW_AFTER_BUST"
DEALER_DREW_ALL_BUST = "DEALER_DREW_ALL_BUST"
# Hold'em Blackjack
BUTTON_WRONG_SEAT = "BUTTON_WRONG_SEAT"
OUT_OF_TURN = "OUT_OF_TURN"
CHECK_FACING_BET = "CHECK_FACING_BET"
CALL_WRONG_AMOUNT = "CALL_WRONG_AMOUNT"
ALL_IN_WRONG_AMOUNT = "ALL_IN_WRONG_AMOUNT"
BETTING_NOT_COMPLETE = "BETTING_NOT_COMPLETE"
AWARDS_DO_NOT_BALANCE = "AWARDS_DO_NOT_BALANCE"
ANTE_MISSING = "ANTE_MISSING"
ANTE_WRONG_AMOUNT = "ANTE_WRONG_AMOUNT"
BLIND_MISSING = "BLIND_MISSING"
BLIND_WRONG_SEAT = "BLIND_WRONG_SEAT"
BLIND_WRONG_AMOUNT = "BLIND_WRONG_AMOUNT"
BET_WRONG_SIZE = "BET_WRONG_SIZE"
FINAL_BET_OUT_OF_SPREAD = "FINAL_BET_OUT_OF_SPREAD"
RAISE_CAP_EXCEEDED = "RAISE_CAP_EXCEEDED"
HIT_ON_BUST = "HIT_ON_BUST"
HIT_PAST_MAX_CARDS = "HIT_PAST_MAX_CARDS"
RAKE_ABOVE_EXPECTED = "RAKE_ABOVE_EXPECTED"
RAKE_BELOW_EXPECTED = "RAKE_BELOW_EXPECTED"
# Every game: recorded pays
PAY_ABOVE_EXPECTED = "PAY_ABOVE_EXPECTED"
PAY_BELOW_EXPECTED = "PAY_BELOW_EXPECTED"
# The recording service: the table's limits
WAGER_ABOVE_TABLE_MAX = "WAGER_ABOVE_TABLE_MAX"
WAGER_BELOW_TABLE_MIN = "WAGER_BELOW_TABLE_MIN"

#: How a finding's own ``rule`` field relates to its catalogue entry:
QUOTES_RULE = "rule"  # it is ``rule``, or one of ``cases`` (the case's own words)
QUOTES_STAKES = "stakes"  # it is worded with the table's stakes filled in (``size_rule``)
QUOTES_NOTHING = "nothing"  # it is empty: the message says what was wrong
#: Who emits a finding besides the games' ``audit``:
ENGINE = "engine"
RECORDING_SERVICE = "tables.services.round_limits"


@dataclass(frozen=True, slots=True)
class FindingKind:
    code: str
    kind: str  # one of FINDING_KINDS
    rule: str  # the rule the code stands for
    games: tuple[str, ...]  # the games whose rounds can carry it
    cases: tuple[str, ...] = ()  # other texts a finding quotes in a particular case (the small blind's rule)
    quotes: str = QUOTES_RULE
    source: str = ENGINE


#: Every finding code, by code.
FINDINGS: dict[str, FindingKind] = {
    f.code: f
    for f in (
        # The shared blackjack
        FindingKind(DEALER_STOOD_SOFT_17, PROCEDURE, RULE_H17, BLACKJACK_GAMES),
        FindingKind(DEALER_STOPPED_EARLY, PROCEDURE, RULE_DEALER_DRAWS, BLACKJACK_GAMES),
        FindingKind(DEALER_DREW_HARD_17, PROCEDURE, RULE_DEALER_DRAWS, BLACKJACK_GAMES),
        FindingKind(DEALER_DREW_SOFT_17, PROCEDURE, RULE_S17, BLACKJACK_GAMES),
        FindingKind(DEALER_DREW_SOFT_18_PLUS, PROCEDURE, RULE_DEALER_DRAWS, BLACKJACK_GAMES),
        FindingKind(DEALER_DREW_UNNEEDED, PROCEDURE, RULE_DEALER_COMPLETES, BLACKJACK_GAMES),
        FindingKind(DEALER_MISSED_PEEK, PROCEDURE, RULE_PEEK, BLACKJACK_GAMES),
        FindingKind(INSURANCE_ABOVE_HALF_BET, RULE_VIOLATION, RULE_INSURANCE, BLACKJACK_GAMES),
        FindingKind(INSURANCE_NOT_OFFERED, RULE_VIOLATION, RULE_INSURANCE_OFFERED, BLACKJACK_GAMES),
        FindingKind(DOUBLE_NOT_ALLOWED, RULE_VIOLATION, RULE_DOUBLE_ON, BLACKJACK_GAMES),
        FindingKind(DOUBLE_AFTER_SPLIT_NOT_ALLOWED, RULE_VIOLATION, RULE_DAS, BLACKJACK_GAMES),
        FindingKind(SPLIT_ABOVE_MAX_HANDS, RULE_VIOLATION, RULE_MAX_SPLIT, BLACKJACK_GAMES),
        FindingKind(RESPLIT_ACES_NOT_ALLOWED, RULE_VIOLATION, RULE_RESPLIT_ACES, BLACKJACK_GAMES),
        FindingKind(SPLIT_UNEQUAL_TEN_VALUES, RULE_VIOLATION, RULE_SPLIT_TENS, BLACKJACK_GAMES),
        # Ante Up 21
        FindingKind(ANTE_ABOVE_21_BET, RULE_VIOLATION, RULE_ANTE_UP_ANTE, (ANTE_UP_21,)),
        FindingKind(BET_NOT_EQUAL_ANTE, RULE_VIOLATION, RULE_BET, (ANTE_UP_21,)),
        FindingKind(POKER_BONUS_WITH_FOLD, RULE_VIOLATION, RULE_BONUS_PLAY, (ANTE_UP_21,)),
        FindingKind(POKER_BONUS_WRONG_AMOUNT, RULE_VIOLATION, RULE_BONUS_AMOUNT, (ANTE_UP_21,)),
        # Upcard Luck 21
        FindingKind(UPCARD_LUCK_ABOVE_21_BET, RULE_VIOLATION, RULE_UL, (UPCARD_LUCK_21,)),
        FindingKind(TAXPAYERS_FORTUNE_WITHOUT_UPCARD_LUCK, RULE_VIOLATION, RULE_TF_UL, (UPCARD_LUCK_21,)),
        FindingKind(TAXPAYERS_FORTUNE_WRONG_AMOUNT, RULE_VIOLATION, RULE_TF_AMOUNT, (UPCARD_LUCK_21,)),
        FindingKind(TAXPAYERS_FORTUNE_NOT_OFFERED, RULE_VIOLATION, RULE_TF_OFFERED, (UPCARD_LUCK_21,)),
        # Blackjack Tie
        FindingKind(TIE_BONUSES_ABOVE_PRIMARY, RULE_VIOLATION, RULE_BONUS_TOTAL, (BLACKJACK_TIE,)),
        # Poker or Bust
        FindingKind(WAGER_MISSING, RULE_VIOLATION, RULE_WAGERS, (POKER_OR_BUST,)),
        FindingKind(ANTE_ODDS_UNEQUAL, RULE_VIOLATION, RULE_WAGERS, (POKER_OR_BUST,)),
        FindingKind(CARDS_AFTER_BUST, PROCEDURE, RULE_PLAYER_BUST, (POKER_OR_BUST,)),
        FindingKind(DEALER_STOOD_SHORT, PROCEDURE, RULE_DEALER_DRAW, (POKER_OR_BUST,)),
        FindingKind(DEALER_DREW_ON_STANDING_TOTAL, PROCEDURE, RULE_DEALER_DRAW, (POKER_OR_BUST,)),
        FindingKind(DEALER_DREW_AFTER_BUST, PROCEDURE, RULE_DEALER_BUST, (POKER_OR_BUST,)),
        FindingKind(DEALER_DREW_ALL_BUST, PROCEDURE, RULE_ALL_BUST, (POKER_OR_BUST,)),
        # Hold'em Blackjack
        FindingKind(BUTTON_WRONG_SEAT, PROCEDURE, RULE_BUTTON, (HOLDEM_BLACKJACK,)),
        FindingKind(OUT_OF_TURN, PROCEDURE, RULE_ORDER_R1, (HOLDEM_BLACKJACK,),
                    cases=(RULE_ORDER_LATER, RULE_COMPLETION)),
        FindingKind(CHECK_FACING_BET, PROCEDURE, RULE_MATCH, (HOLDEM_BLACKJACK,)),
        FindingKind(CALL_WRONG_AMOUNT, PROCEDURE, RULE_MATCH, (HOLDEM_BLACKJACK,)),
        FindingKind(ALL_IN_WRONG_AMOUNT, PROCEDURE, RULE_MATCH, (HOLDEM_BLACKJACK,)),
        FindingKind(BETTING_NOT_COMPLETE, PROCEDURE, RULE_MATCH, (HOLDEM_BLACKJACK,)),
        FindingKind(AWARDS_DO_NOT_BALANCE, PROCEDURE, RULE_AWARDS, (HOLDEM_BLACKJACK,)),
        FindingKind(ANTE_MISSING, RULE_VIOLATION, RULE_HOLDEM_ANTE, (HOLDEM_BLACKJACK,)),
        FindingKind(ANTE_WRONG_AMOUNT, RULE_VIOLATION, RULE_HOLDEM_ANTE, (HOLDEM_BLACKJACK,)),
        # the blinds' three codes quote the small blind's rule, or the big blind's
        *(FindingKind(code, RULE_VIOLATION, RULE_SMALL_BLIND, (HOLDEM_BLACKJACK,), cases=(RULE_BIG_BLIND,))
          for code in (BLIND_MISSING, BLIND_WRONG_SEAT, BLIND_WRONG_AMOUNT)),
        # the sizes' two codes word the rule from the table's stakes
        *(FindingKind(code, RULE_VIOLATION, RULE_BET_SIZES, (HOLDEM_BLACKJACK,), quotes=QUOTES_STAKES)
          for code in (BET_WRONG_SIZE, FINAL_BET_OUT_OF_SPREAD)),
        FindingKind(RAISE_CAP_EXCEEDED, RULE_VIOLATION, RULE_CAP, (HOLDEM_BLACKJACK,)),
        FindingKind(HIT_ON_BUST, RULE_VIOLATION, RULE_BUST, (HOLDEM_BLACKJACK,)),
        FindingKind(HIT_PAST_MAX_CARDS, RULE_VIOLATION, RULE_MAX_CARDS, (HOLDEM_BLACKJACK,)),
        # The rake: the house took more (it underpaid the players) or less than due
        FindingKind(RAKE_ABOVE_EXPECTED, UNDERPAY, RULE_RAKE, (HOLDEM_BLACKJACK,)),
        FindingKind(RAKE_BELOW_EXPECTED, OVERPAY, RULE_RAKE, (HOLDEM_BLACKJACK,)),
        # Every game: recorded pays (``base.compare_recorded``)
        FindingKind(PAY_ABOVE_EXPECTED, OVERPAY, RULE_PAY, ALL_GAMES, quotes=QUOTES_NOTHING),
        FindingKind(PAY_BELOW_EXPECTED, UNDERPAY, RULE_PAY, ALL_GAMES, quotes=QUOTES_NOTHING),
        # The table's limits, every game but Hold'em (the recording service)
        *(FindingKind(code, RULE_VIOLATION, RULE_TABLE_LIMITS, HOUSE_GAMES, source=RECORDING_SERVICE)
          for code in (WAGER_ABOVE_TABLE_MAX, WAGER_BELOW_TABLE_MIN)),
    )
}
