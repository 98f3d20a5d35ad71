"""Taxpayer's Fortune jackpot banks, meters and their double-entry ledger: a ``RoundLedger`` of
the recorded rounds (``meters``). See README.md in this folder for the ledger design and the
rulings made here.

Imports: the floor, the core, the engine.
"""
