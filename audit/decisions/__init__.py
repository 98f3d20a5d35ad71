"""The price of every recorded decision: what each player's play gave the house.

Derived data kept per (round, seat) from the round's current revision by the engine's pricing
(``tables.games.decision_prices``), right after the round's commit: see README.md. The
figures read from them (decision theo, play quality) are defined once in ``figures.py``.

Imports: the floor (rounds, tables, the history's days), the core, the engine. Read by the
reports (decision theo, and the re-audit remakes the prices), the ratings, advantage play and
the rollups' rebuild; it reads none of them.
"""
