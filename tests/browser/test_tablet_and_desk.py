"""The tablet and the desk in a real browser: each role logs in and does its job.

* a correct round of each of the five games: no findings;
* an underpay: the finding, in plain words with the money, right after saving;
* offline during the save: "Not sent", then the round arrives exactly once on reconnect;
* surveillance reviews the finding and sees the decision in the history;
* a full seven-seat blackjack round, with its number of taps (printed, and bounded).
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tables.models import Finding, Round
from tests.browser.conftest import login, screenshots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap(page, selector: str) -> None:
    page.locator(selector).first.click()


def card(page, text: str) -> None:
    page.locator(f".card-grid [data-card='{text}']").click()


def bets(page, seats: list[int], wagers: dict[str, str]) -> None:
    """Choose the seats, then each wager's amount (a quick amount if there is one)."""
    tap(page, "text=None")
    for n in seats:
        tap(page, f"[data-seat='{n}']")
    for key, amount in wagers.items():
        tap(page, f"[data-wager='{key}']")
        quick = page.locator(f".quick-amounts [data-amount='{amount}']")
        if quick.count():
            quick.click()
        else:
            page.fill("#custom-amount", amount)
            page.get_by_role("button", name="Set", exact=True).click()
    tap(page, "#to-cards")


def expect_target(page, text: str) -> None:
    expect(page.locator("#target-text")).to_contain_text(text)


def pays_all_as_shown_and_save(page) -> None:
    tap(page, "#to-pays")
    expect(page.locator(".pay-row").first).to_be_visible()
    tap(page, "#all-as-shown")
    tap(page, "#save-round")


# --- one correct round per game (the hand-worked rounds of tests/tables/rounds_data.py) ---------


def enter_ante_up_21(page, *, pay_21: str | None = None) -> None:
    bets(page, [1], {"21": "10.00", "ante": "10.00"})  # BET follows the Ante
    for c in ("9S", "QH", "9D", "7C"):
        card(page, c)
    expect_target(page, "Seat 1")
    tap(page, "#btn-stand")
    tap(page, "#to-pays")
    if pay_21 is not None:
        key = "1|21|0"
        page.fill(f"[data-pay-input='{key}']", pay_21)
        tap(page, f"[data-pay-set='{key}']")
    tap(page, "#all-as-shown")
    tap(page, "#save-round")


def enter_upcard_luck_21(page) -> None:
    bets(page, [1], {"21": "10.00", "upcard_luck": "5.00"})
    for c in ("TS", "5H", "9D", "TC"):
        card(page, c)
    tap(page, "#btn-stand")
    expect_target(page, "Dealer draws")
    card(page, "8D")
    pays_all_as_shown_and_save(page)


def enter_blackjack_tie(page) -> None:
    bets(page, [1], {"21": "10.00", "tie_18": "2.00", "tie_LS": "1.00"})
    for c in ("9S", "TH", "9D", "8C"):
        card(page, c)
    tap(page, "#btn-stand")
    pays_all_as_shown_and_save(page)


def enter_poker_or_bust(page) -> None:
    bets(page, [1], {"ante": "10.00"})  # the Odds follows the Ante
    for c in ("9S", "KS", "9H", "7H", "4C"):
        card(page, c)
    expect_target(page, "draw")
    card(page, "2D")
    tap(page, "#btn-stand")
    expect_target(page, "Dealer draws")
    card(page, "5D")
    card(page, "9C")
    pays_all_as_shown_and_save(page)


def holdem_option(page, label: str) -> None:
    page.locator("#next-panel button", has_text=re.compile(rf"^{re.escape(label)}$")).click()


def holdem_stacks(page) -> None:
    """Seats 1, 2 and 4 with their stacks, the button at seat 1, on to the cards."""
    for n, stack in ((1, "100.00"), (2, "60.00"), (4, "80.00")):
        tap(page, "text=None")
        tap(page, f"[data-seat='{n}']")
        quick = page.locator(f".quick-amounts [data-amount='{stack}']")
        if quick.count():
            quick.click()
        else:
            page.fill("#custom-amount", stack)
            page.get_by_role("button", name="Set", exact=True).click()
    tap(page, "[data-button-seat='1']")
    tap(page, "#to-cards")


