"""A gaming day played, dropped and counted through the real services, days ago."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal as D

from casino.gaming_day import gaming_day_bounds
from tables.accounting.services.buyins import buy_in_record
from tables.accounting.services.drop_boxes import drop_box_drop
from tables.accounting.services.soft_count import soft_count_enter, soft_count_sign
from tables.services.rounds import round_record
from tables.services.sessions import table_session_close, table_session_open
from tests.accounting.drop_floor import DropFloor, drop_floor
from tests.factories import DealerFactory
from tests.tables.rounds_data import ROUNDS

DAY = date(2026, 3, 10)


@dataclass
class PlayedDay:
    f: DropFloor
    dealer: object
    session: object
    round: object
    buy_in: object
    box: object
    count: object
    after: object  # a moment after the day ended, when the count room works

    def sign(self):
        return soft_count_sign(count=self.count, author=self.f.second_counter, at=self.after)


def played_day(*, day: date = DAY, label: str = "BJ-1", f: DropFloor | None = None) -> PlayedDay:
    """A table opened on ``day``, one round (an underpaid one: a finding), a 500.00 cash buy-in,
    closed; its box dropped and counted (5 x 100) by one counter, not signed yet."""
    f = f or drop_floor(open_table=False, label=label)
    start, end = gaming_day_bounds(day, f.casino.time_zone, f.casino.gaming_day_start_hour)
    dealer = DealerFactory(casino=f.casino)
    session = table_session_open(table=f.table, dealer=dealer, author=f.pit_boss, at=start + timedelta(hours=1))
    rnd = round_record(table=f.table, data=ROUNDS["ante_up_21"]["underpay"][0], author=f.pit_boss,
                       at=start + timedelta(hours=2)).round
    buy_in = buy_in_record(table=f.table, seat=1, kind="cash", amount=D("500.00"), author=f.pit_boss,
                           at=start + timedelta(hours=2))
    table_session_close(session=session, author=f.pit_boss, at=start + timedelta(hours=3))
    after = end + timedelta(hours=1)
    box = drop_box_drop(table=f.table, gaming_day=day, author=f.counter, at=after)
    count = soft_count_enter(box=box, author=f.counter, currency={"100": 5}, at=after)
    return PlayedDay(f=f, dealer=dealer, session=session, round=rnd, buy_in=buy_in, box=box, count=count,
                     after=after)


def final_report(casino, day: date = DAY):
    from audit.reports.services.runs import report_request

    report = report_request(casino=casino, gaming_day=day, via="command")
    report.refresh_from_db()
    return report
