"""Services of the daily reconciliation: runs, re-audit, combining slices, liability."""
