"""The MTL as rows, one per transaction of a patron on the log: the CSV and the PDF share them."""

from __future__ import annotations

from casino.local_time import local_time_text

from .models import CASH_IN

MTL_COLUMNS = [
    ("identifier", "Patron (identifier)"), ("name", "Name"), ("local_time", "Time (casino's zone)"),
    ("direction", "Direction"), ("amount", "Amount"), ("place", "Table or cage"), ("seat", "Seat"),
    ("ref", "Record"), ("cash_in", "Patron's cash in (day)"), ("cash_out", "Patron's cash out (day)"),
]


def mtl_rows(state) -> list[dict]:
    rows = []
    for patron in state.mtl:
        for t in patron.transactions:
            rows.append({"identifier": patron.identifier, "name": patron.name,
                         "local_time": local_time_text(t.recorded_at, state.casino),
                         "direction": "cash in" if t.direction == CASH_IN else "cash out", "amount": t.amount,
                         "place": t.place, "seat": t.seat or "", "ref": t.ref, "cash_in": patron.cash_in,
                         "cash_out": patron.cash_out})
    return rows
