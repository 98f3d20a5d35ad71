"""The price of every recorded decision: what each player's play gave the house (issue #37).

Derived data kept per (round, seat) from the round's current revision by the engine's pricing
(``tables.games.blackjack.decisions``), right after the round's commit: see README.md.
"""
