"""Every page fits a tablet: no sideways scroll at 1180x820 (landscape) nor 768x1024 (portrait).

For every role, every page it may open (the permission matrix's GET pages that answer
HTML, plus the admin pages a gaming manager uses) is loaded in landscape and turned to
portrait (no page's script reads the screen's size, which a test holds), and at each
``document.documentElement.scrollWidth <= clientWidth`` is asserted; a failure names the
elements that stick out. The round entry is checked at its card grid (the King column) and
its pays step. With CASINO_DOCS_SCREENSHOTS=1 the tablet, desk and finance pages are also
saved to docs/screenshots/ (the README shows them).
"""

from __future__ import annotations

import os
import time
from datetime import date
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from casino.roles import CAGE, COMPLIANCE, COUNT, FINANCE, GAMING_MANAGER, PIT_BOSS, SURVEILLANCE
from tests.browser.conftest import LANDSCAPE, PORTRAIT, ROOT, login
from tests.browser.screen_checks import screen_failures, screen_findings
from tests.test_permission_matrix import MATRIX, PAGE_OBJECTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DAY = date(2026, 7, 1)
SIZES = {"landscape": LANDSCAPE, "portrait": PORTRAIT}
#: GET pages that answer a file or a fragment, not a page to look at.
NOT_PAGES = {"reports-file", "reports-period", "reports-progress", "jackpots-report-csv", "logout",
             "accounting-day-file", "accounting-exceptions-file", "fluctuations-holds-file", "investigations-file",
             "investigation-file", "compliance-mtl-file"}
#: Page URL name -> its arguments, when they are not an object's pk.
PAGE_TEXT_KWARGS = {"compliance-identification": {"identifier": "CARD-1"}}
ADMIN_PAGES = ("admin:index", "admin:tables_ruleset_changelist", "admin:tables_ruleset_change",
               "admin:tables_ruleset_history", "admin:tables_rulesetversion_changelist",
               "admin:tables_table_changelist")
DOCS = ROOT / "docs" / "screenshots"
#: url name -> (role, screenshot name, what to scroll to) for the docs: the tablet, the desk, finance.
DOC_SHOTS = {"tablet-floor": (PIT_BOSS, "tablet-floor", None),
             "tablet-round-new": (PIT_BOSS, "tablet-round-cards", None),
             "desk-queue": (SURVEILLANCE, "desk-queue", None),
             "reports-day": (FINANCE, "finance-report", "section.card.scroll")}

OVERFLOW_JS = """() => {
  const root = document.documentElement, width = root.clientWidth;
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.right > width + 0.5 && box.width > 0) {
      out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
               (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
               ' right=' + Math.round(box.right));
    }
  }
  // A table cut off inside a box that scrolls sideways counts too: nothing is hidden to the right.
  const inner = [];
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (['auto', 'scroll', 'hidden'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1
        && el.clientWidth > 2 && !el.matches('.action-log, textarea, pre')) {
      inner.push(el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
                 ' ' + el.scrollWidth + '>' + el.clientWidth);
    }
  }
  return {scroll: root.scrollWidth, client: width, out: out.slice(0, 8), inner: inner.slice(0, 8)};
}"""


@pytest.fixture
def busy_floor(settings, tmp_path):
    """A finished day at a floor of every game (rounds, findings, dealers), a report, a jackpot bank."""
    from audit.reports.services.runs import report_request
    from tables.models import Dealer, Finding, Table
    from tables.services.rounds import round_record
    from tests.closing.matrix_objects import reopened_and_closed_again
    from tests.factories import player_for, user_with_role
    from tests.fluctuations.matrix_objects import fluctuation_matrix_objects
    from tests.jackpots.matrix_objects import jackpot_matrix_objects
    from tests.reports.helpers import simulated_day
    from tests.tables.rounds_data import ROUNDS

    settings.REPORTS_ROOT = tmp_path / "reports"
    sim = simulated_day(day=DAY, rounds_per_table=4, seed=21, bad_dealer_rounds=3)
    users = {role: user_with_role(role) for role in (PIT_BOSS, SURVEILLANCE, FINANCE, GAMING_MANAGER, CAGE,
                                                     COMPLIANCE, COUNT)}
    from casino.celery import app

    eager, app.conf.task_always_eager = app.conf.task_always_eager, True  # built here, not by a worker
    try:
        report = report_request(casino=sim["casino"], gaming_day=DAY, via="command")
    finally:
        app.conf.task_always_eager = eager
    report.refresh_from_db()
    assert report.status == report.DONE, report.error
    table = Table.objects.get(pit__casino=sim["casino"], game="ante_up_21")
    # The logged-in pit boss's own round (pit bosses correct only their own entries).
    own = round_record(table=table, data=ROUNDS["ante_up_21"]["correct"][0], author=users[PIT_BOSS]).round
    finding = Finding.objects.filter(round__table__pit__casino=sim["casino"]).first()
    _slips_at(table, users)
    objects = {"table": table, "round": finding.round, "own_round": own, "finding": finding,
               "dealer": Dealer.objects.filter(casino=sim["casino"], name="Careless Dealer").get(),
               "dailyreport": report, **jackpot_matrix_objects(), **fluctuation_matrix_objects(table),
               **reopened_and_closed_again(report, users[GAMING_MANAGER]),
               "player": player_for(sim["casino"], "P-001", name="Busy Player", loyalty_number="L-1"),
               "api_token": _service_token()}
    return {"objects": objects, "ruleset": table.ruleset}


