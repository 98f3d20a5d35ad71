"""A first visit to the demo in a real browser: each role logs in with the login `load_demo`
printed and finds its part of the story (issue #15, point 10)."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from audit.jackpots.models import JackpotAdjustment
from casino.demo.story import JACKPOT_PLAYER, PATTERN_PLAYER
from tests.browser.conftest import screenshots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, username: str, password: str) -> None:
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def test_each_role_finds_its_story_on_a_first_visit(page, live_server):
    out = StringIO()
    call_command("load_demo", "--rounds", "6", stdout=out)
    logins = dict(re.findall(r"user: (\S+)\s+password: (\S+)", out.getvalue()))

    log_in(page, live_server, "surveillance", logins["surveillance"])
    page.goto(f"{live_server.url}/desk/patterns/")
    expect(page.locator("table").first).to_contain_text(PATTERN_PLAYER)
    screenshots(page, "demo-patterns")

    log_in(page, live_server, "manager", logins["manager"])
    page.goto(f"{live_server.url}/jackpots/")
    waiting = page.locator("tr", has_text=JACKPOT_PLAYER)
    expect(waiting).to_have_count(1)
    expect(waiting.get_by_role("link", name="Pay")).to_be_visible()
    screenshots(page, "demo-jackpots")

    log_in(page, live_server, "manager2", logins["manager2"])
    page.goto(f"{live_server.url}/jackpots/adjustments/")
    page.locator("tr", has_text="awaiting approval").get_by_role("button", name="Approve…").click()
    expect(page.locator("#decision-confirm")).to_be_visible()
    page.click("#confirm-decision")
    expect(page.locator("tr", has_text="malfunction correction")).to_contain_text("approved")
    assert JackpotAdjustment.objects.get().decided_by.username == "manager2"

    log_in(page, live_server, "finance", logins["finance"])
    page.goto(f"{live_server.url}/reports/")
    done = page.locator("tr", has_text="done")
    expect(done.first).to_be_visible()
    done.first.get_by_role("link", name="Open").click()
    expect(page.locator("h1")).to_contain_text("Demo Casino")
    screenshots(page, "demo-report")
