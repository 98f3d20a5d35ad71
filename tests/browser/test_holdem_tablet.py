"""Hold'em Blackjack on the tablet, in chromium at landscape and portrait size: the antes and
blinds panel shows a button per post (not an array printed as text), and every entry of the
action log can be seen, the 13th and later too (a two-column rule of the desk's stylesheet
once flowed them sideways under the card grid)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LANDSCAPE, PORTRAIT, login, screenshots
from tests.browser.test_tablet_and_desk import (
    card,
    expect_target,
    holdem_option,
    holdem_stacks,
    tap,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def play_to_showdown(page) -> None:
    for seat, c in ((2, "9S"), (4, "KD"), (1, "5C")):
        expect_target(page, f"Hole card → seat {seat}")
        card(page, c)
    for seat, option in ((1, "raise 4.00"), (2, "fold"), (4, "call 2.00")):
        expect_target(page, f"Seat {seat} to act")
        holdem_option(page, option)
    for seat, c in ((4, "7H"), (1, "6S")):
        expect_target(page, f"Up card → seat {seat}")
        card(page, c)
    for seat, option in ((4, "check"), (1, "bet 4.00"), (4, "call 4.00")):
        expect_target(page, f"Seat {seat} to act")
        holdem_option(page, option)
    expect_target(page, "Seat 4 (17)")
    tap(page, "#btn-stand")
    expect_target(page, "Seat 1 (11)")  # the server's next step is in: the card is due
    card(page, "TH")
    expect_target(page, "Seat 1 (21)")
    tap(page, "#btn-stand")
    for seat, option in ((4, "check"), (1, "bet 10.00"), (4, "call 10.00")):
        expect_target(page, f"Seat {seat} to act")
        holdem_option(page, option)
    expect_target(page, "showdown")


def uncovered(page, locator, *, scroll: bool = True) -> bool:
    """Whether the middle of the element is the element itself (nothing drawn over it) and
    inside the window; with ``scroll``, after scrolling to it as a person would: the page to
    its end (where the card grid, sticky at the bottom in portrait, rests in its place), then
    the log to the entry."""
    return page.evaluate(
        """([el, scroll]) => {
            if (scroll) {
                window.scrollTo(0, document.documentElement.scrollHeight);
                el.scrollIntoView({ block: "nearest" });
            }
            const r = el.getBoundingClientRect();
            const x = r.left + Math.min(r.width / 2, 40), y = r.top + r.height / 2;
            if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
            const hit = document.elementFromPoint(x, y);
            return hit !== null && el.contains(hit);
        }""",
        [locator.element_handle(), scroll],
    )


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_posts_are_buttons_and_every_log_entry_is_visible(size, page, live_server, floor_of_five):
    page.set_viewport_size(size)
    table = floor_of_five["tables"]["holdem_blackjack"]
    login(page, live_server, "pit_boss")
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/round/")
    holdem_stacks(page)
    panel = page.locator("#next-panel")
    expect(panel).to_contain_text("Antes and blinds due")
    assert "[object" not in panel.inner_text()
    posts = page.locator("#post-each button")
    expect(posts).to_have_count(5)  # three antes, the small and the big blind
    expect(posts.first).to_have_text("Seat 2 ante 0.50")  # antes from left of the button
    posts.first.click()  # one post at a time: it is logged and leaves the list
    expect(page.locator("#action-log li")).to_have_count(1)
    expect(page.locator("#post-each button")).to_have_count(4)
    tap(page, "#post-all")
    play_to_showdown(page)
    entries = page.locator("#action-log li")
    expect(entries).to_have_count(22)
    if size == LANDSCAPE:  # the entry just recorded is in view beside the grid, no scrolling
        page.evaluate("window.scrollTo(0, 0)")
        assert uncovered(page, entries.last, scroll=False)
    screenshots(page, f"tablet-holdem-log-{size['width']}")
    hidden = [i + 1 for i in range(entries.count()) if not uncovered(page, entries.nth(i))]
    assert hidden == [], f"log entries not visible: {hidden}"
