"""Closed means closed: every write path to a record of a closed gaming day is refused with a
field error on ``gaming_day`` naming the day and what to do, and nothing is stored."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.urls import reverse

from tables.closed_days import closed_day_message
from tests.closing.closed_today import closed_today
from tests.conftest import api_as
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db

#: Every record a refused write could have touched: rows counted, and the columns a change sets.
_WATCHED = {
    "tables.Round": ("status", "revision"), "tables.RoundRevision": (), "tables.TableSession": ("closed_at",),
    "tables.DealerAssignment": ("ended_at",), "accounting.ChipSlip": ("status", "void_requested_by_id"),
    "accounting.InventorySlip": (), "accounting.BuyIn": (), "accounting.BuyInVoid": (), "accounting.DropBox": (),
    "accounting.BoxDrop": (), "accounting.SoftCount": (), "accounting.CountSignature": (), "accounting.Leg": (),
}


def _state():
    return {name: sorted(apps.get_model(name).objects.values_list("pk", *columns))
            for name, columns in _WATCHED.items()}


def _paths(c):
    f = c.f
    counts = [{"denomination": "100", "count": 20}]
    badge = {"dealer": c.dealer.pk, "dealer_badge": c.dealer.employee_number}
    return [
        ("round record", f.pit_boss, "round-list", None, {"table": f.table.pk, "round": ROUNDS["ante_up_21"]["correct"][0]}),
        ("round correct", f.pit_boss, "round-corrections", c.round.pk,
         {"revision": 1, "reason": "paid 10 on the 21", "round": ROUNDS["ante_up_21"]["correct"][0]}),
        ("round void", f.pit_boss, "round-void", c.round.pk, {"reason": "misdeal"}),
        ("session open", f.pit_boss, "tablesession-list", None, {"table": c.idle_table.pk, "dealer": c.other_dealer.pk,
                                                                      "reason": "opener on paper"}),
        ("session close", f.pit_boss, "tablesession-close", c.session.pk, {"reason": "closer on paper"}),
        ("dealer change", f.pit_boss, "tablesession-dealer", c.session.pk, {"dealer": c.other_dealer.pk}),
        ("opener", f.pit_boss, "inventoryslip-list", None, {"table": c.idle_table.pk, "kind": "opener", "counts": counts,
                                                            "dealer": c.other_dealer.pk,
                                                            "dealer_badge": c.other_dealer.employee_number}),
        ("closer", f.pit_boss, "inventoryslip-list", None, {"table": f.table.pk, "kind": "closer", "counts": counts,
                                                            **badge}),
        ("fill request", f.pit_boss, "chipslip-list", None, {"table": f.table.pk, "kind": "fill",
                                                              "counts": [{"denomination": "25", "count": 4}]}),
        ("slip issue", c.cashier, "chipslip-issue", c.requested.pk, {}),
        ("slip receive", f.pit_boss, "chipslip-receive", c.issued.pk, badge),
        ("slip void", f.pit_boss, "chipslip-void", c.issued.pk, {"reason": "wrong table"}),
        ("slip void confirm", c.cashier, "chipslip-void-confirm", c.void_asked.pk, {}),
        ("buy-in", f.pit_boss, "buyin-list", None, {"table": f.table.pk, "seat": 2, "kind": "cash", "amount": "50.00"}),
        ("buy-in void", f.pit_boss, "buyin-void", c.buy_in.pk, {"reason": "keyed twice"}),
        ("drop", f.counter, "dropbox-drop", None, {"table": f.table.pk, "gaming_day": str(c.day)}),
        ("count sign", f.second_counter, "softcount-sign", c.count.pk, {}),
        ("count", f.counter, "dropbox-counts", c.dropped_box.pk, {"currency": [{"denomination": "100", "count": 2}],
                                                                   "reason": "recount"}),
    ]


def test_every_write_path_is_refused_on_a_closed_day_and_stores_nothing():
    c = closed_today()
    message = closed_day_message(c.day)
    assert message == f"gaming day {c.day} is closed; a gaming manager reopens it with a reason"
    before = _state()
    for what, user, name, pk, body in _paths(c):
        url = reverse(name, args=[pk] if pk else [])
        response = api_as(user).post(url, body, format="json")
        assert response.status_code == 400, (what, response.status_code, response.content[:300])
        assert response.json().get("gaming_day") == [message], (what, response.json())
        assert _state() == before, what


def test_the_same_writes_pass_once_the_day_is_not_closed():
    """The refusals above come from the close, not from the requests: with the close reopened
    each path goes through (which also proves the bodies are right)."""
    from tables.closing.models import DayReopen
    from tables.closing.services.check import day_close_current

    c = closed_today()
    close = day_close_current(c.f.casino.pk, c.day)
    DayReopen.objects.create(close=close, casino=c.f.casino, gaming_day=c.day, reason="test", reopened_by=c.f.manager,
                             reopened_at=close.closed_at, before=close.final_run)
    for what, user, name, pk, body in _paths(c):
        if what in ("round void", "dealer change", "session close", "slip void", "session open", "closer"):
            continue  # each would undo what another path needs (the round, the open table, the slip)
        response = api_as(user).post(reverse(name, args=[pk] if pk else []), body, format="json")
        assert response.status_code in (200, 201), (what, response.content[:300])


def test_the_tablet_shows_the_refusal(client):
    c = closed_today()
    client.force_login(c.f.pit_boss)
    page = client.post(reverse("tablet-buy-ins", args=[c.f.table.pk]),
                       {"seat": "2", "kind": "cash", "amount": "50.00"}, follow=True)
    assert closed_day_message(c.day) in page.content.decode()
    denomination = c.f.casino.chip_set.denominations.get(value=25)
    page = client.post(reverse("tablet-chips-fill", args=[c.f.table.pk]), {f"count-{denomination.pk}": "4"},
                       follow=True)
    assert closed_day_message(c.day) in page.content.decode()
    client.force_login(c.f.second_counter)
    page = client.post(reverse("count-sign", args=[c.count.pk]), follow=True)
    assert closed_day_message(c.day) in page.content.decode()


def test_the_tablets_round_correction_shows_the_refusal(client):
    """The round entry answers JSON: ``errors`` by field and ``messages``, the words the tablet
    shows."""
    import json

    c = closed_today()
    client.force_login(c.f.pit_boss)
    response = client.post(reverse("tablet-round-correct", args=[c.round.pk]), json.dumps(
        {"round": ROUNDS["ante_up_21"]["correct"][0], "revision": 1, "reason": "paid 10 on the 21"}),
        content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"gaming_day": [closed_day_message(c.day)]}
    assert any(closed_day_message(c.day) in m for m in response.json()["messages"]), response.json()["messages"]
    c.round.refresh_from_db()
    assert c.round.revision == 1
