"""A linked bank of Upcard Luck 21 tables with progressive lines, and a simulated day."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from audit.jackpots.services import jackpot_bank_create, jackpot_line_configure
from tables.games import GAMES
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.factories import DealerFactory, PitFactory, RulesetFactory, TableFactory, user_with_role

GAME = "upcard_luck_21"
#: Progressive lines of the test bank: (reset, increment_rate, hidden_rate, cap).
PROGRESSIVE = {
    "bust5_unsuited": ("40.00", "0.30", "0.05", None),
    "bust5_suited": ("80.00", "0.20", "0.05", "150.00"),
    "bust6_suited": ("1000.00", "0.10", "0.02", None),
}
DAY_START = datetime(2025, 3, 14, 8, 0, tzinfo=ZoneInfo("America/New_York"))
MARKER = {"21": "10.00", "upcard_luck": "5.00", "taxpayers_fortune": "1.00"}


def progressive_ruleset(casino, lines=PROGRESSIVE):
    info = GAMES[GAME]
    config = info.rules_to_dict(info.default_rules())
    config["progressive_lines"] = {
        line: {"reset": r, "increment_rate": i, "hidden_rate": h, "cap": c}
        for line, (r, i, h, c) in lines.items()
    }
    return RulesetFactory(game=GAME, casino=casino, config=config)


def linked_bank(n_tables: int = 3, *, at=DAY_START, defer=True):
    """A bank of ``n_tables`` open Upcard Luck tables, its progressive lines configured."""
    manager = user_with_role("gaming_manager", username="gm1")
    pitboss = user_with_role("pit_boss", username="pb1")
    pit = PitFactory()
    ruleset = progressive_ruleset(pit.casino)
    tables = [TableFactory(pit=pit, game=GAME, ruleset=ruleset) for _ in range(n_tables)]
    bank = jackpot_bank_create(
        casino=pit.casino,
        name="Fortune bank",
        author=manager,
        reason="new bank",
        tables=tables,
        at=at,
        defer_changes_until_hit=defer,
    )
    for table in tables:
        table_session_open(
            table=table, dealer=DealerFactory(casino=pit.casino), author=pitboss, at=at
        )
    for line, (reset, inc, hidden, cap) in PROGRESSIVE.items():
        jackpot_line_configure(
            bank=bank,
            line=line,
            progressive=True,
            reset=reset,
            increment_rate=inc,
            hidden_rate=hidden,
            cap=cap,
            author=manager,
            reason="opening configuration",
            at=at,
        )
    return bank, tables, manager, pitboss


def hit_round(
    *, dealer=("2H", "3C", "4D", "5S", "TH"), player=("AH", "KC"), seat=1, paid=None
) -> dict:
    """Player blackjack with the marker, dealer 2 up busting with len(dealer) cards."""
    seat_data = {
        "seat": seat,
        "player": f"P-{seat}",
        "wagers": dict(MARKER),
        "hands": [{"cards": list(player), "actions": []}],
    }
    if paid is not None:
        seat_data["paid"] = paid
    return {"dealer": {"cards": list(dealer)}, "seats": [seat_data]}


SIX_CARD_BUST = ("2H", "3C", "2D", "3S", "4H", "TD")


def simulated_day(tables, pitboss, *, rounds: int, seed: int = 7, start=DAY_START, extra=()):
    """Record ``rounds`` simulated rounds spread over the tables, one a minute from
    ``start``; ``extra`` is a list of (index, table, data) rounds slipped in at index."""
    rng = random.Random(seed)
    rules = tables[0].ruleset.rules()
    extra = {i: (t, d) for i, t, d in extra}
    recorded = []
    for i in range(rounds):
        at = start + timedelta(minutes=i)
        if i in extra:
            table, data = extra[i]
        else:
            table, data = (
                tables[i % len(tables)],
                GAMES[GAME].module.simulate_round(rng, rules, seats=5),
            )
        recorded.append(round_record(table=table, data=data, author=pitboss, at=at))
    return recorded


def money(value) -> Decimal:
    return Decimal(str(value))
