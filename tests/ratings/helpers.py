"""A hand-worked floor for the ratings: Poker or Bust tables whose edges the test sets."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from decimal import Decimal

from audit.reports.models import TheoreticalAssumption
from tables.services.rounds import round_correct, round_record, round_void
from tables.services.sessions import table_session_open
from tests.factories import DealerFactory, TableFactory, player_for, user_with_role
from tests.tables.rounds_data import ROUNDS

#: The edges the hand-worked figures use (set as the casino's assumptions, which the report reads).
ANTE_EDGE, ODDS_EDGE = Decimal("0.01"), Decimal("0.05")
DAY = datetime(2026, 3, 2).date()


def at(hhmm: str) -> datetime:
    """A time of the gaming day 2026-03-02, written in UTC (10:00 EST is 15:00 UTC)."""
    hours, minutes = hhmm.split(":")
    return datetime(2026, 3, 2, int(hours), int(minutes), tzinfo=UTC)


def set_edges() -> None:
    for wager, edge in (("ante", ANTE_EDGE), ("odds", ODDS_EDGE)):
        TheoreticalAssumption.objects.update_or_create(
            game="poker_or_bust", wager=wager, defaults={"house_edge": edge, "variance": Decimal("1"),
                                                         "note": "test edge"})


def pob_round(player: str, stake: str = "10.00", *, kind: str = "correct", seat: int = 1) -> dict:
    """Poker or Bust: the player's pair of nines beats the dealer's 31 on the Ante (the player wins
    +stake) and is below Jacks on the Odds (the player loses the stake). ``underpay``: the dealer
    paid the Ante 0 instead of +stake (the recorded pay counts)."""
    data = copy.deepcopy(ROUNDS["poker_or_bust"][kind][0])
    s = data["seats"][0]
    s["seat"], s["player"] = seat, player
    s["wagers"] = {"ante": stake, "odds": stake}
    ante_paid = "0.00" if kind == "underpay" else stake
    s["paid"] = [{"wager": "ante", "net": ante_paid}, {"wager": "odds", "net": f"-{stake}"}]
    return data


def pob_tables(*labels: str):
    """Open Poker or Bust tables (one pit, a dealer each) at 14:00 UTC of the day; and a pit boss."""
    boss = user_with_role("pit_boss", username="rating-boss")
    tables = []
    pit = None
    for label in labels:
        table = TableFactory(label=label, game="poker_or_bust", **({"pit": pit} if pit else {}))
        pit = table.pit
        table_session_open(table=table, dealer=DealerFactory(casino=pit.casino), author=boss, at=at("14:00"))
        tables.append(table)
    return boss, tables


def record(table, boss, when: str, data: dict):
    return round_record(table=table, data=data, author=boss, at=at(when))


def worked_day() -> dict:
    """The day of tests/ratings/test_hand_worked.py (its docstring works the figures)."""
    set_edges()
    boss, (table_a, table_b) = pob_tables("T-A", "T-B")
    for when in ("15:00", "15:05", "15:12"):
        record(table_a, boss, when, pob_round("P-7"))
    voided = record(table_a, boss, "15:26", pob_round("P-7"))
    round_void(round=voided.round, reason="misdeal", author=boss)
    record(table_a, boss, "15:40", pob_round("P-7"))
    record(table_a, boss, "15:50", pob_round("P-7", kind="underpay"))
    first = record(table_b, boss, "15:45", pob_round("P-7"))
    round_correct(round=first.round, revision=1, data=pob_round("P-7", "20.00"), reason="stakes were 20",
                  author=boss)
    record(table_b, boss, "15:55", pob_round("P-7"))
    # Another player at table B: rated apart, never mixed into P-7's figures.
    record(table_b, boss, "16:30", pob_round("P-9", "50.00"))
    player = player_for(table_a.pit.casino, "P-7", name="Ada Lovelace")
    return {"player": player, "a": table_a, "b": table_b}
