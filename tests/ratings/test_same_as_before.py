"""Issue #20: the sessions cut and summed in SQL give exactly the figures the previous Python
computation gave (tests/ratings/reference.py) on the same data: every player's day, session,
wager type, minute and cent, on both databases.

The day mixes what could make the two disagree: gaps of exactly the threshold and one microsecond
more, times with microseconds (a session's time is its gaps summed in whole seconds, each
rounded down), two players on one seat-row's round, a player on two tables at once, a voided
and a corrected round, an underpay (the recorded pay counts), another casino, a Hold'em pot
with its rake shared out, and the next gaming day.
"""

from __future__ import annotations

import copy
import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser

from audit.ratings.rows import day_dict
from audit.ratings.selectors import day_ratings, gap_threshold
from tables.games import GAMES
from tables.services.rounds import round_correct, round_record, round_void
from tables.services.sessions import table_session_open
from tests.factories import (
    CasinoFactory,
    DealerFactory,
    PitFactory,
    RulesetFactory,
    TableFactory,
    user_with_role,
)
from tests.ratings.helpers import DAY, at, pob_round, pob_tables, set_edges
from tests.ratings.reference import previous_day_ratings
from tests.tables.rounds_data import HOLDEM_CORRECT

pytestmark = pytest.mark.django_db


def _holdem_round(table, boss, when):
    data = copy.deepcopy(HOLDEM_CORRECT)
    data["actions"][-1] = {"action": "award", "seat": 1, "amount": "34.65"}
    data["actions"].append({"action": "rake", "amount": "3.85"})
    return round_record(table=table, data=data, author=boss, at=when)


def _holdem_table(boss, casino_pit):
    rules = GAMES["holdem_blackjack"].rules_to_dict(GAMES["holdem_blackjack"].default_rules())
    rules["rake_percent"] = "10"
    table = TableFactory(label="T-H", game="holdem_blackjack", seats=6, pit=casino_pit,
                         ruleset=RulesetFactory(game="holdem_blackjack", config=rules, casino=casino_pit.casino))
    table_session_open(table=table, dealer=DealerFactory(casino=casino_pit.casino), author=boss, at=at("14:00"))
    return table


def _mixed_day():
    set_edges()
    boss, (a, b, c) = pob_tables("T-A", "T-B", "T-C")
    gap = gap_threshold()
    rng = random.Random(20)
    start = at("15:00")
    # P-1 at T-A: a gap of exactly the threshold (same session), then one microsecond more (a new one).
    for when in (start, start + gap, start + 2 * gap + timedelta(microseconds=1)):
        round_record(table=a, data=pob_round("P-1"), author=boss, at=when)
    # Rounds with microseconds at random gaps at T-B and T-C, players drawn from a few, some underpaid.
    when_b, when_c = start + timedelta(microseconds=333_333), start + timedelta(seconds=1, microseconds=999_999)
    recorded = []
    for _ in range(14):
        when_b += timedelta(seconds=rng.randint(30, 1200), microseconds=rng.randint(0, 999_999))
        when_c += timedelta(seconds=rng.randint(30, 1200), microseconds=rng.randint(0, 999_999))
        kind = "underpay" if rng.random() < 0.2 else "correct"
        stake = f"{rng.choice([5, 10, 25, 40])}.00"
        recorded.append(round_record(table=b, data=pob_round(rng.choice(["P-1", "P-2", "P-3"]), stake, kind=kind),
                                     author=boss, at=when_b))
        recorded.append(round_record(table=c, data=pob_round(rng.choice(["P-2", "P-3", "P-4"]), stake),
                                     author=boss, at=when_c))
    round_void(round=recorded[3].round, reason="misdeal", author=boss)
    round_correct(round=recorded[6].round, revision=1, data=pob_round("P-9", "75.00"), reason="wrong player",
                  author=boss)
    _holdem_round(_holdem_table(boss, a.pit), boss, at("16:10"))
    # Another casino and the day before: never in this day's or this casino's figures.
    other_casino = CasinoFactory(name="Other Casino")
    other_boss = user_with_role("pit_boss", username="other-boss", casinos=[other_casino])
    other = TableFactory(label="O-1", game="poker_or_bust", pit=PitFactory(casino=other_casino),
                         ruleset=RulesetFactory(game="poker_or_bust", casino=other_casino))
    table_session_open(table=other, dealer=DealerFactory(casino=other_casino), author=other_boss, at=at("14:00"))
    round_record(table=other, data=pob_round("P-1"), author=other_boss, at=at("15:30"))
    # 12:00 UTC on the 3rd is 07:00 in New York: the next gaming day (they start at 06:00).
    round_record(table=a, data=pob_round("P-1"), author=boss, at=datetime(2026, 3, 3, 12, 0, tzinfo=UTC))
    return a.pit.casino, other.pit.casino


MONEY = {"stake", "average", "average_bet", "theo", "actual"}


def _as_dicts(ratings, *, sessions: bool = True):
    """The API's figures, money as Decimal: on SQLite the previous computation wrote a whole
    stake as "170" (Django's float sum), the SQL one "170.00"; the amount is the same."""
    def money(value):
        if isinstance(value, dict):
            return {k: Decimal(v) if k in MONEY else money(v) for k, v in value.items()}
        if isinstance(value, list):
            return [money(v) for v in value]
        return value
    user = AnonymousUser()
    return [money(day_dict(r, user, sessions=sessions)) for r in ratings]


def _cents(text: str) -> bool:
    return text.rpartition(".")[2].isdigit() and len(text.rpartition(".")[2]) == 2


def test_every_figure_is_the_previous_computations():
    casino, other = _mixed_day()
    after = DAY + timedelta(days=1)
    for ids, first, last in (([casino.pk], DAY, DAY), ([casino.pk, other.pk], DAY, DAY), (None, DAY, after),
                             ([other.pk], DAY, after), ([casino.pk], after, after)):
        new = day_ratings(casino_ids=ids, first=first, last=last)
        assert new, (ids, first, last)
        assert _as_dicts(new) == _as_dicts(previous_day_ratings(casino_ids=ids, first=first, last=last))
    mine = day_ratings(casino_ids=[casino.pk], first=DAY)
    assert all(_cents(str(r.stake)) and all(_cents(str(s.stake)) for s in r.sessions) for r in mine)
    p1 = next(r for r in mine if r.identifier == "P-1")
    at_a = [s for s in p1.sessions if s.table_label == "T-A"]
    # The threshold itself does not cut; a microsecond more does.
    assert [(s.rounds, s.seconds) for s in at_a] == [(2, int(gap_threshold().total_seconds())), (1, 0)]
    assert {r.identifier for r in mine} >= {"P-1", "P-2", "P-3", "P-4", "P-9", "P-1001", "P-1002"}


def test_one_players_figures_are_the_previous_computations():
    casino, _other = _mixed_day()
    for identifier in ("P-1", "P-2", "P-1001", "nobody"):
        new = day_ratings(casino_ids=[casino.pk], first=DAY, identifiers=[identifier])
        old = previous_day_ratings(casino_ids=[casino.pk], first=DAY, identifiers=[identifier])
        assert _as_dicts(new) == _as_dicts(old)
        assert bool(new) == (identifier != "nobody")
