"""The demo's table accounting: the chip set, and a day of openers, fills, credits, buy-ins and
closers at every demo table, then that day's boxes dropped and counted (all reconcile but one),
then, as the demo's tables open for today, openers (one with a seeded discrepancy) and a fill
waiting at the cage or the table, so the
tablet, the cage, the count room and the exception report have something to show."""

from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal
from functools import partial

from django.contrib.auth import get_user_model
from django.utils import timezone

from casino.demo.count import demo_buy_ins, play_demo_count
from casino.demo.story import demo_finished_day
from casino.gaming_day import gaming_day_bounds, gaming_day_of
from casino.models import Casino
from tables.accounting.models import BuyIn, DropBox, InventorySlip
from tables.accounting.services.chips import chip_set_save
from tables.accounting.services.inventory import inventory_close, inventory_open, last_closer
from tables.accounting.services.transfers import (
    chip_slip_issue,
    chip_slip_receive,
    chip_slip_request,
)
from tables.models import Dealer, Table
from tables.services.sessions import table_session_open

DEMO_CHIPS = ("1", "2.50", "5", "25", "100", "500", "1000", "5000")
#: The tray every demo table opens with (denomination -> chips).
DEMO_TRAY = {"1": 100, "5": 200, "25": 120, "100": 60, "500": 10}
#: The table whose opener today differs from its last closer (two 100 chips short).
DEMO_DISCREPANCY_TABLE = "PB-01"
#: Tables whose waiting fill the cage has issued already (the others' is still at the cage).
FILL_ISSUED_TABLES = ("AU-01", "PB-01", "BT-01")


#: The accounting day is played the gaming day before the demo story's finished day of rounds
#: (casino/demo/story.py: ``demo_finished_day``), which is kept in money too
#: (:func:`demo_past_day_open`, :func:`demo_past_day_close`, :func:`demo_past_day_count`); today's
#: tables open with openers (:func:`demo_table_open`).
#: On the story's finished day one round at this table was played and never recorded: the house
#: won it, so the closer holds its chips and the report's recorded play is short of the cash.
UNRECORDED_ROUND_TABLE, UNRECORDED_ROUND_WIN = "AU-01", Decimal("150.00")


def _demo_people(casino: Casino):
    users = get_user_model().objects
    manager, boss, cashier = users.get(username="manager"), users.get(username="pitboss"), users.get(username="cage")
    if not hasattr(casino, "chip_set"):
        chip_set_save(casino=casino, name="Demo Casino chips", denominations=list(DEMO_CHIPS), author=manager,
                      reason="Demo floor for the quick start")
    return boss, cashier, (users.get(username="count"), users.get(username="count2"))


def _signed_by(dealer: Dealer, boss, **kw) -> dict:
    return {"dealer": dealer.pk, "dealer_badge": dealer.employee_number, "author": boss, **kw}


def demo_accounting_day(*, casino_name: str = "Demo Casino", now=None) -> int:
    """Play an accounting day (openers, buy-ins, a fill and a credit, closers, then the count of
    its boxes: all reconcile but one) at every closed demo table, the gaming day before the
    story's finished day. Tables that already have slips are left alone (the demo may be loaded again).
    Returns the slips written."""
    casino = Casino.objects.get(name=casino_name)
    boss, cashier, counters = _demo_people(casino)
    dealers = list(Dealer.objects.filter(casino=casino, active=True).order_by("employee_number"))
    # The day before the story's finished day, whatever the hour: in a gaming day's first
    # hours today's play starts in yesterday, so the finished day is the day before that and
    # "two days before today" would be the finished day itself (its slips would collide).
    day = demo_finished_day(casino, now or timezone.now()) - timedelta(days=1)
    day_start, _ = gaming_day_bounds(day, casino.time_zone, casino.gaming_day_start_hour)
    opens = day_start + timedelta(hours=2)
    rng, played = random.Random(16), 0
    for index, table in enumerate(Table.objects.filter(pit__casino=casino, is_open=False).order_by("label")):
        if InventorySlip.objects.filter(table=table).exists():
            continue
        sign = partial(_signed_by, dealers[index % len(dealers)], boss)
        inventory_open(table=table, counts=DEMO_TRAY, **sign(at=opens))
        demo_buy_ins(table=table, pit_boss=boss, rng=rng, at=opens + timedelta(hours=1))
        fill = chip_slip_request(table=table, kind="fill", counts={"25": 40, "100": 10}, author=boss,
                                 at=opens + timedelta(hours=2))
        chip_slip_issue(slip=fill, author=cashier, at=opens + timedelta(hours=2, minutes=3))
        chip_slip_receive(slip=fill, **sign(at=opens + timedelta(hours=2, minutes=9)))
        credit = chip_slip_request(table=table, kind="credit", counts={"500": 4}, author=boss,
                                   at=opens + timedelta(hours=5))
        chip_slip_issue(slip=credit, author=cashier, at=opens + timedelta(hours=5, minutes=2))
        chip_slip_receive(slip=credit, **sign(at=opens + timedelta(hours=5, minutes=6)))
        closing = {"1": 90, "5": 230, "25": 150 + 7 * index, "100": 64 - index, "500": 6}
        inventory_close(table=table, counts=closing, **sign(at=opens + timedelta(hours=9)))
        played += 1
    if not played:
        return 0
    # The boxes come off once every table has closed; the count room counts them next.
    play_demo_count(casino=casino, counters=counters, gaming_day=day,
                    at=opens + timedelta(hours=10))
    return 7 * played