def enter_holdem_blackjack(page) -> None:
    tap(page, "text=None")
    holdem_stacks(page)
    tap(page, "#post-all")
    for seat, c in ((2, "9S"), (4, "KD"), (1, "5C")):
        expect_target(page, f"Hole card → seat {seat}")
        card(page, c)
    expect_target(page, "Seat 1 to act")
    holdem_option(page, "raise 4.00")
    expect_target(page, "Seat 2 to act")
    holdem_option(page, "fold")
    expect_target(page, "Seat 4 to act")
    holdem_option(page, "call 2.00")
    for seat, c in ((4, "7H"), (1, "6S")):
        expect_target(page, f"Up card → seat {seat}")
        card(page, c)
    expect_target(page, "Seat 4 to act")
    holdem_option(page, "check")
    expect_target(page, "Seat 1 to act")
    holdem_option(page, "bet 4.00")
    expect_target(page, "Seat 4 to act")
    holdem_option(page, "call 4.00")
    expect_target(page, "Seat 4 (17)")
    tap(page, "#btn-stand")
    expect_target(page, "Seat 1 (11)")
    card(page, "TH")
    expect_target(page, "Seat 1 (21)")
    tap(page, "#btn-stand")
    expect_target(page, "Seat 4 to act")
    holdem_option(page, "check")
    expect_target(page, "Seat 1 to act")
    holdem_option(page, "bet 10.00")
    expect_target(page, "Seat 4 to act")
    holdem_option(page, "call 10.00")
    expect_target(page, "showdown")
    tap(page, "#to-pays")
    expect(page.locator(".pay-row").first).to_be_visible()
    tap(page, "#all-as-shown")
    tap(page, "#save-round")


ENTER = {
    "ante_up_21": enter_ante_up_21,
    "upcard_luck_21": enter_upcard_luck_21,
    "blackjack_tie": enter_blackjack_tie,
    "poker_or_bust": enter_poker_or_bust,
    "holdem_blackjack": enter_holdem_blackjack,
}


@pytest.mark.parametrize("game", list(ENTER))
def test_correct_round_of_each_game_has_no_findings(game, page, live_server, floor_of_five):
    table = floor_of_five["tables"][game]
    login(page, live_server, "pit_boss")
    page.goto(f"{live_server.url}/tablet/")
    page.locator(f"[data-table='{table.label}']").click()
    tap(page, "#record-round")
    ENTER[game](page)
    expect(page.locator("#no-findings")).to_be_visible()
    screenshots(page, f"tablet-{game}-saved")
    rnd = Round.objects.get(table=table)
    assert rnd.open_findings == 0 and not Finding.objects.filter(round=rnd).exists()
    assert rnd.recorded_by.username == "pit_boss"


def test_underpay_shows_the_finding_with_the_money(page, live_server, floor_of_five):
    table = floor_of_five["tables"]["ante_up_21"]
    login(page, live_server, "pit_boss")
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/round/")
    enter_ante_up_21(page, pay_21="5")
    findings = page.locator("#saved-findings")
    expect(findings).to_contain_text("Underpaid")
    expect(findings).to_contain_text("underpaid by 5.00")
    expect(page.locator("#saved")).to_contain_text("5.00 at stake")
    screenshots(page, "tablet-underpay-finding")
    finding = Finding.objects.get(round__table=table)
    assert finding.kind == "underpay" and str(finding.amount) == "5.00"


def test_offline_save_arrives_once_after_reconnecting(page, context, live_server, floor_of_five):
    table = floor_of_five["tables"]["ante_up_21"]
    login(page, live_server, "pit_boss")
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/round/")
    bets(page, [1], {"21": "10.00", "ante": "10.00"})
    for c in ("9S", "QH", "9D", "7C"):
        card(page, c)
    tap(page, "#btn-stand")
    tap(page, "#to-pays")
    tap(page, "#all-as-shown")
    context.set_offline(True)
    tap(page, "#save-round")
    expect(page.locator("#send-state")).to_contain_text(
        "Not sent — will retry when the connection returns"
    )
    expect(page.locator("#outbox-banner")).to_contain_text("1 round not sent")
    screenshots(page, "tablet-offline-not-sent")
    assert Round.objects.filter(table=table).count() == 0
    stored = page.evaluate("() => window.casinoTablet.loadOutbox()")
    assert len(stored) == 1 and stored[0]["key"]
    context.set_offline(False)
    expect(page.locator("#no-findings")).to_be_visible(timeout=15_000)
    expect(page.locator("#outbox-banner")).to_be_hidden()
    # Send the same outbox entry again (as a tablet whose answer was lost would): still one round.
    status = page.evaluate(
        """async (item) => (await fetch(item.url, {method: 'POST', credentials: 'same-origin',
             headers: {'Content-Type': 'application/json', 'Idempotency-Key': item.key,
                       'X-CSRFToken': document.cookie.match(/csrftoken=([^;]+)/)[1]},
             body: JSON.stringify(item.body)})).status""",
        stored[0],
    )
    assert status == 201  # the first answer, replayed
    assert Round.objects.filter(table=table).count() == 1


