"""Finance at a tablet: *Today so far* opens built and labelled "Provisional — as of HH:MM
(zone)", and a day's close lists what it waits for, each with a link to where it is settled;
both at 1180x820 and 768x1024 with nothing sticking out sideways and links big enough to tap.
With CASINO_DOCS_SCREENSHOTS=1 the finance report is saved to docs/screenshots/ at both sizes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login
from tests.browser.screen_checks import screen_failures, screen_findings
from tests.browser.test_no_sideways_scroll import SIZES, _assert_fits, _doc_shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
AS_OF = re.compile(r"^Provisional — as of \d\d:\d\d E[SD]T$")


@pytest.fixture
def eager_celery(settings, tmp_path):
    """The report's tasks run in the live server's thread (no worker in this test)."""
    from casino.celery import app

    settings.REPORTS_ROOT = tmp_path / "reports"
    old = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = old


def _fits(page, where: str, viewport) -> list[str]:
    failures: list[str] = []
    _assert_fits(page, where, failures)
    return failures + screen_failures(screen_findings(page), viewport, where)


def test_today_so_far_opens_built_and_labelled_provisional_at_both_sizes(browser, live_server, eager_celery):
    from audit.reports.services.runs import current_gaming_day
    from tests.factories import CasinoFactory, user_with_role
    from tests.reports.helpers import simulated_day

    casino = CasinoFactory()
    simulated_day(day=current_gaming_day(casino), rounds_per_table=1, seed=43, casino=casino)
    user_with_role("finance", username="finance")
    failures = []
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, has_touch=True)
        context.set_default_timeout(20_000)
        page = context.new_page()
        login(page, live_server, "finance")
        page.goto(f"{live_server.url}/reports/")
        page.click("#today-so-far")  # nothing else to press: opening it builds it
        expect(page.locator("#report-status")).to_have_text(AS_OF)
        expect(page.locator("#provisional-banner")).to_be_visible()
        expect(page.get_by_role("heading", name="Floor", exact=True)).to_be_visible()
        failures += _fits(page, f"today so far {size}", viewport)
        context.close()
    assert not failures, "\n".join(failures)


def test_the_close_lists_its_blockers_with_links_at_both_sizes(browser, live_server):
    from tests.closing.helpers import DAY
    from tests.closing.test_close_blockers_page import _day_with_three_blockers

    d, second = _day_with_three_blockers()
    failures = []
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, has_touch=True)
        context.set_default_timeout(20_000)
        page = context.new_page()
        login(page, live_server, "fin")
        page.goto(f"{live_server.url}/closing/?casino={d.f.casino.pk}&day={DAY:%Y-%m-%d}")
        items = page.locator("#close-blockers li")
        expect(items).to_have_count(3)
        expect(items.nth(1)).to_contain_text("Revision 1 of the count of BJ-1 is not signed.")
        for i in range(3):
            link = items.nth(i).get_by_role("link")
            box = link.bounding_box()
            assert box["height"] >= 44, f"{size}: blocker {i + 1}'s link is {box['height']:.0f}px tall"
        failures += _fits(page, f"close blockers {size}", viewport)
        expect(items.nth(2).get_by_role("link")).to_have_attribute(
            "href", f"/count/drop/?table={second.pk}&gaming_day={DAY:%Y-%m-%d}")
        items.nth(0).get_by_role("link").click()  # finance runs the final report there
        expect(page.locator("h1")).to_contain_text("Daily reconciliation")
        assert page.url.endswith(f"/reports/?casino={d.f.casino.pk}")
        context.close()
    assert not failures, "\n".join(failures)


def test_the_finance_report_page_at_both_sizes(browser, live_server, eager_celery):
    """A finished day's report fits both sizes (and is the docs' finance screenshot)."""
    from datetime import date

    from audit.reports.models import DailyReport
    from audit.reports.services.runs import report_request
    from tests.factories import user_with_role
    from tests.reports.helpers import simulated_day

    day = date(2026, 7, 1)
    sim = simulated_day(day=day, rounds_per_table=3, seed=12, tables_per_game=1, bad_dealer_rounds=2)
    report = report_request(casino=sim["casino"], gaming_day=day, via="command")
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    user_with_role("finance", username="finance")
    failures = []
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, has_touch=True)
        context.set_default_timeout(20_000)
        page = context.new_page()
        login(page, live_server, "finance")
        page.goto(f"{live_server.url}/reports/{report.pk}/")
        expect(page.locator("#report-progress")).to_have_attribute("data-status", "done")
        failures += _fits(page, f"finance report {size}", viewport)
        _doc_shot(page, "finance-report", "section.card.scroll", size)
        context.close()
    assert not failures, "\n".join(failures)
