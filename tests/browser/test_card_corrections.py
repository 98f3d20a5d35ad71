"""Every card position can be corrected on the tablet, in chromium at landscape and portrait
size: "Remove last card" takes back the card and every action that depended on it (the hit or
double that drew it, a stand on the total it made), so the right card can be tapped in its
place. One three-seat Ante Up 21 round corrects a player's first two cards, a hit, a double,
a split hand's card and the dealer's draw, and also a card taken back during the deal."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import RoundRevision
from tests.browser.conftest import LANDSCAPE, PORTRAIT, login, screenshots
from tests.browser.test_tablet_and_desk import bets, card, expect_target, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def remove_last(page) -> None:
    page.get_by_role("button", name="Remove last card").click()


def choose_hand(page, seat: int, hand: int = 0) -> None:
    page.locator(f"[data-hand='{seat}-{hand}']").click()


def hand_text(page, seat: int, hand: int = 0):
    return page.locator(f"[data-hand='{seat}-{hand}']")


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_every_card_position_is_corrected(size, page, live_server, floor_of_five):
    page.set_viewport_size(size)
    table = floor_of_five["tables"]["ante_up_21"]
    login(page, live_server, "pit_boss")
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/round/")
    bets(page, [1, 2, 3], {"21": "10.00", "ante": "10.00"})

    # The deal: a wrong card taken back while dealing goes back to its place in the order.
    card(page, "8S")
    card(page, "QC")  # seat 2's first card: wrong, corrected after the deal
    card(page, "4S")  # seat 3's first card: wrong, taken back at once
    expect_target(page, "Next card → dealer")
    remove_last(page)
    expect_target(page, "Next card → Seat 3 (card 1)")
    card(page, "6D")
    for c in ("6H", "8H", "2H", "5S", "TH"):  # dealer up, seat 1, seat 2 (wrong), seat 3, dealer hole
        card(page, c)

    # Seat 2's first two cards: both taken back and entered again.
    choose_hand(page, 2)
    remove_last(page)
    remove_last(page)
    expect(hand_text(page, 2)).not_to_contain_text("Q")
    card(page, "TC")
    card(page, "2D")
    expect_target(page, "Seat 2: tap a card to hit, or Stand")
    # A hit with the wrong card (it made 21 and ended the hand), corrected.
    card(page, "9C")
    remove_last(page)
    expect(hand_text(page, 2)).not_to_contain_text("hit")
    card(page, "5H")
    tap(page, "#btn-stand")

    # Seat 1 splits its eights; the second hand is dealt a wrong card, stood, then corrected.
    expect_target(page, "Seat 1")
    tap(page, "#btn-split")
    expect_target(page, "Seat 1 hand 1 (card 2)")
    card(page, "3D")
    card(page, "KS")  # hit: 21
    expect_target(page, "Seat 1 hand 2 (card 2)")
    card(page, "9D")  # wrong
    tap(page, "#btn-stand")
    expect_target(page, "Seat 3")
    choose_hand(page, 1, 1)
    remove_last(page)  # takes the 9 and the stand it made
    expect(hand_text(page, 1, 1)).not_to_contain_text("stand")
    card(page, "TS")
    tap(page, "#btn-stand")

    # Seat 3 doubles its 11 and the wrong card is tapped; the double goes with the card.
    expect_target(page, "Seat 3")
    tap(page, "#btn-double")
    card(page, "2C")
    expect_target(page, "Dealer draws")
    choose_hand(page, 3)
    remove_last(page)
    expect(hand_text(page, 3)).not_to_contain_text("double")
    tap(page, "#btn-double")
    card(page, "9S")

    # The dealer's 16 draws: a wrong card, taken back (the card tapped last).
    expect_target(page, "Dealer draws")
    card(page, "3C")
    remove_last(page)
    card(page, "2C")
    screenshots(page, f"tablet-corrections-{size['width']}")

    tap(page, "#to-pays")
    expect(page.locator(".pay-row").first).to_be_visible()
    tap(page, "#all-as-shown")
    tap(page, "#save-round")
    expect(page.locator("#saved")).to_be_visible()
    expect(page.locator("#saved-findings")).to_have_count(0)
    data = RoundRevision.objects.get(round__table=table).data
    hands = {s["seat"]: [(h["cards"], h.get("actions", [])) for h in s["hands"]] for s in data["seats"]}
    assert hands == {
        1: [(["8S", "3D", "KS"], ["split", "hit"]), (["8H", "TS"], ["stand"])],
        2: [(["TC", "2D", "5H"], ["hit", "stand"])],
        3: [(["6D", "5S", "9S"], ["double"])],
    }, hands
    assert data["dealer"]["cards"] == ["6H", "TH", "2C"]
