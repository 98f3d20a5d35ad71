"""The three blackjack games, Ante Up 21, Upcard Luck 21 and Blackjack Tie: one round model
and parser (``rounds``), the checks (``checks``) and the one audit (``audit``) they share,
each game's side wagers as a ``GameSpec``; above them the simulator and the game math,
which no game imports."""
