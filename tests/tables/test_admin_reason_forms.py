"""The floor's and the assumptions' admin pages take a reason: add and change pages load and
save (no 500), and a refused change (a pit with rounds moved away) is a field error."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from audit.reports.models import TheoreticalAssumption
from casino.models import Casino, CasinoMembership
from tables.models import Dealer, Pit
from tests.factories import CasinoFactory, DealerFactory, PitFactory, user_with_role

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _cases(casino):
    return [
        ("casino_casino", lambda: casino,
         {"name": "Riverside", "time_zone": "America/New_York", "gaming_day_start_hour": "6", "currency": "USD"},
         {"name": "Renamed casino"}),
        ("tables_pit", lambda: PitFactory(casino=casino), {"casino": casino.pk, "name": "Admin pit A"}, {"name": "Admin pit B"}),
        ("tables_dealer", lambda: DealerFactory(casino=casino),
         {"casino": casino.pk, "employee_number": "E9999", "name": "New dealer", "active": "on"},
         {"name": "Renamed dealer"}),
        ("reports_theoreticalassumption",
         lambda: TheoreticalAssumption.objects.get_or_create(
             game="ante_up_21", wager="ante", defaults={"house_edge": "0.02", "variance": "1.5"})[0],
         {"game": "blackjack_tie", "wager": "admin-test", "house_edge": "0.015", "variance": "1.3", "note": "n"},
         {"note": "from the 2026 study"}),
    ]


def _current(client, url) -> dict:
    form = client.get(url).context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
    return data


@pytest.mark.parametrize("who", ["gaming_manager", "superuser"])
def test_add_and_change_pages_load_and_save_with_the_reason(who):
    user = user_with_role(who)
    casino = CasinoFactory()
    client = _client(user)
    for name, existing, add, change in _cases(casino):
        add_url = reverse(f"admin:{name}_add")
        page = client.get(add_url)
        assert page.status_code == 200, name
        assert "change_reason" in page.context["adminform"].form.fields, name
        missing = client.post(add_url, add)
        assert missing.status_code == 200 and "change_reason" in missing.context["adminform"].form.errors, name
        added = client.post(add_url, {**add, "change_reason": "opening"})
        assert added.status_code == 302, (name, added.context and added.context["adminform"].form.errors)
        obj = existing()
        change_url = reverse(f"admin:{name}_change", args=[obj.pk])
        assert client.get(change_url).status_code == 200, name
        data = {**_current(client, change_url), **change, "change_reason": "a correction"}
        changed = client.post(change_url, data)
        assert changed.status_code == 302, (name, changed.context and changed.context["adminform"].form.errors)
        obj.refresh_from_db()
        record = obj.history.latest()
        assert (record.history_user, record.history_change_reason) == (user, "a correction"), name
    assert Casino.objects.filter(name="Riverside").exists()
    assert Pit.objects.filter(name="Admin pit A").exists() and Dealer.objects.filter(name="New dealer").exists()
    assert TheoreticalAssumption.objects.filter(game="blackjack_tie", wager="admin-test").exists()


def test_moving_a_pit_with_rounds_in_the_admin_is_a_field_error():
    from tests.tables.test_floor_api import _pit_with_a_round

    manager = user_with_role("gaming_manager")
    pit, _table = _pit_with_a_round()
    other = CasinoFactory(name="Other Casino")
    CasinoMembership.objects.create(user=manager, casino=other)
    client = _client(manager)
    url = reverse("admin:tables_pit_change", args=[pit.pk])
    response = client.post(url, {"casino": other.pk, "name": pit.name, "change_reason": "move"})
    assert response.status_code == 200
    assert "casino" in response.context["adminform"].form.errors
    pit.refresh_from_db()
    assert pit.casino_id != other.pk


def test_an_assumption_the_service_refuses_is_a_field_error_in_the_admin():
    client = _client(user_with_role("gaming_manager"))
    response = client.post(reverse("admin:reports_theoreticalassumption_add"), {
        "game": "blackjack_tie", "wager": "admin-bad", "house_edge": "1.5", "variance": "1.3",
        "change_reason": "typo"})
    assert response.status_code == 200
    assert "house_edge" in response.context["adminform"].form.errors
    assert not TheoreticalAssumption.objects.filter(wager="admin-bad").exists()
