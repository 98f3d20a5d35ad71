"""The rule cards' figures, once. Every pay is "N to 1" (the winner keeps the stake).

Where a card gives no table (Poker Bonus, Poker or Bust Odds) the default here is
illustrative and marked so: the house must set its own.
"""

from __future__ import annotations

# --- Upcard Luck 21 (rules/upcard-luck-21.txt) -------------------------------------------
UPCARD_LUCK_CATEGORIES = (
    "ace_jack_spades",  # A-J of spades
    "suited_3_8",  # 3-8 suited
    "suited_11",  # two suited non-Ace cards totalling 11, other than 3-8 (2-9, 4-7, 5-6)
    "blackjack",  # Ace + ten-value, any other
    "nine_ten_eleven",  # hard 9, 10 or 11
    "eighteen_to_twenty",  # 18, 19, 20 (A-7, A-8, A-9 count 18, 19, 20)
)
UPCARD_LUCK_CATEGORY_NAMES = {
    "ace_jack_spades": "A-J of spades",
    "suited_3_8": "3-8 suited",
    "suited_11": "suited 11",
    "blackjack": "blackjack",
    "nine_ten_eleven": "9, 10 or 11",
    "eighteen_to_twenty": "18, 19 or 20",
}
UPCARD_LUCK_PAYTABLES = {
    "A": {"ace_jack_spades": 100, "suited_3_8": 30, "suited_11": 15, "blackjack": 5,
          "nine_ten_eleven": 4, "eighteen_to_twenty": 3},
    "B": {"ace_jack_spades": 80, "suited_3_8": 30, "suited_11": 15, "blackjack": 5,
          "nine_ten_eleven": 4, "eighteen_to_twenty": 3},
    "C": {"ace_jack_spades": 100, "suited_3_8": 30, "suited_11": 12, "blackjack": 5,
          "nine_ten_eleven": 4, "eighteen_to_twenty": 3},
}
#: Dealer upcards (blackjack points) for which Upcard Luck and the tax are live.
UPCARD_LUCK_LIVE_UPCARDS = frozenset({2, 3, 4, 5, 6, 7})

# --- Taxpayer's Fortune ------------------------------------------------------------------
TAX_CATEGORIES = (
    "ace_jack_spades", "suited_3_8", "suited_11", "blackjack", "nine_ten_eleven",
    "twenty", "eighteen_nineteen",
)
TAX_SCHEDULE = {
    "ace_jack_spades": 5, "suited_3_8": 5, "suited_11": 5, "blackjack": 2,
    "nine_ten_eleven": 2, "twenty": 1, "eighteen_nineteen": 0,
}
TAXPAYERS_FORTUNE_MARKER = 1  # dollars: "The minimum tax is $1, which is also the amount of the bet"

#: Jackpot lines: the dealer's busted hand size and the player's blackjack kind.
JACKPOT_LINES = tuple(
    f"bust{n}_{kind}" for n in ("5", "6", "7", "8plus") for kind in ("unsuited", "suited")
)


def jackpot_line_key(dealer_cards: int, suited: bool) -> str:
    """The jackpot line of a blackjack against a dealer who busted with ``dealer_cards`` cards
    (5 or more): one of :data:`JACKPOT_LINES`."""
    return f"bust{'8plus' if dealer_cards >= 8 else dealer_cards}_{'suited' if suited else 'unsuited'}"


JACKPOT_LINE_NAMES = {
    f"bust{n}_{kind}": f"dealer busts with {label} cards, {kind} blackjack"
    for n, label in (("5", "5"), ("6", "6"), ("7", "7"), ("8plus", "8 or more"))
    for kind in ("unsuited", "suited")
}


def _column(u5, s5, u6, s6, u7, s7, u8, s8):
    return {"bust5_unsuited": u5, "bust5_suited": s5, "bust6_unsuited": u6, "bust6_suited": s6,
            "bust7_unsuited": u7, "bust7_suited": s7, "bust8plus_unsuited": u8, "bust8plus_suited": s8}


#: Dollars by the number of decks in the shoe.
JACKPOT_COLUMNS = {
    1: _column(75, 150, 600, 1200, 5000, 10000, 20000, 20000),
    2: _column(50, 100, 500, 1000, 5000, 10000, 20000, 20000),
    6: _column(40, 80, 400, 1000, 4000, 10000, 20000, 20000),
    8: _column(40, 80, 400, 1000, 4000, 10000, 20000, 20000),
}

# --- Ante Up 21 Poker Bonus (no table on the card: illustrative, the house must set) -----
POKER_BONUS_CATEGORIES = ("suited_three_of_a_kind", "three_of_a_kind", "suited_pair", "pair")
POKER_BONUS_PAYTABLE = {"suited_three_of_a_kind": 25, "three_of_a_kind": 25, "suited_pair": 11, "pair": 11}
POKER_BONUS_AMOUNT = 1  # dollars, "a $1.00 bet is placed in the POKER BONUS spot"

# --- Blackjack Tie (rules/blackjack-tie.txt) ---------------------------------------------
TIE_BETS = ("LS", "RS", "17", "18", "19", "20", "21", "blackjack")
TIE_PAYTABLE = {"LS": 18, "RS": 24, "17": 50, "18": 55, "19": 55, "20": 25, "21": 250, "blackjack": 400}

# --- Poker or Bust Odds (the card says "see layout": illustrative, the house must set) ---
POKER_OR_BUST_CATEGORIES = (
    "royal_flush", "suited_three_of_a_kind", "straight_flush", "three_of_a_kind",
    "straight", "flush", "pair", "high_card",
)
# Priced with tables/games/poker_or_bust/game_math.py: the earlier 50/40/20/10/3/2/1 table gave the
# player about a 40% edge on the Odds (a player who draws to 25-27 makes a flush, straight or
# high pair on over a third of hands). This one leaves the house about 3% (3.06% +- 0.10%) of the combined
# Ante + Odds action against the best simple drawing strategy found.
POKER_OR_BUST_ODDS_PAYTABLE = {
    "royal_flush": 20, "suited_three_of_a_kind": 10, "straight_flush": 5,
    "three_of_a_kind": 2, "straight": 1, "flush": 1, "pair_jacks_or_better": 1,
}
