"""Playwright (sync API) against pytest-django's live server, with Debian's chromium.

Never downloads a browser: without /usr/bin/chromium every browser test is skipped with
the reason. Screenshots go to var/screenshots/ (ignored by git).
"""

from __future__ import annotations

import os
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django refuses ORM calls from a
# thread with a running loop unless told it is safe (the tests make no concurrent calls).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "var" / "screenshots"
PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1180, "height": 820}
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config, items):
    if Path(CHROMIUM).exists() or shutil.which("chromium"):
        return
    skip = pytest.mark.skip(
        reason=f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)"
    )
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport=PORTRAIT, has_touch=True)
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def page(context):
    return context.new_page()


@pytest.fixture
def floor_of_five(transactional_db):
    """One open table per game in one pit, a dealer on each, one user per role."""
    from tables.games import GAMES
    from tables.services.sessions import table_session_open
    from tests.factories import (
        DealerFactory,
        PitFactory,
        RulesetFactory,
        TableFactory,
        jackpot_bank_for,
        user_with_role,
    )

    users = {
        role: user_with_role(role)
        for role in ("pit_boss", "surveillance", "gaming_manager", "finance")
    }
    pit = PitFactory(name="Main pit")
    tables = {}
    for i, game in enumerate(GAMES):
        table = TableFactory(
            pit=pit,
            label=f"T{i + 1}",
            game=game,
            ruleset=RulesetFactory(game=game, casino=pit.casino),
            seats=6 if game == "holdem_blackjack" else 7,
            min_bet=Decimal("10.00"),
            max_bet=Decimal("500.00"),
        )
        dealer = DealerFactory(casino=pit.casino, name=f"Dealer {table.label}")
        jackpot_bank_for(table)
        table_session_open(table=table, dealer=dealer, author=users["pit_boss"])
        tables[game] = table
    return {"users": users, "tables": tables, "pit": pit}


def login(page, live_server, username: str) -> None:
    from tests.factories import PASSWORD

    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def screenshots(page, name: str) -> list[Path]:
    """The page at tablet portrait and landscape size (the viewport is put back after)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    paths = []
    for label, size in (("portrait", PORTRAIT), ("landscape", LANDSCAPE)):
        page.set_viewport_size(size)
        path = SCREENSHOTS / f"{name}-{label}-{size['width']}x{size['height']}.png"
        page.screenshot(path=str(path), full_page=True)
        paths.append(path)
    page.set_viewport_size(before)
    return paths
