"""Poker or Bust: three-card poker values (``three_card_poker``), the round and its one
parser (``rounds``), the dealer's rule, settlement and audit (``game``); above them the
simulator and the game math, which the game never imports."""
