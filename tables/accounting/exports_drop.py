"""The day's buy-ins and counts as rows for the app's file writer (exports.py)."""

from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo

from django.utils import timezone

from tables.accounting.selectors_drop import boxes_of_day, buy_ins_of_day

BUY_IN_COLUMNS = (("table", "Table"), ("seat", "Seat"), ("time", "Time (local)"),
                  ("kind", "Kind"), ("amount", "Amount"), ("player", "Player"),
                  ("recorded_by", "Recorded by"), ("status", "Status"),
                  ("void_reason", "Void reason"), ("corrects", "Corrects buy-in"),
                  ("id", "Buy-in"))
COUNT_COLUMNS = (("table", "Table"), ("dropped", "Dropped"), ("revision", "Revision"),
                 ("status", "Status"), ("currency", "Currency"), ("chips", "Chips"),
                 ("markers", "Markers"), ("coupons", "Coupons"), ("drop", "Drop"),
                 ("estimated_drop", "Estimated drop"), ("difference", "Drop - estimate"),
                 ("counted_by", "Counted by"), ("signed_by", "Signed by"),
                 ("reason", "Reason"))


def _local(moment, zone: str) -> str:
    return timezone.localtime(moment, timezone=ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M")


def buy_in_rows(casino_ids, day: date) -> list[dict]:
    rows = []
    for b in buy_ins_of_day(casino_ids, day).select_related("casino"):
        void = getattr(b, "void", None)
        rows.append({"table": b.table.label, "seat": b.seat, "time": _local(b.recorded_at, b.casino.time_zone),
                     "kind": b.kind, "amount": b.amount, "player": b.player_identifier or "",
                     "recorded_by": str(b.recorded_by), "status": "voided" if void else "stands",
                     "void_reason": void.reason if void else "", "corrects": b.corrects_id or "", "id": b.pk})
    return rows


def count_rows(casino_ids, day: date) -> list[dict]:
    rows = []
    for row in boxes_of_day(casino_ids, day):
        base = {"table": row.table.label, "dropped": "yes" if row.dropped else "no",
                "estimated_drop": row.estimated}
        if not row.revisions:
            rows.append({**base, "status": "not counted"})
        current = row.current
        for c in row.revisions:
            signature = getattr(c, "signature", None)
            status = ("current" if c is current else "signed, replaced") if signature else (
                "awaiting signature" if c is row.pending else "replaced before signing")
            rows.append({**base, "revision": c.revision, "status": status, "currency": c.currency, "chips": c.chips,
                         "markers": c.markers, "coupons": c.coupons, "drop": c.drop,
                         "difference": c.drop - row.estimated if c is current else None,
                         "counted_by": str(c.counted_by), "signed_by": str(signature.signed_by) if signature else "",
                         "reason": c.reason})
    return rows
