"""What each role finds on a first visit to the demo casino (issue #15, point 10).

- Finance: a finished gaming day before today's play, with its final report, built by the
  same reconciliation the workers run (one report per past demo day).
- Surveillance: on that day a dealer overpays the same player again and again (the overpay
  pattern page keys on the dealer and the seat's player identifier).
- Gaming managers: a jackpot won at the Upcard Luck table waiting to be paid, and a meter
  increase requested by one manager that only the second demo manager may approve.

Everything is recorded through the services, as live play is; the demo's floor and its
simulated play are in casino/demo/floor.py, which calls these.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.db.models import Max, Min

from audit.jackpots.models import JackpotAdjustment, JackpotAward, JackpotBankTable
from audit.jackpots.services import (
    jackpot_adjustment_request,
    jackpot_award_pay,
    takes_taxpayers_fortune,
)
from audit.reports.models import LEVEL_TABLE, DailyReport
from audit.reports.selectors import slice_aggregates
from audit.reports.services.build import build_lines, combine_partials
from audit.reports.services.runs import current_gaming_day, report_request
from casino.celery import app
from casino.gaming_day import gaming_day_of
from casino.models import Casino
from tables.games import GAMES
from tables.games.vocabulary.catalogue import W21
from tables.models import Dealer, Round, Table
from tables.services.rounds import round_record
from tables.services.sessions import table_session_close, table_session_open

#: The past day's play starts ten hours after the gaming day's start (16:00 for a 06:00 start).
PAST_DAY_OPENS_AFTER = timedelta(hours=10)
#: Today's play starts this long before the demo is loaded (so early in a gaming day it starts
#: in the day before and rolls over at the start: the issue #14 story).
TODAY_PLAY_FROM = timedelta(hours=8)


def demo_finished_day(casino: Casino, now: datetime) -> date:
    """The story's finished day: the gaming day before the one today's play starts in. The
    table accounting's cash-only day is the one before it (casino/demo/accounting.py)."""
    return gaming_day_of(now - TODAY_PLAY_FROM, casino.time_zone, casino.gaming_day_start_hour) - timedelta(days=1)
#: The table, and the player identifier, of the overpay pattern; three overpays make a
#: pattern at the page's default threshold (2) with room to spare.
PATTERN_TABLE, PATTERN_PLAYER, PATTERN_OVERPAYS = "BT-01", "P-4471", 3
#: A dealer bust with five cards against an unsuited blackjack: the bust5_unsuited line.
JACKPOT_HIT = {"dealer": ("2H", "3C", "4D", "5S", "TH"), "player": ("AH", "KC")}
JACKPOT_PLAYER = "P-2050"
SECOND_MANAGER = "manager2"


def recorded_play_win(table: Table, day: date) -> Decimal:
    """What the rounds recorded at ``table`` on ``day`` say it won, by the daily report's own
    definition (its slice aggregates and lines, audit/reports/services/build.py)."""
    casino = table.pit.casino
    ids = Round.objects.filter(table=table, gaming_day=day).aggregate(first=Min("pk"), last=Max("pk"))
    if ids["first"] is None:
        return Decimal(0)
    combined = combine_partials([slice_aggregates(casino=casino, gaming_day=day, **ids)])
    lines = build_lines(DailyReport(casino=casino, gaming_day=day), combined)[0]
    return next(line.win for line in lines if line.level == LEVEL_TABLE and line.key == str(table.pk))


def demo_past_day_load(*, table: Table, dealer: Dealer, before: datetime, rounds: int, author,
                       simulate, rng: random.Random, open_table=None, close_table=None) -> int:
    """The gaming day before the one ``before`` falls in, played at ``table`` and closed:
    ``rounds`` simulated rounds (``simulate(rng, rules, seats)``), and at the pattern table
    the overpay pattern. ``open_table(table=, dealer=, author=, at=)`` opens it (default: a
    plain session) and ``close_table(table=, dealer=, author=, at=, win=)`` closes it, told the
    recorded play's win (default: a plain close). Returns the number of rounds recorded."""
    casino = table.pit.casino
    zone = ZoneInfo(casino.time_zone)
    day = demo_finished_day(casino, before + TODAY_PLAY_FROM)
    at = datetime.combine(day, time(casino.gaming_day_start_hour), zone) + PAST_DAY_OPENS_AFTER
    session = (open_table or table_session_open)(table=table, dealer=dealer, author=author, at=at)
    rules = table.ruleset.current_version.rules()
    seats = min(table.seats, getattr(rules, "max_seats", 7))
    recorded = 0
    for _ in range(rounds):
        at += timedelta(seconds=75 + rng.randint(0, 30))
        round_record(table=table, data=simulate(rng, rules, rng.randint(2, seats)), author=author, at=at)
        recorded += 1
    if table.label == PATTERN_TABLE:
        for _ in range(PATTERN_OVERPAYS):
            at += timedelta(minutes=4)
            round_record(table=table, data=_overpaid_round(rng, table), author=author, at=at)
            recorded += 1
    if close_table is None:
        table_session_close(session=session, author=author, at=at + timedelta(minutes=5))
    else:
        close_table(table=table, dealer=dealer, author=author, at=at + timedelta(minutes=5),
                    win=recorded_play_win(table, day))
    return recorded