def _service_token():
    """A tablet's service account's API token (its revoke page asks first)."""
    from casino.tokens import api_token_issue
    from tests.factories import user_with_role

    tablet = user_with_role(PIT_BOSS, username="busy-tablet")
    tablet.set_unusable_password()
    tablet.save()
    return api_token_issue(user=tablet, author=None, name="busy floor")[0]


def _slips_at(table, users) -> None:
    """Chips at the table: an issued fill (its receipt form is the widest row), a void asked,
    for the tablet's chips page, the cage and the day's slips."""
    from tables.accounting.services.transfers import (
        chip_slip_issue,
        chip_slip_request,
        chip_slip_void_request,
    )
    from tests.factories import chip_set_for

    chip_set_for(table.pit.casino)
    fill = chip_slip_request(table=table, kind="fill", counts={"25": 40, "100": 20, "2.50": 8},
                             author=users[PIT_BOSS])
    chip_slip_issue(slip=fill, author=users[CAGE])
    credit = chip_slip_request(table=table, kind="credit", counts={"500": 4}, author=users[PIT_BOSS])
    chip_slip_void_request(slip=credit, reason="asked for the wrong table by mistake", author=users[PIT_BOSS])


def _rows_query(name: str, objects: dict) -> str:
    """The query that lists the seeded rows on a list page whose default period (the latest
    days) is after them: a page is measured with its links in it."""
    queries = {"investigations": f"?day={objects['investigation'].period_start}",
               "reports": f"?from={DAY}&to={DAY}", "desk-queue": f"?status=open&until={DAY}"}
    return queries.get(name, "")


def _pages_for(role: str, objects: dict, ruleset) -> list[tuple[str, str]]:
    pages = [("home", reverse("home"))]
    for name, rows in MATRIX.items():
        if name in NOT_PAGES or name == "home":
            continue
        for method, allowed, kind in rows:
            if method != "get" or kind != "page" or not isinstance(allowed, tuple) or role not in allowed:
                continue
            kwargs = {"pk": objects[PAGE_OBJECTS[name]].pk} if name in PAGE_OBJECTS else PAGE_TEXT_KWARGS.get(name, {})
            pages.append((name, reverse(name, kwargs=kwargs) + _rows_query(name, objects)))
    if role == GAMING_MANAGER:
        for name in ADMIN_PAGES:
            args = [ruleset.pk] if name.endswith(("_change", "_history")) else []
            pages.append((name, reverse(name, args=args)))
    return pages


def _in_flight(page) -> set:
    """The page's requests not yet answered, kept up to date by Playwright's events."""
    pending: set = set()
    page.on("request", lambda request: pending.add(request))
    page.on("requestfinished", lambda request: pending.discard(request))
    page.on("requestfailed", lambda request: pending.discard(request))
    return pending


def _open(page, url: str, where: str, pending: set) -> None:
    """The page, loaded; then its requests answered (an admin page's scripts), or 10 s more.

    Not Playwright's "networkidle", which waits half a second after the last request on every
    page: a minute of the test's three. The pages render on the server; what runs after the
    load event (the tablet's outbox, the admin's scripts) is waited for while it is in flight,
    and once more after a tenth of a second for a request a script starts late."""
    try:
        response = page.goto(url, wait_until="load")
    except PlaywrightTimeoutError as error:
        raise AssertionError(f"{where}: not loaded in time") from error
    assert response.status == 200, (where, response.status)
    deadline = time.monotonic() + 10
    for _ in range(2):
        page.wait_for_timeout(100)
        while pending and time.monotonic() < deadline:
            page.wait_for_timeout(50)


def _assert_fits(page, where: str, failures: list[str]) -> None:
    seen = page.evaluate(OVERFLOW_JS)
    if seen["scroll"] > seen["client"]:
        failures.append(f"{where}: scrollWidth {seen['scroll']} > clientWidth {seen['client']}: "
                        + "; ".join(seen["out"]))
    if seen["inner"]:
        failures.append(f"{where}: cut off in a box that scrolls sideways: " + "; ".join(seen["inner"]))


