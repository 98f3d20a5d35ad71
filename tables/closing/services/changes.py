"""What changed between two runs of a day's report: lines compared column by column."""

from __future__ import annotations


def report_changes(before: dict, after: dict) -> list[dict]:
    """``before`` and ``after``: ``FinalRun.lines`` ("level:key" -> {"label", column: value}).
    A line in one only is ``added`` or ``removed`` (with its columns); a line in both is
    ``changed`` when a column differs, listing only those columns as [before, after]."""
    changes = []
    for line in sorted(set(before) | set(after)):
        old, new = before.get(line), after.get(line)
        label = (new or old).get("label", line)
        if old is None or new is None:
            kind = "added" if old is None else "removed"
            columns = {col: [None, v] if old is None else [v, None]
                       for col, v in (new or old).items() if col != "label"}
            changes.append({"line": line, "label": label, "change": kind, "columns": columns})
            continue
        columns = {col: [old.get(col), new.get(col)] for col in sorted(set(old) | set(new))
                   if col != "label" and old.get(col) != new.get(col)}
        if columns:
            changes.append({"line": line, "label": label, "change": "changed", "columns": columns})
    return changes
