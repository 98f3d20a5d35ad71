"""The floor's REST API under /api/v1/: casinos, pits, tables, dealers, rulesets, sessions,
rounds (recording, correcting, voiding), accounting's and closing's routes, players.

Imports: the floor's models and services, the core.
"""
