"""The API docs on a floor network without internet: Swagger UI and ReDoc from our own static files.

Every request to a host other than the live server is aborted (and recorded): the docs must
still show the operations, and must not even try to fetch a script, stylesheet or font from a
CDN. (ReDoc's bundle shows a decorative "Redocly" logo image from its CDN and hides it when it
does not load; an image is the one kind of outside request tolerated.)
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def offline_page(page, live_server):
    """The page with every non-local request aborted; returns (page, the aborted URLs)."""
    aborted: list[str] = []

    def local_only(route):
        host = urlsplit(route.request.url).hostname
        if host in ("127.0.0.1", "localhost", "::1") or route.request.url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            if route.request.resource_type != "image":
                aborted.append(route.request.url)
            route.abort()

    page.route("**/*", local_only)
    return page, aborted


@pytest.mark.parametrize("role", ["finance", "gaming_manager"])
def test_swagger_ui_shows_the_operations_offline(offline_page, live_server, role):
    from tests.factories import user_with_role

    user_with_role(role)
    page, aborted = offline_page
    login(page, live_server, role)
    page.goto(f"{live_server.url}/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Casino table games API")
    operations = page.locator(".opblock")
    expect(operations.first).to_be_visible()
    assert operations.count() > 20
    expect(page.locator(".swagger-ui")).to_contain_text("/api/v1/tables/")
    assert aborted == []


def test_redoc_shows_the_operations_offline(offline_page, live_server):
    from tests.factories import user_with_role

    user_with_role("surveillance")
    page, aborted = offline_page
    login(page, live_server, "surveillance")
    page.goto(f"{live_server.url}/api/redoc/")
    # ReDoc lays out the whole schema in the page's script before it shows a heading: more than
    # 20 s when the 2-core machine's other test worker is solving game math beside it
    expect(page.locator("h1")).to_contain_text("Casino table games API", timeout=60_000)
    expect(page.locator("body")).to_contain_text("/api/v1/tables/")
    assert aborted == []