def demo_table_open(*, table: Table, dealer: Dealer, author, at):
    """Open ``table`` for today's play: with an opener equal to its last closer (two 100 chips
    short at :data:`DEMO_DISCREPANCY_TABLE`: a finding for the regulator) and a fill waiting at
    the cage or at the table; a table with no closer on record opens without one. Returns the
    session."""
    last = InventorySlip.objects.filter(table=table, kind=InventorySlip.CLOSER).order_by("-recorded_at", "-pk").first()
    if last is None:
        return table_session_open(table=table, dealer=dealer, author=author, at=at)
    boss, cashier, _ = _demo_people(table.pit.casino)
    opening = _counts_of(last)
    if table.label == DEMO_DISCREPANCY_TABLE:
        opening["100.00"] -= 2
    slip = inventory_open(table=table, counts=opening, **_signed_by(dealer, boss, at=at))
    waiting = chip_slip_request(table=table, kind="fill", counts={"25": 20}, author=boss, at=at + timedelta(minutes=5))
    if table.label in FILL_ISSUED_TABLES:
        chip_slip_issue(slip=waiting, author=cashier, at=at + timedelta(minutes=8))
    return slip.session


def _counts_of(slip: InventorySlip) -> dict[str, int]:
    return {str(line.denomination.value): line.count for line in slip.lines.select_related("denomination")}


#: How many of each large chip a demo tray holds at most (a tray's racks), so that every closer
#: carries 100s and 500s as a real one would; the rest is in smaller chips.
_RACKS = ((500, 10), (100, 80), (25, None), (5, None), (1, None))


def _chips_for(total: Decimal) -> dict[str, int]:
    """A tray holding ``total`` in the demo's chips (cents no chip shows are left off, as a
    tray would: the difference is the report's to show)."""
    whole, part = divmod(total, 1)
    counts = {}
    if part >= Decimal("0.5"):  # a 2.50 chip carries the half
        counts["2.50"], whole = 1, whole - 2
    for value, rack in _RACKS:
        n = whole // value if rack is None else min(rack, whole // value)
        whole -= n * value
        if n:
            counts[str(value)] = int(n)
    return counts


def demo_past_day_open(*, table: Table, dealer: Dealer, author, at):
    """Open ``table`` for the story's finished day: an opener equal to its last closer (the
    accounting day's), then the day's buy-ins. Returns the session."""
    last = last_closer(table)
    slip = inventory_open(table=table, counts=_counts_of(last) if last else DEMO_TRAY,
                          **_signed_by(dealer, author, at=at))
    demo_buy_ins(table=table, pit_boss=author, rng=random.Random(table.label), at=at + timedelta(minutes=1))
    return slip.session


def demo_past_day_close(*, table: Table, dealer: Dealer, author, at, win: Decimal) -> InventorySlip:
    """Close ``table`` on the story's finished day after a fill and a credit: the closer holds
    what the tray must hold when ``win`` (the recorded play's win) is all that happened, i.e.
    opener + fills - credits - the chips sold for cash and markers + win; at
    :data:`UNRECORDED_ROUND_TABLE` also the chips of a round nobody recorded."""
    _, cashier, _ = _demo_people(table.pit.casino)
    sign = partial(_signed_by, dealer, author)
    moved = Decimal(0)
    for minutes, kind, counts in ((-4, "fill", {"25": 40}), (-2, "credit", {"500": 2})):
        slip = chip_slip_request(table=table, kind=kind, counts=counts, author=author, at=at + timedelta(minutes=minutes))
        chip_slip_issue(slip=slip, author=cashier, at=at + timedelta(minutes=minutes, seconds=30))
        chip_slip_receive(slip=slip, **sign(at=at + timedelta(minutes=minutes + 1)))
        moved += slip.total if kind == "fill" else -slip.total
    opener = InventorySlip.objects.filter(table=table, kind=InventorySlip.OPENER).order_by("-recorded_at").first()
    sold = sum(BuyIn.objects.filter(session=opener.session, void__isnull=True, kind__in=BuyIn.DROPPED)
               .values_list("amount", flat=True), Decimal(0))
    extra = UNRECORDED_ROUND_WIN if table.label == UNRECORDED_ROUND_TABLE else Decimal(0)
    return inventory_close(table=table, counts=_chips_for(opener.total + moved - sold + win + extra),
                           **sign(at=at))


def demo_past_day_count(*, casino_name: str = "Demo Casino", now=None) -> dict:
    """The count room counts every box of an ended day still in the cabinet (the story's
    finished day) the morning after, every one as its buy-ins say: that day's cash question is
    the unrecorded round, not a miscount."""
    casino = Casino.objects.get(name=casino_name)
    _, _, counters = _demo_people(casino)
    today = gaming_day_of(now or timezone.now(), casino.time_zone, casino.gaming_day_start_hour)
    counted = {}
    for day in (DropBox.objects.filter(casino=casino, drop__isnull=True, gaming_day__lt=today)
                .values_list("gaming_day", flat=True).distinct().order_by("gaming_day")):
        ended = gaming_day_bounds(day, casino.time_zone, casino.gaming_day_start_hour)[1]
        counted.update(play_demo_count(casino=casino, counters=counters, gaming_day=day,
                                       at=ended + timedelta(minutes=5), short=None))
    return counted
