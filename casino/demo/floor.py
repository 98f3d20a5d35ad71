"""The demo floor of the quick start: one pit, a table of each game, dealers, a user per role."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from audit.jackpots.models import JackpotBank, JackpotBankTable
from audit.jackpots.services import (
    active_configs,
    jackpot_bank_create,
    jackpot_bank_table_add,
    jackpot_line_configure,
    takes_taxpayers_fortune,
)
from casino.demo.jackpots import LINES, progressive_config
from casino.demo.players import demo_players_load
from casino.demo.story import (
    TODAY_PLAY_FROM,
    demo_adjustment_request_load,
    demo_jackpot_win_load,
    demo_past_day_load,
)
from casino.models import Casino, CasinoMembership
from casino.roles import (
    CAGE,
    COMPLIANCE,
    COUNT,
    FINANCE,
    GAMING_MANAGER,
    PIT_BOSS,
    ROLE_GROUPS,
    SURVEILLANCE,
    sync_role_groups,
)
from tables.games import GAMES
from tables.models import Dealer, Pit, Round, Ruleset, Table
from tables.services.floor import floor_object_save, ruleset_create
from tables.services.rounds import round_record
from tables.services.sessions import (
    table_session_current,
    table_session_dealer_change,
    table_session_open,
)

DEMO_REASON = "Demo floor for the quick start"
DEMO_CASINO = "Demo Casino"
DEMO_USERS = (
    ("pitboss", "Pat Pitboss", PIT_BOSS),
    ("surveillance", "Sam Surveillance", SURVEILLANCE),
    ("finance", "Fran Finance", FINANCE),
    ("manager", "Max Manager", GAMING_MANAGER),
    # A second gaming manager: a manager may not approve their own adjustment request.
    ("manager2", "Mia Manager", GAMING_MANAGER),
    ("cage", "Casey Cashier", CAGE),
    ("count", "Cory Counter", COUNT),
    ("count2", "Cleo Counter", COUNT),  # a count is signed by two counters
    ("compliance", "Cody Compliance", COMPLIANCE),  # Title 31: the MTL, CTRs and identification
)
DEMO_DEALERS = (("D1001", "Alex Rivera"), ("D1002", "Bea Chen"), ("D1003", "Carl Okafor"),
                ("D1004", "Dana Kowalski"), ("D1005", "Eli Navarro"))
# The simulated play bets from $5 (tables.games.simulate_*): a higher minimum would flag
# every simulated $5 bet as below the table's limits.
DEMO_TABLES = (  # label, game, min, max
    ("AU-01", "ante_up_21", "5", "500"),
    ("UL-01", "upcard_luck_21", "5", "500"),
    ("PB-01", "poker_or_bust", "5", "200"),
    ("HB-01", "holdem_blackjack", "2", "20"),
    ("BT-01", "blackjack_tie", "5", "500"),
)


def _demo_config(game: str) -> dict | None:
    """The house rules; Upcard Luck's Taxpayer's Fortune pays its small lines from meters."""
    if game != "upcard_luck_21":
        return None
    return progressive_config()


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str


@transaction.atomic
def demo_floor_load() -> list[DemoLogin]:
    """Create (or refresh) the demo floor; demo users get fresh random passwords each time."""
    if settings.PRODUCTION:
        raise RuntimeError("The demo floor is never loaded in production (DJANGO_ENV=production).")
    sync_role_groups()
    User = get_user_model()  # noqa: N806
    logins, users = [], []
    author = None
    for username, full_name, role in DEMO_USERS:
        first, last = full_name.split(" ", 1)
        user, _ = User.objects.get_or_create(username=username, defaults={"first_name": first, "last_name": last})
        password = secrets.token_urlsafe(9)
        user.set_password(password)
        user.is_staff = role == GAMING_MANAGER  # gaming managers work in the admin
        user.save()
        user.groups.set([Group.objects.get(name=ROLE_GROUPS[role])])
        logins.append(DemoLogin(username, password, ROLE_GROUPS[role]))
        users.append(user)
        if role == GAMING_MANAGER and author is None:
            author = user

    casino = Casino.objects.filter(name=DEMO_CASINO).first()
    if casino is None:
        casino = floor_object_save(
            obj=Casino(name=DEMO_CASINO, time_zone=settings.CASINO_TIME_ZONE, gaming_day_start_hour=6),
            author=author, reason=DEMO_REASON,
        )
    for user in users:  # the demo users work at the demo casino
        CasinoMembership.objects.get_or_create(user=user, casino=casino)
    pit = Pit.objects.filter(casino=casino, name="Pit 1").first() or floor_object_save(
        obj=Pit(casino=casino, name="Pit 1"), author=author, reason=DEMO_REASON
    )
    for number, name in DEMO_DEALERS:
        if not Dealer.objects.filter(casino=casino, employee_number=number).exists():
            floor_object_save(obj=Dealer(casino=casino, employee_number=number, name=name),
                              author=author, reason=DEMO_REASON)
    for label, game, low, high in DEMO_TABLES:
        ruleset_name = f"{GAMES[game].name} house rules"
        ruleset = Ruleset.objects.filter(casino=casino, name=ruleset_name).first() or ruleset_create(
            casino=casino, game=game, name=ruleset_name, config=_demo_config(game), author=author,
            reason=DEMO_REASON,
        )
        if not Table.objects.filter(pit=pit, label=label).exists():
            floor_object_save(
                obj=Table(pit=pit, label=label, game=game, ruleset=ruleset, min_bet=Decimal(low),
                          max_bet=Decimal(high), seats=6 if game == "holdem_blackjack" else 7),
                author=author, reason=DEMO_REASON,
            )
    demo_jackpot_bank_load(casino=casino, author=author)
    demo_adjustment_request_load(casino=casino, author=author)
    demo_players_load(casino=casino, author=author)
    return logins


DEMO_BANK = "Taxpayer's Fortune bank"


def demo_jackpot_bank_load(*, casino, author) -> None:
    """Put the demo's Upcard Luck tables in a jackpot bank (a table whose ruleset takes
    Taxpayer's Fortune markers opens only in one) and meter the lines their ruleset calls
    progressive, so the meter board is alive on a fresh install. Idempotent."""
    tables = [t for t in Table.objects.filter(pit__casino=casino).select_related("ruleset")
              if takes_taxpayers_fortune(t)]
    if not tables:
        return
    # Before the demo's simulated day (it starts eight hours ago), so its rounds feed the meters.
    at = timezone.now() - timedelta(hours=9)
    bank = JackpotBank.objects.filter(casino=casino, name=DEMO_BANK).first() or jackpot_bank_create(
        casino=casino, name=DEMO_BANK, author=author, reason=DEMO_REASON, at=at)
    for table in tables:
        if not JackpotBankTable.objects.filter(table=table).exists():
            jackpot_bank_table_add(bank=bank, table=table, author=author, reason=DEMO_REASON, at=at)
    # A line the bank meters must be progressive in every member's ruleset.
    progressive = set.intersection(*(set(t.ruleset.current_version.rules().progressive_lines) for t in tables))
    configured = active_configs(bank)
    for line, (reset, increment, hidden, cap) in LINES.items():
        if line in progressive and line not in configured:
            jackpot_line_configure(bank=bank, line=line, progressive=True, reset=reset, increment_rate=increment,
                                   hidden_rate=hidden, cap=cap, author=author, reason=DEMO_REASON, at=at)


def demo_rounds_load(*, rounds_per_table: int = 60, error_rate: float = 0.08, seed: int = 2026,
                     open_table=None, open_past_day=None, close_past_day=None) -> int:
    """A day of simulated play at every open-able demo table, some rounds with dealer errors,
    after a shorter finished day before it (a third as many rounds, and the overpay pattern:
    story.py); at the Upcard Luck table a jackpot won at the end waits to be paid.

    Rounds go through :func:`round_record`, so they are audited exactly like live ones.
    Tables that already have rounds are left alone (``make run`` may load the demo again).
    ``open_table(table=, dealer=, author=, at=)`` opens a table for today's play and returns its
    session (default: a plain session; ``load_demo`` opens with the table accounting's opener);
    ``open_past_day`` and ``close_past_day`` open and close the finished day before it
    (story.demo_past_day_load; ``load_demo`` keeps that day in money too).
    Returns the number of rounds recorded.
    """
    rng = random.Random(seed)
    pit_boss = get_user_model().objects.get(username="pitboss")
    dealers = list(Dealer.objects.filter(casino__name=DEMO_CASINO, active=True).order_by("employee_number"))
    start = timezone.now() - TODAY_PLAY_FROM
    recorded = 0
    for index, table in enumerate(Table.objects.filter(pit__casino__name=DEMO_CASINO).order_by("label")):
        if Round.objects.filter(table=table).exists():
            continue
        game = GAMES[table.game]
        rules = table.ruleset.current_version.rules()
        kinds = game.inject_kinds
        recorded += demo_past_day_load(
            table=table, dealer=dealers[(index + 2) % len(dealers)], before=start, rounds=rounds_per_table // 3,
            author=pit_boss, rng=random.Random(seed + 1 + index),
            simulate=partial(_simulate_with_errors, game, error_rate),
            open_table=open_past_day, close_table=close_past_day)
        table_session_current(table) or (open_table or table_session_open)(
            table=table, dealer=dealers[index % len(dealers)], author=pit_boss, at=start)
        for number in range(rounds_per_table):
            at = start + timedelta(seconds=75 * number + rng.randint(0, 30))
            if number and number % 20 == 0:  # dealers rotate on breaks
                # The session open now: play may have rolled it over to a new gaming day.
                table_session_dealer_change(session=table_session_current(table),
                                            dealer=dealers[(index + number // 20) % len(dealers)],
                                            author=pit_boss, at=at)
            inject = _injected(rng, kinds, error_rate)
            seats = rng.randint(2, min(table.seats, rules.max_seats if hasattr(rules, "max_seats") else 7))
            data = _simulate(game, rng, rules, seats, inject)
            round_record(table=table, data=data, author=pit_boss, at=at)
            recorded += 1
        end = start + timedelta(seconds=75 * rounds_per_table + 30)
        if demo_jackpot_win_load(table=table, at=end, author=pit_boss):
            recorded += 1
    return recorded


def _injected(rng, kinds, error_rate: float) -> frozenset:
    return frozenset({rng.choice(kinds)}) if rng.random() < error_rate else frozenset()


def _simulate_with_errors(game, error_rate: float, rng, rules, seats: int) -> dict:
    return _simulate(game, rng, rules, seats, _injected(rng, game.inject_kinds, error_rate))


def _simulate(game, rng, rules, seats: int, inject: frozenset) -> dict:
    """A simulated round; an error the simulator cannot place in this deal is dropped, not forced."""
    try:
        return game.module.simulate_round(rng, rules, seats=seats, inject=inject)
    except (RuntimeError, ValueError):
        return game.module.simulate_round(rng, rules, seats=seats)