def test_surveillance_reviews_the_finding_and_sees_it_in_history(page, live_server, floor_of_five):
    from tables.services.rounds import round_record
    from tests.tables.rounds_data import ROUNDS

    table = floor_of_five["tables"]["ante_up_21"]
    audited = round_record(
        table=table,
        data=ROUNDS["ante_up_21"]["underpay"][0],
        author=floor_of_five["users"]["pit_boss"],
    )
    finding = audited.round.findings.get()
    login(page, live_server, "surveillance")
    page.goto(f"{live_server.url}/desk/")
    expect(page.locator("#queue-totals")).to_contain_text("1 finding")
    expect(page.locator("#queue")).to_contain_text("underpaid by 5.00")
    screenshots(page, "desk-queue")
    page.locator("#queue a", has_text=f"{table.label} #").first.click()
    expect(page.locator("#wagers")).to_contain_text("pays 10.00")
    card_box = page.locator(f"#finding-{finding.pk}")
    card_box.locator("input[value=confirm]").check()
    card_box.locator("textarea[name=note]").fill("Dealer paid half on the 21 bet; coached.")
    card_box.get_by_role("button", name="Record decision").click()
    history = page.locator(f"#finding-{finding.pk} .history")
    expect(history).to_contain_text("confirm: Dealer paid half on the 21 bet; coached.")
    expect(history).to_contain_text("surveillance")
    screenshots(page, "desk-round-reviewed")
    finding.refresh_from_db()
    assert finding.status == Finding.CONFIRMED
    assert finding.history.filter(
        history_change_reason__startswith="confirm:", history_user__username="surveillance"
    ).exists()


def test_each_role_reaches_only_its_pages(page, live_server, floor_of_five):
    for username, allowed, refused in (
        ("pit_boss", "/tablet/", "/desk/"),
        ("surveillance", "/desk/", "/tablet/"),
        ("finance", "/floor/", "/tablet/"),
    ):
        page.context.clear_cookies()
        login(page, live_server, username)
        assert page.goto(f"{live_server.url}{allowed}").status == 200
        assert page.goto(f"{live_server.url}{refused}").status == 403


def test_seven_seat_blackjack_round_taps(page, live_server, floor_of_five):
    """A full seven-seat Ante Up 21 round: bets, 16 cards, play, dealer, pays, save."""
    table = floor_of_five["tables"]["ante_up_21"]
    login(page, live_server, "pit_boss")
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/round/")
    started = time.monotonic()
    tap(page, "[data-wager='21']")
    tap(page, ".quick-amounts [data-amount='20.00']")  # all seven seats are chosen at the start
    tap(page, "[data-wager='ante']")
    tap(page, ".quick-amounts [data-amount='10.00']")  # Ante, and the Bet follows it
    tap(page, "#to-cards")
    deal = [
        "TS",
        "9H",
        "5C",
        "8D",
        "2S",
        "KH",
        "AD",
        "6C",  # first card to seats 1-7, dealer's up card
        "7S",
        "9D",
        "JC",
        "3H",
        "QS",
        "7D",
        "KD",
        "TC",
    ]  # second cards, dealer's hole card
    for c in deal:
        card(page, c)
    # Seat 1: 17 stands. Seat 2: 18 stands. Seat 3: 15 hits (4) 19. Seat 4: 11 doubles (9) 20.
    # Seat 5: 12 hits (5) 17. Seat 6: 17 stands. Seat 7: blackjack (no tap: the page moves on).
    tap(page, "#btn-stand")
    tap(page, "#btn-stand")
    card(page, "4S")
    tap(page, "#btn-stand")
    tap(page, "#btn-double")
    card(page, "9C")
    card(page, "5H")
    tap(page, "#btn-stand")
    tap(page, "#btn-stand")
    expect_target(page, "Dealer draws")  # dealer 6 + 10 = 16 draws
    card(page, "8S")
    taps_before_pays = int(page.locator("#entry").get_attribute("data-taps"))
    shots_started = time.monotonic()
    screenshots(page, "tablet-seven-seats-cards")
    tap(page, "#to-pays")
    expect(page.locator(".pay-row").first).to_be_visible()
    screenshots(page, "tablet-seven-seats-pays")
    shots = time.monotonic() - shots_started
    assert int(page.locator("#entry").get_attribute("data-taps")) == taps_before_pays + 1
    tap(page, "#all-as-shown")
    tap(page, "#save-round")
    expect(page.locator("#saved")).to_be_visible()
    seconds = time.monotonic() - started - shots
    taps = int(page.locator("#entry").get_attribute("data-taps"))
    screenshots(page, "tablet-seven-seats-saved")
    rnd = Round.objects.get(table=table)
    assert len(rnd.revisions.get().data["seats"]) == 7
    print(f"\nseven-seat blackjack round: {taps} taps, {seconds:.1f} s driven by Playwright")
    assert taps <= 40, taps


def test_a_refused_round_is_shown_as_the_table_counts(page, live_server, floor_of_five):
    """Issue #15: the tablet shows "Seat 4, hand 1" for round.seats[1].hands[0] (seat 4 is
    the second seat listed), not the zero-based path."""
    from tests.tables.test_field_words import ROUND, WORDS

    table = floor_of_five["tables"]["ante_up_21"]
    login(page, live_server, "pit_boss")
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.evaluate("([url, round]) => window.casinoTablet.enqueue(url, {round}, 'T1 round')",
                  [f"/tablet/tables/{table.pk}/rounds/", ROUND])
    banner = page.locator("#outbox-banner .outbox-refused")
    expect(banner).to_contain_text(f"T1 round was refused: {WORDS}")
    expect(banner).not_to_contain_text("seats[1]")
    screenshots(page, "tablet-refused-in-words")
    assert Round.objects.filter(table=table).count() == 0
