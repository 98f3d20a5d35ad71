"""Taps for a three-seat round of each game on the tablet (chromium, landscape): bets, every
card, the play, the pays (attested "paid as shown" in one tap) and the save, counted by the
page's own tap counter. Printed for the docs, and bounded so that a change that adds taps to
the floor's every round fails here."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Round
from tests.browser.conftest import LANDSCAPE, login
from tests.browser.test_holdem_tablet import play_to_showdown
from tests.browser.test_tablet_and_desk import bets, card, holdem_stacks, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def blackjack(wagers: dict[str, str]):
    def enter(page):
        bets(page, [1, 2, 3], wagers)
        for c in ("TS", "9C", "TC", "6H", "7H", "9D", "8D", "TH"):  # seats 1-3, dealer, twice
            card(page, c)
        for _ in range(3):
            tap(page, "#btn-stand")
        card(page, "QS")  # the dealer's 16 draws and busts
    return enter


def poker_or_bust(page):
    bets(page, [1, 2, 3], {"ante": "10.00"})  # the Odds follows the Ante
    for c in ("9S", "KS", "7C", "KH", "9H", "QS", "8C", "7H", "4C", "5D", "9C"):
        card(page, c)
    for _ in range(3):
        tap(page, "#btn-stand")
    card(page, "5S")
    card(page, "9D")


def holdem(page):
    holdem_stacks(page)
    tap(page, "#post-all")
    play_to_showdown(page)


ENTER = {
    "ante_up_21": blackjack({"21": "10.00", "ante": "10.00"}),
    "upcard_luck_21": blackjack({"21": "10.00", "upcard_luck": "5.00"}),
    "blackjack_tie": blackjack({"21": "10.00", "tie_18": "2.00"}),
    "poker_or_bust": poker_or_bust,
    "holdem_blackjack": holdem,
}


def test_three_seat_round_taps_per_game(page, live_server, floor_of_five):
    page.set_viewport_size(LANDSCAPE)
    login(page, live_server, "pit_boss")
    taps = {}
    for game, enter in ENTER.items():
        table = floor_of_five["tables"][game]
        page.goto(f"{live_server.url}/tablet/tables/{table.pk}/round/")
        enter(page)
        tap(page, "#to-pays")
        expect(page.locator(".pay-row").first).to_be_visible()
        tap(page, "#all-as-shown")
        tap(page, "#save-round")
        expect(page.locator("#saved")).to_be_visible()
        taps[game] = int(page.locator("#entry").get_attribute("data-taps"))
        assert Round.objects.filter(table=table).count() == 1
    print("\nthree-seat round taps:", ", ".join(f"{g} {n}" for g, n in taps.items()))
    assert all(n <= 36 for n in taps.values()), taps
