"""Advantage play: the running count of each round (``lines``), the bet spread against it and
its statistic (``count``, ``bets``, ``stats``: pure Python), stored day results, the page and API.

Imports: the floor, the core, the engine; reports' signal (a report queues the day's recount).
"""
