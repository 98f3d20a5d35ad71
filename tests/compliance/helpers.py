"""Two open tables and the cage of one casino, and the people of Title 31."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal as D

from audit.compliance.services import cash_out_record
from casino.gaming_day import gaming_day_bounds
from tables.accounting.services.buyins import buy_in_record
from tables.services.sessions import table_session_open
from tests.accounting.drop_floor import drop_floor
from tests.factories import DealerFactory, TableFactory, user_with_role

DAY = date(2026, 3, 10)  # New York, gaming day from 06:00 local (11:00 UTC)


@dataclass
class T31Floor:
    casino: object
    bj1: object
    bj2: object
    pit_boss: object
    cashier: object
    compliance: object
    manager: object
    start: datetime

    def at(self, hours: float) -> datetime:
        """``hours`` after the gaming day's start."""
        return self.start + timedelta(hours=hours)

    def cash_in(self, table, amount: str, who: str | None, hours: float = 1, kind: str = "cash", seat: int = 1):
        return buy_in_record(table=table, seat=seat, kind=kind, amount=D(amount), author=self.pit_boss,
                             player_identifier=who, at=self.at(hours))

    def cash_out(self, amount: str, who: str | None, hours: float = 1):
        return cash_out_record(casino=self.casino, kind="chip_redemption", amount=D(amount), author=self.cashier,
                               player_identifier=who, at=self.at(hours))


def t31_floor(day: date = DAY) -> T31Floor:
    f = drop_floor(label="BJ-1")
    bj2 = TableFactory(pit=f.table.pit, label="BJ-2")
    table_session_open(table=bj2, dealer=DealerFactory(casino=f.casino), author=f.pit_boss)
    start, _ = gaming_day_bounds(day, f.casino.time_zone, f.casino.gaming_day_start_hour)
    return T31Floor(casino=f.casino, bj1=f.table, bj2=bj2, pit_boss=f.pit_boss,
                    cashier=user_with_role("cage", username="cashier"),
                    compliance=user_with_role("compliance", username="compliance-officer"),
                    manager=f.manager, start=start)


FULL_ID = {"last_name": "Doe", "first_name": "Jane", "address": "1 Main St, Atlantic City, NJ 08401",
           "date_of_birth": date(1970, 1, 2), "tin": "123-45-6789", "document_type": "driver's license",
           "document_number": "D123", "document_issuer": "NJ", "document_expiry": date(2030, 1, 1)}
