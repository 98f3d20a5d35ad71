"""A round cannot hide its pays, on the tablet in chromium at landscape and portrait size: the
pays screen counts the pays not marked, a save with unmarked pays and no attestation is held
back (and the server refuses it anyway), one tap attests "paid as shown", and the round's page
then says so instead of showing the pays as matching."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Round, RoundRevision
from tests.browser.conftest import LANDSCAPE, PORTRAIT, login, screenshots
from tests.browser.test_tablet_and_desk import bets, card, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def to_pays(page) -> None:
    bets(page, [1], {"21": "10.00", "ante": "10.00"})  # the Bet follows the Ante
    for c in ("9S", "QH", "9D", "7C"):
        card(page, c)
    tap(page, "#btn-stand")
    tap(page, "#to-pays")
    expect(page.locator(".pay-row").first).to_be_visible()


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_the_tablet_counts_unmarked_pays_and_stores_an_attested_round(size, page, live_server, floor_of_five):
    page.set_viewport_size(size)
    table = floor_of_five["tables"]["ante_up_21"]
    login(page, live_server, "pit_boss")
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/round/")
    to_pays(page)
    count = page.locator("#pays-unmarked")
    expect(count).to_have_text("3 of 3 pays not marked: mark each, or attest them.")
    tap(page, "#save-round")
    expect(page.locator(".entry-message")).to_contain_text("3 pays are not marked")
    assert not Round.objects.exists()
    tap(page, "[data-pay-ok='1|21|0']")
    expect(count).to_contain_text("2 of 3 pays not marked")
    tap(page, "#all-as-shown")
    expect(count).to_contain_text("attested")
    expect(page.locator("[data-pay='1|ante|null']")).to_contain_text("attested, not recorded")
    screenshots(page, f"tablet-pays-attested-{size['width']}")
    tap(page, "#save-round")
    expect(page.locator("#no-findings")).to_contain_text("2 pays attested")
    revision = RoundRevision.objects.get(round__table=table)
    assert revision.pays_attested
    assert {(w.wager, w.recorded_net is None) for w in revision.wagers.all()} == {
        ("21", False), ("ante", True), ("bet", True)}
    page.get_by_role("link", name="View round").click()
    expect(page.locator("#pays-attested")).to_contain_text("2 pays attested")
    expect(page.locator("table.data")).to_contain_text('attested "paid as shown", not recorded')


def test_every_pay_marked_is_a_recorded_round(page, live_server, floor_of_five):
    page.set_viewport_size(LANDSCAPE)
    table = floor_of_five["tables"]["ante_up_21"]
    login(page, live_server, "pit_boss")
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/round/")
    to_pays(page)
    for key in ("1|21|0", "1|ante|null", "1|bet|null"):
        tap(page, f"[data-pay-ok='{key}']")
    expect(page.locator("#pays-unmarked")).to_have_text("Every pay is marked.")
    expect(page.locator("#all-as-shown")).to_have_count(0)
    tap(page, "#save-round")
    expect(page.locator("#no-findings")).to_have_text("No findings: every pay matched.")
    assert RoundRevision.objects.get(round__table=table).pays_attested is False
