"""Daily rollups: the surveillance desk's dealer and pattern figures per gaming day, kept as rounds
are recorded, corrected and voided and as findings are reviewed (issue #20). Derived and
rebuildable from the raw rounds and findings, so not part of the append-only audit set."""
