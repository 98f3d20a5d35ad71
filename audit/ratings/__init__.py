"""Player ratings: rating sessions kept as rounds are recorded (a ``RoundProjection``), the
day's theoretical and actual win per player, the ranking, the loyalty export.

Imports: the reports' odds, the floor, the core.
"""
