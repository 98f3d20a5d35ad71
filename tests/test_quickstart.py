"""The quick start's demo floor, login and health check."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from audit.models import Finding
from tables.models import Dealer, Pit, Round, Table

pytestmark = pytest.mark.django_db


def test_load_demo_prints_a_login_per_role_and_a_pit_boss_can_log_in(client):
    out = StringIO()
    call_command("load_demo", stdout=out)
    text = out.getvalue()
    logins = dict(re.findall(r"user: (\S+)\s+password: (\S+)", text))
    assert set(logins) == {"pitboss", "surveillance", "finance", "manager"}
    assert Pit.objects.count() == 1 and Dealer.objects.count() >= 3
    assert sorted(Table.objects.values_list("game", flat=True)) == sorted(
        ["ante_up_21", "upcard_luck_21", "poker_or_bust", "holdem_blackjack", "blackjack_tie"])
    assert "Recorded 300 simulated rounds" in text
    assert Finding.objects.exists(), "some demo rounds carry dealer errors"
    assert all(table.is_open for table in Table.objects.all())

    page = client.get(reverse("login"))
    assert page.status_code == 200 and b"Log in" in page.content
    response = client.post(reverse("login"), {"username": "pitboss", "password": logins["pitboss"]})
    assert response.status_code == 302
    home = client.get(reverse("home")).content.decode()
    assert "Pit boss" in home


def test_load_demo_twice_is_harmless():
    call_command("load_demo", "--rounds", "3", stdout=StringIO())
    call_command("load_demo", "--rounds", "3", stdout=StringIO())
    assert Table.objects.count() == 5
    assert Round.objects.count() == 15


def test_load_demo_refused_in_production(settings):
    from django.core.management.base import CommandError

    settings.PRODUCTION = True
    with pytest.raises(CommandError, match="never loaded in production"):
        call_command("load_demo", stdout=StringIO())


def test_healthz(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


def test_wrong_password_says_so(client):
    call_command("load_demo", "--rounds", "0", stdout=StringIO())
    response = client.post(reverse("login"), {"username": "pitboss", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()
