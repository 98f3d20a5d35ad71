"""Taxpayer's Fortune jackpot banks, meters and their double-entry ledger (issue #7).

See README.md in this folder for the ledger design and the rulings made here.
"""
