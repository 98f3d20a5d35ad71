"""Issue #15: taps that change a lot ask first and say what changed; finance sees today so far.

* closing a table: the confirmation names the dealer and the day's rounds; Cancel leaves it
  open; confirming closes it and says when, whose session ended and how many rounds;
* approving a jackpot adjustment: the confirmation shows the meter's move; Cancel posts
  nothing; confirming posts it and says the meter's old and new value;
* finance opens "Today so far": the provisional report, marked with its time.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login, screenshots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def eager_celery(settings, tmp_path):
    """The report's tasks run in the live server's thread (no worker in this test)."""
    from casino.celery import app

    settings.REPORTS_ROOT = tmp_path / "reports"
    old = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = old


def test_closing_a_table_is_confirmed_then_described(page, live_server, floor_of_five):
    from tables.models import Table

    table = floor_of_five["tables"]["ante_up_21"]
    login(page, live_server, "pit_boss")
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.click("#close-table")
    confirm = page.locator("#close-confirm")
    expect(confirm).to_contain_text(f"relieves Dealer {table.label}")
    expect(confirm).to_contain_text("0 rounds recorded today stay as they are")
    screenshots(page, "tablet-close-confirm")
    page.click("#cancel-close")
    expect(page.locator("#dealer-on-duty")).to_have_text(f"Dealer {table.label}")
    assert Table.objects.get(pk=table.pk).is_open
    page.click("#close-table")
    page.click("#close-without-closer summary")
    page.fill("#close-reason", "closer on paper")
    page.click("#confirm-close")
    expect(page.locator("body")).to_contain_text(re.compile(
        rf"Table {table.label} closed at \d\d:\d\d E[SD]T: session of Dealer {table.label} ended, 0 rounds today\."))
    assert not Table.objects.get(pk=table.pk).is_open


def test_approving_an_adjustment_is_confirmed_then_described(page, live_server, floor_of_five):
    from audit.jackpots.models import JackpotAdjustment, JackpotBank
    from audit.jackpots.selectors import adjustment_balance
    from audit.jackpots.services import jackpot_adjustment_request

    bank = JackpotBank.objects.first()
    adjustment = jackpot_adjustment_request(
        bank=bank, line="bust7_unsuited", amount=Decimal("25.00"), reason="malfunction_correction",
        note="meter display fault", author=floor_of_five["users"]["finance"])
    before = adjustment_balance(adjustment)
    login(page, live_server, "gaming_manager")
    page.goto(f"{live_server.url}/jackpots/adjustments/")
    page.get_by_role("button", name="Approve…").click()
    confirm = page.locator("#decision-confirm")
    expect(confirm).to_contain_text(
        f"meter 'dealer busts with 7 cards, unsuited blackjack' moves from {before:,.2f} to {before + 25:,.2f}")
    screenshots(page, "jackpots-adjustment-confirm")
    page.click("#cancel-decision")
    adjustment.refresh_from_db()
    assert adjustment.status == JackpotAdjustment.REQUESTED and adjustment_balance(adjustment) == before
    page.get_by_role("button", name="Approve…").click()
    page.fill("input[name=note]", "checked the display log")
    page.click("#confirm-decision")
    expect(page.locator("body")).to_contain_text(
        f"Adjustment #{adjustment.pk} approved: {bank} meter 'dealer busts with 7 cards, unsuited blackjack' "
        f"{before:,.2f} → {before + 25:,.2f}.")
    adjustment.refresh_from_db()
    assert adjustment.status == JackpotAdjustment.APPROVED and adjustment_balance(adjustment) == before + 25


def test_finance_sees_today_so_far_marked_provisional(page, live_server, floor_of_five, eager_celery):
    login(page, live_server, "finance")
    page.goto(f"{live_server.url}/reports/")
    page.click("#today-so-far")
    page.click("#provisional-refresh")
    banner = page.locator("#provisional-banner")
    expect(banner).to_contain_text(re.compile(r"Provisional — today so far, as of \d\d:\d\d E[SD]T"))
    expect(page.get_by_role("link", name="Download CSV")).to_be_visible()
    expect(page.get_by_role("link", name="Download PDF")).to_have_count(0)
    screenshots(page, "finance-today-so-far")
    page.click("#provisional-refresh")  # refresh on demand: the page comes back marked again
    expect(page.locator("#provisional-banner")).to_be_visible()
