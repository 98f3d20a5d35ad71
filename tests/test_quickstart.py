"""The quick start's demo floor, login and health check."""

from __future__ import annotations

import re
import shutil
import subprocess
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from tables.models import Dealer, Finding, Pit, Round, Table

pytestmark = pytest.mark.django_db


def test_load_demo_prints_a_login_per_role_and_a_pit_boss_can_log_in(client):
    out = StringIO()
    call_command("load_demo", stdout=out)
    text = out.getvalue()
    logins = dict(re.findall(r"user: (\S+)\s+password: (\S+)", text))
    assert set(logins) == {"pitboss", "surveillance", "finance", "manager", "manager2", "cage", "count", "count2",
                           "compliance"}
    assert Pit.objects.count() == 1 and Dealer.objects.count() >= 3
    assert sorted(Table.objects.values_list("game", flat=True)) == sorted(
        ["ante_up_21", "upcard_luck_21", "poker_or_bust", "holdem_blackjack", "blackjack_tie"])
    # 60 a table today, 20 the day before, the overpay pattern's 3 and the jackpot's hit.
    assert "Recorded 404 simulated rounds" in text
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
    assert Round.objects.count() == 5 * 3 + 5 * 1 + 3 + 1  # today, the day before, the pattern, the jackpot


def test_load_demo_refused_in_production(settings):
    from django.core.management.base import CommandError

    settings.PRODUCTION = True
    with pytest.raises(CommandError, match="never loaded in production"):
        call_command("load_demo", stdout=StringIO())


def test_healthz(client, settings):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    # The quick start has no Redis: the throttle counts per process, tasks run in-process (CI
    # names a broker: then it is checked).
    broker = "in-process" if settings.CELERY_TASK_ALWAYS_EAGER else "ok"
    assert response.json() == {"status": "ok", "database": "ok", "cache": "in-process", "broker": broker,
                               "outbox": {"waiting": 0, "oldest_seconds": None}}


def test_wrong_password_says_so(client):
    call_command("load_demo", "--rounds", "0", stdout=StringIO())
    response = client.post(reverse("login"), {"username": "pitboss", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


# --- the first start: `make run` never waits for the Cython build -------------------------------

ROOT = Path(__file__).resolve().parents[1]


def make_plan(target: str) -> str:
    """Every command `make TARGET` would run from nothing (-B: all out of date, -n: print only)."""
    if shutil.which("make") is None:
        pytest.skip("needs make")
    done = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True,
                          check=True, timeout=60)
    return done.stdout


@pytest.mark.parametrize("target", ["run", "demo", "migrate", "install"])
def test_the_quick_start_does_not_compile_the_engine(target):
    plan = make_plan(target)
    assert "tables.games.build_ext" not in plan, plan
    if target == "run":
        assert "manage.py runserver" in plan and "load_demo" in plan and "migrate" in plan
        # The demo's rulesets get their exact edges in the background: the server never waits.
        priced = next(line for line in plan.splitlines() if "manage.py price_rulesets" in line)
        assert priced.rstrip().endswith("&)") and plan.index(priced) < plan.index("manage.py runserver"), priced
        # ... and the decisions of the rounds recorded while it serves are priced beside it (no Celery worker).
        assert "manage.py decisions_price --follow" in priced, priced


@pytest.mark.parametrize("target", ["pytest", "engine"])
def test_the_tests_still_build_the_compiled_engine(target):
    assert "tables.games.build_ext" in make_plan(target)


def test_long_quick_start_steps_say_what_they_are_doing():
    plan = make_plan("run")
    for step in ("Installing", "Migrating", "Loading the demo"):
        assert step in plan, plan
    assert "--quiet" not in plan.split("pip install", 1)[1].splitlines()[0], "pip lists each package"
