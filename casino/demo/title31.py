"""For the demo (load_demo calls :func:`demo_title31` once today's tables are open): on the
demo's open gaming day, one patron whose cash buy-ins at two tables pass the MTL threshold (each
table under it: a 'split across tables' flag too) and one whose cash in needs a CTR. Both are
registered players. The demo records no identification for the second: the open day rightly
waits on it (/closing/ and /compliance/ say so) until the compliance login records it or an
exception. The finished past day is left as it is."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone

from casino.models import Casino
from tables.accounting.services.buyins import buy_in_record
from tables.models import Table
from tables.players.models import Player
from tables.players.services.register import player_register

MTL_PATRON, MTL_NAME = "CARD-3100", "Morgan Tally"
CTR_PATRON, CTR_NAME = "CARD-1050", "Casey Reyes"
#: (patron, table label, seat, amount): cash buy-ins on the demo's open day.
DEMO_BUY_INS = (
    (MTL_PATRON, "AU-01", 2, Decimal("1800.00")), (MTL_PATRON, "BT-01", 4, Decimal("1700.00")),
    (CTR_PATRON, "UL-01", 1, Decimal("6000.00")), (CTR_PATRON, "PB-01", 3, Decimal("5500.00")),
)


def demo_title31(casino: Casino) -> int:
    """Record the demo's Title 31 buy-ins at today's open tables; the number recorded (0 when the
    tables are not open, or the demo already has them)."""
    boss = get_user_model().objects.get(username="pitboss")
    if Player.objects.filter(casino=casino, identifier=CTR_PATRON).exists():
        return 0
    for identifier, name in ((MTL_PATRON, MTL_NAME), (CTR_PATRON, CTR_NAME)):
        player_register(casino=casino, identifier=identifier, name=name, author=boss)
    recorded = 0
    tables = {t.label: t for t in Table.objects.filter(pit__casino=casino)}
    for identifier, label, seat, amount in DEMO_BUY_INS:
        table = tables.get(label)
        if table is None or not table.sessions.filter(closed_at__isnull=True).exists():
            continue
        buy_in_record(table=table, seat=seat, kind="cash", amount=amount, author=boss, player_identifier=identifier,
                      at=timezone.now())
        recorded += 1
    return recorded
