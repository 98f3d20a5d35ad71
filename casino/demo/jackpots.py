"""A simulated gaming day on a linked bank of Upcard Luck 21 tables, for demos, the
screenshot and manual checks. Everything goes through the services, as live play does."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from audit.jackpots.services import (
    jackpot_adjustment_decide,
    jackpot_adjustment_request,
    jackpot_award_pay,
    jackpot_bank_create,
    jackpot_line_configure,
)
from casino.models import Casino, CasinoMembership
from casino.roles import ROLE_GROUPS, sync_role_groups
from tables.games import GAMES
from tables.models import Dealer, Pit, Table
from tables.services.floor import floor_object_save, ruleset_create
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open

GAME = "upcard_luck_21"
LINES = {  # line: (reset, increment_rate, hidden_rate, cap)
    "bust5_unsuited": ("40.00", "0.30", "0.05", None),
    "bust5_suited": ("80.00", "0.20", "0.05", "150.00"),
    "bust6_suited": ("1000.00", "0.10", "0.02", None),
    "bust7_suited": ("10000.00", "0.05", "0.01", None),
}
HITS = {  # round index: (dealer cards, player cards)
    25: (("2H", "3C", "4D", "5S", "TH"), ("AH", "KC")),
    70: (("2H", "3C", "4D", "5S", "TH"), ("AS", "KS")),
    110: (("2H", "3C", "2D", "3S", "4H", "TD"), ("AD", "QD")),
    150: (("2H", "3C", "2D", "3S", "4H", "TD"), ("AH", "KC")),
}


def progressive_config() -> dict:
    """Upcard Luck 21's default rules with the demo's lines paid from meters (both demos)."""
    info = GAMES[GAME]
    config = info.rules_to_dict(info.default_rules())
    config["progressive_lines"] = {
        line: {"reset": r, "increment_rate": i, "hidden_rate": h, "cap": c}
        for line, (r, i, h, c) in LINES.items()
    }
    return config


def _user(username: str, role: str):
    user, _ = get_user_model().objects.get_or_create(
        username=username, defaults={"first_name": username}
    )
    user.groups.add(Group.objects.get(name=ROLE_GROUPS[role]))
    if role == "gaming_manager" and not user.is_staff:
        user.is_staff = True  # gaming managers work in the admin (as load_demo's do)
        user.save(update_fields=["is_staff"])
    return user


def jackpot_demo_day_load(*, rounds: int = 180, seed: int = 2026, day=None) -> dict:
    sync_role_groups()
    manager, manager2 = (
        _user("jp-manager", "gaming_manager"),
        _user("jp-manager2", "gaming_manager"),
    )
    pitboss, finance = _user("jp-pitboss", "pit_boss"), _user("jp-finance", "finance")
    zone = ZoneInfo("America/New_York")
    start = (
        datetime.combine(day, datetime.min.time(), zone).replace(hour=10)
        if day
        else datetime(2025, 3, 14, 10, 0, tzinfo=zone)
    )
    casino = Casino(
        name="Fortune Demo Casino", time_zone="America/New_York", gaming_day_start_hour=6
    )
    floor_object_save(obj=casino, author=manager, reason="jackpot demo")
    for user in (manager, manager2, pitboss, finance):  # they work at the demo casino
        CasinoMembership.objects.get_or_create(user=user, casino=casino)
    pit = floor_object_save(
        obj=Pit(casino=casino, name="Fortune pit"), author=manager, reason="jackpot demo"
    )
    info = GAMES[GAME]
    ruleset = ruleset_create(
        casino=casino,
        game=GAME,
        name="Upcard Luck progressive",
        config=progressive_config(),
        author=manager,
        reason="jackpot demo",
    )
    tables = []
    for n in range(1, 4):
        table = floor_object_save(
            # $5 minimum: the simulated play bets from $5 (see casino/demo/floor.py).
            obj=Table(pit=pit, label=f"UL-P{n}", game=GAME, ruleset=ruleset, seats=7, min_bet=Decimal("5.00")),
            author=manager,
            reason="jackpot demo",
        )
        dealer = floor_object_save(
            obj=Dealer(casino=casino, employee_number=f"JP{n:03d}", name=f"Dealer {n}"),
            author=manager,
            reason="jackpot demo",
        )
        tables.append((table, dealer))
    # A table taking Taxpayer's Fortune markers opens only in a bank: the bank comes first.
    bank = jackpot_bank_create(
        casino=casino,
        name="Taxpayer's Fortune bank A",
        author=manager,
        reason="linked bank",
        tables=[table for table, _dealer in tables],
        at=start,
    )
    for table, dealer in tables:
        table_session_open(table=table, dealer=dealer, author=pitboss, at=start)
    tables = [table for table, _dealer in tables]
    for line, (reset, inc, hidden, cap) in LINES.items():
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
            at=start,
        )
    rng = random.Random(seed)
    rules = ruleset.rules()
    for i in range(rounds):
        at = start + timedelta(minutes=2 * i)
        if i in HITS:
            dealer_cards, player = HITS[i]
            data = {
                "dealer": {"cards": list(dealer_cards)},
                "seats": [
                    {
                        "seat": 3,
                        "player": f"P-{100 + i}",
                        "hands": [{"cards": list(player), "actions": []}],
                        "wagers": {
                            "21": "25.00",
                            "upcard_luck": "10.00",
                            "taxpayers_fortune": "1.00",
                        },
                    }
                ],
            }
        else:
            data = info.module.simulate_round(rng, rules, seats=rng.randint(3, 6))
        round_record(table=tables[i % 3], data=data, author=pitboss, at=at)
    end = start + timedelta(minutes=2 * rounds)
    for award in bank.awards.order_by("won_at")[:3]:
        extra = (
            {"w2g_reference": "W2G-2025-0314-01", "winner_name": "Demo Winner"}
            if award.w2g_required
            else {}
        )
        jackpot_award_pay(award=award, author=pitboss, at=end, **extra)
    request = jackpot_adjustment_request(
        bank=bank,
        line="bust5_unsuited",
        amount="-0.60",
        reason="malfunction_correction",
        note="a tax was keyed twice on UL-P2",
        author=finance,
        at=end,
    )
    jackpot_adjustment_decide(
        adjustment=request, approve=True, author=manager2, at=end + timedelta(minutes=5)
    )
    jackpot_adjustment_request(
        bank=bank,
        line="bust6_suited",
        amount="-2.00",
        reason="game_closing",
        note="awaiting approval",
        author=finance,
        at=end + timedelta(minutes=6),
    )
    return {"bank": bank, "day": start.date(), "users": [manager, manager2, pitboss, finance]}
