"""The desk's advantage-play page in a real browser, at both tablet sizes: the flagged counter
first, its rounds opened under its row, nothing scrolling sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LANDSCAPE, PORTRAIT, login, screenshots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def counted_day(transactional_db):
    from tables.services.rounds import round_record
    from tables.services.sessions import table_session_open
    from tests.advantage.helpers import dealt_day, table_with_decks
    from tests.factories import user_with_role

    pitboss, watcher = user_with_role("pit_boss"), user_with_role("surveillance")
    table, dealer = table_with_decks(6)
    table_session_open(table=table, dealer=dealer, author=pitboss)
    rounds = [round_record(table=table, data=d, author=pitboss).round for d in dealt_day(32, seed=7)]
    return {"user": watcher, "table": table, "day": rounds[0].gaming_day.isoformat()}


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["1180x820", "768x1024"])
def test_surveillance_sees_the_counter_flagged_and_opens_its_rounds(size, page, live_server, counted_day):
    page.set_viewport_size(size)
    login(page, live_server, counted_day["user"].username)
    page.goto(f"{live_server.url}/desk/")
    page.get_by_role("link", name="Advantage play").click()
    page.select_option("select[name=table]", str(counted_day["table"].pk))
    page.fill("input[name=gaming_day]", counted_day["day"])
    page.get_by_role("button", name="Show").click()
    first = page.locator("#advantage tbody.player").first
    expect(first).to_contain_text("P-COUNTER")
    expect(first).to_contain_text("Flag: the bet follows the count")
    expect(page.locator("tbody.signal-flat_bet")).to_contain_text("No flag: flat bet")
    pairs = first.locator("table.pairs")
    expect(pairs).to_be_hidden()
    first.locator("summary").click()
    expect(pairs).to_be_visible()
    expect(pairs.locator("tbody tr")).to_have_count(32)
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshots(page, f"desk-advantage-{size['width']}")
