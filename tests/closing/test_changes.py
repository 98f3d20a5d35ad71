"""What a re-run changed: lines compared column by column (no database)."""

from __future__ import annotations

from tables.closing.services.changes import report_changes


def test_changed_added_and_removed_lines_with_only_the_columns_that_moved():
    before = {"floor:floor": {"label": "Floor", "win": "-25.00", "handle": "30.00", "rounds": 1},
              "table:7": {"label": "Pit 1 / BJ-1", "win": "-25.00", "handle": "30.00", "rounds": 1},
              "table:8": {"label": "Pit 1 / BJ-2", "win": "5.00", "handle": "5.00", "rounds": 1}}
    after = {"floor:floor": {"label": "Floor", "win": "-30.00", "handle": "30.00", "rounds": 1},
             "table:7": {"label": "Pit 1 / BJ-1", "win": "-30.00", "handle": "30.00", "rounds": 1},
             "table:9": {"label": "Pit 1 / BJ-3", "win": "0.00", "handle": "0.00", "rounds": 0}}
    assert report_changes(before, after) == [
        {"line": "floor:floor", "label": "Floor", "change": "changed", "columns": {"win": ["-25.00", "-30.00"]}},
        {"line": "table:7", "label": "Pit 1 / BJ-1", "change": "changed", "columns": {"win": ["-25.00", "-30.00"]}},
        {"line": "table:8", "label": "Pit 1 / BJ-2", "change": "removed",
         "columns": {"win": ["5.00", None], "handle": ["5.00", None], "rounds": [1, None]}},
        {"line": "table:9", "label": "Pit 1 / BJ-3", "change": "added",
         "columns": {"win": [None, "0.00"], "handle": [None, "0.00"], "rounds": [None, 0]}},
    ]


def test_the_same_figures_change_nothing():
    lines = {"floor:floor": {"label": "Floor", "win": "1.00", "findings": {"underpay": {"count": 1}}}}
    assert report_changes(lines, {k: dict(v) for k, v in lines.items()}) == []
