"""What the app does, it does with the app role's grants only: the demo floor (rounds, the
accounting day's openers, fills, credits, buy-ins, drops, counts and signatures) and a
buy-in's void run with Django connected as the role ``grant_app_role`` made, as production
runs (deploy/README.md). A service that locks a row of an append-only table needs the UPDATE
privilege there (PostgreSQL asks it of ``SELECT ... FOR UPDATE``), though its trigger still
refuses every UPDATE."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection

from tables.accounting.models import BuyIn, BuyInVoid, DropBox
from tables.accounting.services.buyins import buy_in_void
from tables.accounting.services.drop_boxes import drop_box_drop
from tables.closing.models import DayClose
from tests.casino.conftest import app_role_name

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def connected_as_app(app_role):
    """Django's own connection logs in as the app role for the test, then as the owner again
    (the test database is flushed by the owner)."""
    owner = connection.settings_dict["USER"]
    connection.close()
    connection.settings_dict["USER"] = app_role_name()
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["USER"] = owner


def test_the_app_role_runs_the_demo_floor_and_a_void(connected_as_app):
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == app_role_name()
    call_command("load_demo", "--rounds", "4", stdout=StringIO())
    assert DropBox.objects.filter(drop__isnull=False).exists()
    # The demo's finished day is closed (its report final, its counts signed): the app role's
    # close check refuses a void there; the accounting day before it is not closed (no report).
    closed = set(DayClose.objects.values_list("gaming_day", flat=True))
    assert closed
    stands = BuyIn.objects.filter(void__isnull=True).select_related("recorded_by")
    on_closed = stands.filter(gaming_day__in=closed).first()
    with pytest.raises(ValidationError, match="is closed"):
        buy_in_void(buy_in=on_closed, reason="recorded at the wrong seat", author=on_closed.recorded_by)
    buy_in = stands.exclude(gaming_day__in=closed).first()
    buy_in_void(buy_in=buy_in, reason="recorded at the wrong seat", author=buy_in.recorded_by)
    assert BuyInVoid.objects.filter(buy_in=buy_in).exists()
    # Dropping the same box again is refused by the service, after it locked the box.
    box = DropBox.objects.filter(drop__isnull=False).select_related("table").first()
    with pytest.raises(Exception, match="already dropped"):
        drop_box_drop(table=box.table, gaming_day=box.gaming_day, author=box.drop.dropped_by)