def _doc_shot(page, name: str, scroll_to: str | None, size: str) -> None:
    if os.environ.get("CASINO_DOCS_SCREENSHOTS") != "1":
        return
    DOCS.mkdir(parents=True, exist_ok=True)
    if scroll_to:  # below the sticky header
        page.evaluate("(css) => window.scrollTo(0, document.querySelector(css).offsetTop - 90)", scroll_to)
    page.screenshot(path=str(DOCS / f"{name}-{SIZES[size]['width']}x{SIZES[size]['height']}.png"))


def _to_card_grid(page) -> None:
    page.locator("[data-wager='21']").first.click()
    quick = page.locator(".quick-amounts [data-amount='10.00']")
    if quick.count():
        quick.first.click()
    else:
        page.fill("#custom-amount", "10.00")
        page.get_by_role("button", name="Set", exact=True).click()
    page.locator("#to-cards").click()
    king = page.locator(".card-grid [data-card='KS']")
    king.wait_for()
    width = king.bounding_box()["width"]
    assert width >= 44, f"the King's button is {width:.0f}px wide: too small to tap"


ROLES = (PIT_BOSS, SURVEILLANCE, FINANCE, GAMING_MANAGER, CAGE, COMPLIANCE, COUNT)


def _check(page, role: str, size: str, name: str, path: str, failures: list[str], tallest: dict, *,
           shot: str | None = None) -> None:
    """One page as it is shown at ``size``: fits, header, tap targets; ``shot``: the docs' shot of it."""
    viewport, where = SIZES[size], f"{role} {size} {name} {path}"
    _assert_fits(page, where, failures)
    seen = screen_findings(page)
    tallest[size] = max(tallest[size], seen["header"])
    failures.extend(screen_failures(seen, viewport, where))
    if shot in DOC_SHOTS and DOC_SHOTS[shot][0] == role:
        _doc_shot(page, *DOC_SHOTS[shot][1:], size)


def test_every_page_fits_a_tablet(browser, live_server, busy_floor):
    """Every role's every page, at both sizes, on one seeded floor: no sideways scroll, a
    header of one line within a tenth of the screen that covers nothing scrolled to, and
    every control at least 44x44 px (tests/browser/screen_checks.py). Each page is loaded in
    landscape and then turned to portrait, as a tablet turns (test_layout_is_css_only.py keeps
    that the same as loading it in portrait); the round entry's card grid is reached at each size."""
    failures: list[str] = []
    headers: list[str] = []
    for role in ROLES:
        pages = _pages_for(role, busy_floor["objects"], busy_floor["ruleset"])
        context = browser.new_context(viewport=LANDSCAPE, has_touch=True)
        context.set_default_timeout(30_000)  # a loaded machine (CI's two cores) is slow to go idle
        page = context.new_page()
        pending = _in_flight(page)
        login(page, live_server, role)
        tallest = dict.fromkeys(SIZES, 0.0)
        for name, path in pages:
            grid = name == "tablet-round-new" and role == PIT_BOSS  # the docs show its card grid
            page.set_viewport_size(LANDSCAPE)
            _open(page, f"{live_server.url}{path}", f"{role} {name} {path}", pending)
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                _check(page, role, size, name, path, failures, tallest, shot=None if grid else name)
            if grid:
                for size, viewport in SIZES.items():
                    page.set_viewport_size(viewport)
                    _open(page, f"{live_server.url}{path}", f"{role} {size} {name} {path}", pending)
                    _to_card_grid(page)
                    _check(page, role, size, f"{name} (card grid)", path, failures, tallest, shot=name)
        headers += [f"{role} {size}: header up to {tallest[size]:.0f}px" for size in SIZES]
        context.close()
    print("\n".join(headers))
    small = sum("tap target under" in f for f in failures)
    assert not failures, f"{len(failures)} failures ({small} tap targets too small)\n" + "\n".join(
        headers + failures)


def test_the_login_page_fits(browser, live_server):
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, has_touch=True)
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        failures: list[str] = []
        _assert_fits(page, f"login {size}", failures)
        context.close()
        assert not failures, failures


def test_docs_screenshots_exist_for_both_sizes():
    """The README shows the tablet, the desk and the finance pages at both tablet sizes."""
    readme = (ROOT / "README.md").read_text()
    for name in ("tablet-round-cards", "desk-queue", "finance-report"):
        for viewport in SIZES.values():
            file = f"docs/screenshots/{name}-{viewport['width']}x{viewport['height']}.png"
            assert (ROOT / file).exists() and file in readme, file
            assert Path(ROOT / file).stat().st_size < 400_000, f"{file}: keep the screenshots small"
