"""Finance's daily reconciliation: the re-audit, the report's lines, cash, liability, the
report files (CSV, XLSX, PDF), the Celery runs that build them, the period view.

Imports: jackpots, rollups, audit's selectors, the floor, the core, the engine.
"""
