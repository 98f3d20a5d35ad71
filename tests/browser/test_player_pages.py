"""The pit boss finds the day's top players, opens a player's page (sessions in the casino's
zone) and registers an unregistered identifier, at tablet landscape and portrait."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LANDSCAPE, PORTRAIT, login, screenshots

pytestmark = pytest.mark.browser


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_pit_boss_player_page(transactional_db, live_server, browser):
    from tables.players.models import Player
    from tests.factories import user_with_role
    from tests.ratings.helpers import worked_day

    worked = worked_day()
    boss = user_with_role("pit_boss", username="browser-boss")
    for viewport, identifier in ((LANDSCAPE, None), (PORTRAIT, "P-9")):
        ctx = browser.new_context(viewport=viewport, has_touch=True)
        ctx.set_default_timeout(15_000)
        page = ctx.new_page()
        login(page, live_server, boss.username)
        page.click("nav.main >> text=Players")
        page.click("text=Top players of the day")
        page.fill("input[name=gaming_day]", "2026-03-02")
        page.click("button:has-text('Show')")
        # The click starts a navigation that Playwright does not wait for: the old page's
        # empty table must not be read as the answer.
        page.wait_for_url("**gaming_day=2026-03-02*")
        rows = page.locator("table.top-players tbody tr")
        expect(rows).to_have_count(2)
        assert "not registered" in rows.nth(1).inner_text()
        _no_sideways_scroll(page)
        page.click("table.top-players >> text=Ada Lovelace")
        sessions = page.locator("table.sessions tbody tr")
        expect(sessions).to_have_count(3)
        # 15:00 UTC on 2026-03-02 is 10:00 in New York.
        assert sessions.nth(0).inner_text().split("\t")[:3] == ["T-A", "10:00 EST", "10:12 EST"]
        assert page.locator("dd.minutes").inner_text() == "27 min"
        assert page.locator("dd.theo").inner_text() == "4.80"
        _no_sideways_scroll(page)
        screenshots(page, "player-page")
        if identifier:
            page.go_back()
            page.click("table.top-players a.btn")
            assert page.input_value("input[name=identifier]") == identifier
            page.fill("input[name=name]", "Grace Hopper")
            page.click("button:has-text('Register')")
            page.wait_for_selector("text=Registered")
            assert page.locator("h1").inner_text().startswith("Grace Hopper")
        ctx.close()
    assert Player.objects.get(identifier="P-9").name == "Grace Hopper"
    assert worked["player"].identifier == "P-7"
