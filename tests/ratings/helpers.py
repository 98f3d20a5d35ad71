"""A hand-worked floor for the ratings: Poker or Bust tables whose edges the test sets."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from decimal import Decimal

from audit.reports.models import TheoreticalAssumption
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.factories import DealerFactory, TableFactory, user_with_role
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
