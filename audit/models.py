"""Audit records (findings, jackpot ledger, reconciliation reports) live here."""
