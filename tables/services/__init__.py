"""The floor's writes: a round's actions (``rounds``: record, correct, void), table sessions
and dealers, idempotent API calls, the pays check, the table limits.

Imports: the floor's models, the engine, the core; what follows a round outside the floor goes
through ``tables.round_effects``.
"""
