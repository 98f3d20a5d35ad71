"""Actions that cannot be undone ask first, at both tablet sizes:

* the count room's "Record box drop…" opens a confirmation that names the box and says the drop
  cannot be undone; Cancel records nothing; confirming records it. Plain forms: it works with
  JavaScript off (this test runs it so);
* the token page's "Revoke…" opens a confirmation naming the token and its user; Cancel keeps
  the token working; confirming revokes it;
* a count waiting for its second signature tells the counter who entered it that another
  counter signs, instead of a "Sign" button the four-eyes rule would refuse.
"""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import LANDSCAPE, PORTRAIT, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SIZES = pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["1180x820", "768x1024"])


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def _tappable(locator) -> None:
    box = locator.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box


@SIZES
def test_recording_a_box_drop_asks_first_and_works_without_javascript(browser, live_server, viewport):
    from tables.accounting.models import BoxDrop
    from tests.accounting.drop_floor import drop_floor

    f = drop_floor()
    context = browser.new_context(viewport=viewport, has_touch=True, java_script_enabled=False)
    context.set_default_timeout(15_000)
    page = context.new_page()
    login(page, live_server, f.counter.username)
    page.goto(f"{live_server.url}/count/")
    drop = page.locator(f"#box-{f.table.label} .drop-box")
    expect(drop).to_have_text("Record box drop…")
    drop.click()
    confirm = page.locator("#drop-confirm")
    expect(confirm).to_contain_text(f"the drop box of {f.table.label}")
    expect(confirm).to_contain_text("This cannot be undone")
    _fits(page)
    _tappable(page.locator("#confirm-drop"))
    _tappable(page.locator("#cancel-drop"))
    page.click("#cancel-drop")
    expect(page.locator(f"#box-{f.table.label} .drop-box")).to_be_visible()
    assert not BoxDrop.objects.exists()
    page.click(f"#box-{f.table.label} .drop-box")
    page.click("#confirm-drop")
    expect(page.locator("body")).to_contain_text(f"The box of {f.table.label} for")
    expect(page.locator(f"#box-{f.table.label} .drop-box")).to_have_count(0)
    assert BoxDrop.objects.get().dropped_by == f.counter
    context.close()


@SIZES
def test_revoking_a_token_asks_first_then_revokes(browser, live_server, viewport):
    from casino.models import ApiToken
    from casino.tokens import api_token_issue
    from tests.factories import user_with_role

    manager = user_with_role("gaming_manager")
    token = api_token_issue(user=manager, author=manager, name="night job")[0]
    context = browser.new_context(viewport=viewport, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    login(page, live_server, manager.username)
    page.goto(f"{live_server.url}/tokens/")
    page.get_by_role("button", name="Revoke…").click()
    confirm = page.locator("#revoke-confirm")
    expect(page.locator("h1")).to_have_text(f"Revoke token {token.prefix}… of {manager}?")
    expect(confirm).to_contain_text("This cannot be undone: a revoked token never works again")
    _fits(page)
    _tappable(page.locator("#confirm-revoke"))
    _tappable(page.locator("#cancel-revoke"))
    page.click("#cancel-revoke")
    expect(page.get_by_role("button", name="Revoke…")).to_be_visible()
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None
    page.get_by_role("button", name="Revoke…").click()
    page.click("#confirm-revoke")
    expect(page.locator("body")).to_contain_text(f"Revoked {token.prefix}… of {manager}.")
    expect(page.get_by_role("button", name="Revoke…")).to_have_count(0)
    assert ApiToken.objects.get(pk=token.pk).revoked_by == manager
    context.close()


@SIZES
def test_the_counter_who_entered_a_count_is_told_who_signs(browser, live_server, viewport):
    from casino.gaming_day import current_gaming_day
    from tables.accounting.services.drop_boxes import drop_box_drop
    from tables.accounting.services.soft_count import soft_count_enter
    from tests.accounting.drop_floor import drop_floor

    f = drop_floor()
    box = drop_box_drop(table=f.table, gaming_day=current_gaming_day(f.casino, timezone.now()), author=f.counter)
    soft_count_enter(box=box, author=f.counter, currency={"100": 2})
    context = browser.new_context(viewport=viewport, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    login(page, live_server, f.counter.username)
    page.goto(f"{live_server.url}/count/")
    card = page.locator(f"#box-{f.table.label}")
    expect(card.locator(".awaiting-signature")).to_have_text(
        "Awaiting a second counter's signature — you entered this count")
    expect(card.locator(".sign-count")).to_have_count(0)
    _fits(page)
    context.close()
