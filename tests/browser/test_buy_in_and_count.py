"""The tablet records a buy-in; the count room drops the box (after confirming), enters the
count and a second counter signs it. Both pages fit the tablet in both orientations with no sideways scroll."""

from __future__ import annotations

import pytest

from tests.browser.conftest import LANDSCAPE, PORTRAIT

pytestmark = pytest.mark.browser


def _login(page, live_server, user):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", "correct-horse-battery")
    page.click("button[type=submit], input[type=submit]")


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_record_a_buy_in_then_drop_count_and_sign(transactional_db, live_server, browser):
    from tests.accounting.drop_floor import drop_floor

    f = drop_floor()
    for viewport in (PORTRAIT, LANDSCAPE):
        ctx = browser.new_context(viewport=viewport, has_touch=True)
        ctx.set_default_timeout(15_000)
        page = ctx.new_page()
        _login(page, live_server, f.pit_boss)
        page.goto(f"{live_server.url}/tablet/tables/{f.table.pk}/buy-ins/")
        page.select_option("select[name=seat]", "3")
        page.fill("input[name=amount]", "500")
        page.fill("input[name=player_identifier]", "CARD-9")
        page.click("#record-buy-in")
        page.wait_for_selector("text=recorded")
        _no_sideways_scroll(page)
        ctx.close()
    assert f.table.buy_ins.count() == 2

    ctx = browser.new_context(viewport=PORTRAIT, has_touch=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    _login(page, live_server, f.counter)
    page.goto(f"{live_server.url}/count/")
    page.click(f"#box-{f.table.label} .drop-box")
    page.click("#confirm-drop")  # the drop cannot be undone: it asks first
    page.wait_for_selector("text=is dropped")
    page.fill(f"#box-{f.table.label} input[name='note-100']", "9")
    page.fill(f"#box-{f.table.label} input[name='note-20']", "5")
    page.fill(f"#box-{f.table.label} input[name='chip-25.00']", "2")
    page.click(f"#box-{f.table.label} .enter-count")
    page.wait_for_selector("text=a second counter signs it")
    _no_sideways_scroll(page)
    # One person cannot sign twice: the one who entered it is told who signs, not offered "Sign".
    assert page.locator(f"#box-{f.table.label} .sign-count").count() == 0
    assert "you entered this count" in page.locator(f"#box-{f.table.label} .awaiting-signature").inner_text()
    ctx.close()

    ctx = browser.new_context(viewport=LANDSCAPE, has_touch=True)
    page = ctx.new_page()
    _login(page, live_server, f.second_counter)
    page.goto(f"{live_server.url}/count/")
    page.click(f"#box-{f.table.label} .sign-count")
    page.wait_for_selector("text=signed and posted")
    assert page.locator(f"#box-{f.table.label} .counted-drop").inner_text() == "1,050.00"
    _no_sideways_scroll(page)
    ctx.close()
