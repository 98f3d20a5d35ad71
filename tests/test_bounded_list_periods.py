"""The period of a bounded API list, seen from outside (issue #20): a row of today and one of 40
days ago in buy-ins, cash-outs and table sessions. The default list is the last 30 gaming days;
``?from=&to=`` and ``?gaming_day=`` choose another period; a reversed period or one over
``MAX_DAYS`` is a 400 naming ``to``; a row of any day is still read by its id."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.compliance.models import CashOut
from casino.gaming_day import current_gaming_day
from casino.periods import MAX_DAYS
from tables.accounting.models import BuyIn
from tables.models import TableSession
from tests.conftest import api_as
from tests.factories import TableFactory, user_with_role

pytestmark = pytest.mark.django_db


def _session(table, user, day, *, closed):
    now = timezone.now()
    return TableSession.objects.create(table=table, gaming_day=day, opened_at=now, opened_by=user,
                                       closed_at=now if closed else None, closed_by=user if closed else None)


def _buy_in(table, user, day, old):
    session = _session(table, user, day, closed=old)
    return BuyIn.objects.create(casino=table.pit.casino, table=table, session=session, gaming_day=day, seat=1,
                                kind=BuyIn.CASH, amount=Decimal("100.00"), recorded_at=timezone.now(),
                                recorded_by=user)


def _cash_out(table, user, day, old):
    return CashOut.objects.create(casino=table.pit.casino, gaming_day=day, kind=CashOut.KINDS[0][0],
                                  amount=Decimal("100.00"), recorded_at=timezone.now(), recorded_by=user)


def _table_session(table, user, day, old):
    return _session(table, user, day, closed=old)


LISTS = {
    "buyin": ("pit_boss", _buy_in),
    "cashout": ("cage", _cash_out),
    "tablesession": ("pit_boss", _table_session),
}


@pytest.fixture(params=sorted(LISTS))
def rows(request):
    basename = request.param
    role, make = LISTS[basename]
    table = TableFactory()
    user = user_with_role(role)
    today = current_gaming_day(table.pit.casino)
    old_day = today - timedelta(days=40)
    old = make(table, user, old_day, True)  # the old one first: a table has one open session at a time
    new = make(table, user, today, False)
    return basename, api_as(user), {"today": today, "old_day": old_day, "new": new.pk, "old": old.pk}


def _ids(client, url, **params):
    response = client.get(url, params)
    assert response.status_code == 200, response.content
    return {row["id"] for row in response.json()["results"]}


def test_a_list_reads_the_last_30_days_by_default_and_any_period_asked(rows):
    basename, client, r = rows
    url = reverse(f"{basename}-list")
    assert _ids(client, url) == {r["new"]}
    assert _ids(client, url, **{"from": r["old_day"].isoformat(), "to": r["today"].isoformat()}) == {
        r["new"], r["old"]}
    assert _ids(client, url, gaming_day=r["old_day"].isoformat()) == {r["old"]}
    assert _ids(client, url, **{"from": r["old_day"].isoformat()}) == {r["old"]}  # 30 days from `from`


def test_a_reversed_or_too_long_period_is_a_field_error(rows):
    basename, client, r = rows
    url = reverse(f"{basename}-list")
    reversed_ = client.get(url, {"from": r["today"].isoformat(), "to": r["old_day"].isoformat()})
    assert reversed_.status_code == 400 and list(reversed_.json()) == ["to"], reversed_.content
    too_long = client.get(url, {"from": (r["today"] - timedelta(days=400)).isoformat(), "to": r["today"].isoformat()})
    assert too_long.status_code == 400 and str(MAX_DAYS) in too_long.json()["to"][0], too_long.content


def test_a_row_of_any_day_is_read_by_its_id(rows):
    basename, client, r = rows
    response = client.get(reverse(f"{basename}-detail", args=[r["old"]]))
    assert response.status_code == 200 and response.json()["id"] == r["old"]
    assert response.json()["gaming_day"] == r["old_day"].isoformat()
