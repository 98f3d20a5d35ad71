"""A fill from its request at the tablet, to its issue at the cage, to its receipt at the
table, in the browser; the chips page and the cage fit a tablet at both sizes."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.browser.conftest import LANDSCAPE, PORTRAIT, login, screenshots
from tests.browser.test_no_sideways_scroll import _assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def chips_floor(transactional_db):
    from tests.factories import DealerFactory, TableFactory, chip_set_for, user_with_role

    table = TableFactory(label="BJ-7")
    chip_set_for(table.pit.casino)
    return {"table": table, "dealer": DealerFactory(casino=table.pit.casino, name="Dee Dealer"),
            "boss": user_with_role("pit_boss"), "cage": user_with_role("cage")}


def _fits(page, where: str) -> None:
    failures: list[str] = []
    for size in (PORTRAIT, LANDSCAPE):
        page.set_viewport_size(size)
        _assert_fits(page, f"{where} {size['width']}x{size['height']}", failures)
    page.set_viewport_size(PORTRAIT)
    assert not failures, "\n".join(failures)


def test_a_fill_walks_from_the_tablet_to_the_cage_and_back(browser, live_server, chips_floor):
    from tables.accounting.ledger import account_for, balance
    from tables.accounting.models import Account, AccountingFinding, ChipSlip

    table, dealer = chips_floor["table"], chips_floor["dealer"]
    tablet = browser.new_context(viewport=PORTRAIT, has_touch=True)
    tablet.set_default_timeout(15_000)
    boss = tablet.new_page()
    login(boss, live_server, "pit_boss")
    boss.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    boss.click("#table-chips")
    # Open with an opener: 10 x 100 and 40 x 25, signed by the dealer with the badge number.
    boss.fill("#opener-count-100", "10")
    boss.fill("#opener-count-25", "40")
    boss.select_option("#opener-dealer", str(dealer.pk))
    boss.fill("#opener-badge", dealer.employee_number)
    boss.click("#opener-save")
    boss.wait_for_selector("#fill-request")
    # Request a fill of 20 x 100.
    boss.fill("#fill-count-100", "20")
    boss.click("#fill-request")
    boss.wait_for_selector("text=requested")
    slip = ChipSlip.objects.get()
    assert (slip.label, slip.status, slip.total) == ("F-000001", "requested", Decimal("2000.00"))
    _fits(boss, "tablet chips")

    cage_context = browser.new_context(viewport=LANDSCAPE, has_touch=True)
    cage_context.set_default_timeout(15_000)
    cage = cage_context.new_page()
    login(cage, live_server, "cage")
    cage.goto(f"{live_server.url}/cage/")
    cage.click(f"#issue-{slip.label}")
    cage.wait_for_selector("text=issued to BJ-7")
    _fits(cage, "cage")
    screenshots(cage, "cage")

    boss.reload()
    boss.select_option(f"#receive-{slip.label}-dealer", str(dealer.pk))
    boss.fill(f"#receive-{slip.label}-badge", dealer.employee_number)
    _fits(boss, "tablet chips, a fill to receive")
    screenshots(boss, "tablet-chips")
    boss.click(f"#receive-{slip.label}")
    boss.wait_for_selector(f"text={slip.label} received.")
    slip.refresh_from_db()
    assert slip.status == "received" and slip.received_dealer == dealer
    assert slip.issued_by == chips_floor["cage"] and slip.received_by == chips_floor["boss"]
    assert balance(account_for(table.pit.casino, Account.TABLE_INVENTORY, table)) == Decimal("4000")
    assert not AccountingFinding.objects.exists()
    tablet.close()
    cage_context.close()
