"""Compliance's Title 31 page in the browser: the MTL and a CTR of today, the patron identified
through the form, the MTL signed; the page fits a tablet at both sizes."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.browser.conftest import LANDSCAPE, PORTRAIT, login, screenshots
from tests.browser.test_no_sideways_scroll import _assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_compliance_identifies_a_ctr_patron_and_signs_the_mtl(browser, live_server):
    from tables.accounting.services.buyins import buy_in_record
    from tests.compliance.helpers import t31_floor

    f = t31_floor()
    for table, amount in ((f.bj1, "6000.00"), (f.bj2, "5000.00"), (f.bj1, "1200.00")):
        buy_in_record(table=table, seat=2, kind="cash", amount=Decimal(amount), author=f.pit_boss,
                      player_identifier="WHALE-9" if amount != "1200.00" else "SMALL-1")
    context = browser.new_context(viewport=PORTRAIT, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    login(page, live_server, "compliance-officer")
    page.goto(f"{live_server.url}/compliance/")
    assert "WHALE-9" in page.inner_text("#mtl") and "SMALL-1" not in page.inner_text("#mtl")
    assert "the day waits on this" in page.inner_text("#ctrs")
    assert "split across tables" in page.inner_text("#flags")
    failures: list[str] = []
    for size in (PORTRAIT, LANDSCAPE):
        page.set_viewport_size(size)
        _assert_fits(page, f"compliance {size['width']}x{size['height']}", failures)
    screenshots(page, "compliance-day")
    page.click("#ctrs a.btn")
    page.wait_for_selector("#identification-form")
    for name, value in (("last_name", "Doe"), ("first_name", "Jane"), ("address", "1 Main St, Atlantic City NJ"),
                        ("date_of_birth", "1970-01-02"), ("tin", "123-45-6789"),
                        ("document_type", "driver's license"), ("document_number", "D123"),
                        ("document_issuer", "NJ"), ("document_expiry", "2031-01-01"), ("reason", "ID at the cage")):
        page.fill(f"input[name={name}]", value)
    for size in (PORTRAIT, LANDSCAPE):
        page.set_viewport_size(size)
        _assert_fits(page, f"identification {size['width']}x{size['height']}", failures)
    page.click("#record-identification")
    page.wait_for_selector("#sign-mtl")
    assert "complete" in page.inner_text("#ctrs") and "waits" not in page.inner_text("#ctrs")
    page.click("#sign-mtl")
    page.wait_for_selector("#sign-off-state")
    assert page.inner_text("#sign-off-state") == "signed"
    context.close()
    assert not failures, "\n".join(failures)