def _overpaid_round(rng: random.Random, table: Table) -> dict:
    """A simulated round whose first seat, the pattern's player, is paid a stake too much on
    the main bet (a loss paid as a push, a push as a win, a win once more)."""
    rules = table.ruleset.current_version.rules()
    data = GAMES[table.game].module.simulate_round(rng, rules, seats=rng.randint(2, 4))
    seat = data["seats"][0]
    seat["player"] = PATTERN_PLAYER
    stake = Decimal(seat["wagers"][W21])
    pay = next(p for p in seat["paid"] if p["wager"] == W21)
    pay["net"] = str(Decimal(pay["net"]) + stake)
    return data


def demo_jackpot_win_load(*, table: Table, at: datetime, author) -> JackpotAward | None:
    """A jackpot won at ``table`` (an Upcard Luck table in a bank) at ``at``, left pending;
    the awards its simulated play won before are paid first, as the floor would have, so one
    award waits on the meter board."""
    if not takes_taxpayers_fortune(table):
        return None
    bank = JackpotBankTable.objects.select_related("bank").get(table=table).bank
    for award in bank.awards.filter(status=JackpotAward.PENDING).order_by("won_at"):
        identity = {"w2g_reference": f"W2G-DEMO-{award.pk}", "winner_name": "Demo Winner"} \
            if award.w2g_required else {}
        jackpot_award_pay(award=award, author=author, at=at, **identity)
    rules = table.ruleset.current_version.rules()
    data = {
        "dealer": {"cards": list(JACKPOT_HIT["dealer"])},
        "seats": [{
            "seat": 3,
            "player": JACKPOT_PLAYER,
            "hands": [{"cards": list(JACKPOT_HIT["player"]), "actions": []}],
            "wagers": {"21": "25.00", "upcard_luck": "10.00",
                       "taxpayers_fortune": str(rules.taxpayers_fortune_marker)},
        }],
    }
    recorded = round_record(table=table, data=data, author=author, at=at + timedelta(minutes=1))
    return JackpotAward.objects.filter(round=recorded.round).first()


def demo_adjustment_request_load(*, casino: Casino, author) -> JackpotAdjustment | None:
    """A meter increase requested by ``author`` (a gaming manager) and left for the second
    demo manager: the requester may not decide their own request. Once per bank."""
    member = JackpotBankTable.objects.select_related("bank").filter(bank__casino=casino).first()
    if member is None or member.bank.adjustments.exists():
        return None
    return jackpot_adjustment_request(
        bank=member.bank, line="bust5_unsuited", amount="1.00", reason=JackpotAdjustment.MALFUNCTION,
        note="a Taxpayer's Fortune marker on UL-01 was not keyed; its tax belongs on the meter",
        author=author,
    )


@contextmanager
def _tasks_in_process():
    """The reconciliation's tasks run here and now, whatever broker is configured: the demo
    prints its logins only once its reports exist."""
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = eager


def demo_reports_load(*, casino: Casino) -> list[DailyReport]:
    """A final report for each ended gaming day with demo play that has none yet (or whose
    last run failed); a day already reported, or being reported, is left as it is."""
    today = current_gaming_day(casino)
    days: list[date] = sorted(set(Round.objects.filter(table__pit__casino=casino, gaming_day__lt=today)
                                  .values_list("gaming_day", flat=True)))
    done = set(DailyReport.objects.filter(casino=casino).exclude(status=DailyReport.FAILED)
               .values_list("gaming_day", flat=True))
    author = get_user_model().objects.filter(username="finance").first()
    reports = []
    with _tasks_in_process():
        for day in days:
            if day not in done:
                reports.append(report_request(casino=casino, gaming_day=day, requested_by=author, via="command"))
    return [DailyReport.objects.get(pk=r.pk) for r in reports]
