"""Daily rollups: the surveillance desk's dealer and pattern figures per gaming day, kept as rounds
are recorded, corrected and voided (a ``RoundProjection``) and as findings are reviewed. Derived
and rebuildable from the raw rounds and findings, so not part of the append-only audit set.

Imports: audit's selectors (the pay rule), the decisions' rebuild (run with the rollups'), the floor, the core.
"""
