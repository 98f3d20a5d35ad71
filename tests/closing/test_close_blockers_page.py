"""What a gaming day's close waits for, on /closing/ and the report's page: a list, one sentence
per blocker, each with a link to the page where it is settled (not one run-on sentence)."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal as D
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from tables.accounting.services.buyins import buy_in_record
from tables.closing.services.close import close_blockers, close_waiting
from tables.services.sessions import table_session_close, table_session_open
from tests.closing.helpers import DAY, final_report, played_day
from tests.factories import DealerFactory, TableFactory

pytestmark = pytest.mark.django_db(transaction=True)
ITEM = re.compile(r'<li><span class="blocker-text">(.*?)</span>(?: <a class="btn" href="([^"]*)">(.*?)</a>)?</li>',
                  re.S)


def _blockers(html: str) -> list[tuple[str, str, str]]:
    section = html[html.index('id="close-blockers"'):]
    section = section[:section.index("</ul>")]
    return [(unescape(t), unescape(u), unescape(a)) for t, u, a in ITEM.findall(section)]


def _day_with_three_blockers():
    """BJ-1 counted but not signed, BJ-2's box never dropped, no final report."""
    d = played_day()
    second = TableFactory(label="BJ-2", pit=d.f.table.pit)
    session = table_session_open(table=second, dealer=DealerFactory(casino=d.f.casino), author=d.f.pit_boss,
                                 at=d.session.opened_at)
    buy_in_record(table=second, seat=2, kind="cash", amount=D("100.00"), author=d.f.pit_boss,
                  at=d.session.opened_at + timedelta(minutes=5))
    table_session_close(session=session, author=d.f.pit_boss, at=d.session.opened_at + timedelta(minutes=10))
    return d, second


def test_each_blocker_is_its_own_sentence_with_a_link_to_where_it_is_settled():
    d, second = _day_with_three_blockers()
    casino = d.f.casino
    client = Client()
    client.force_login(d.f.finance)
    page = client.get(reverse("closing-days") + f"?casino={casino.pk}&day={DAY:%Y-%m-%d}")
    assert page.status_code == 200
    html = page.content.decode()
    assert "waiting for" not in html  # no longer one sentence joined with semicolons
    count_room = f"{reverse('count-day')}?day={DAY:%Y-%m-%d}"
    assert _blockers(html) == [
        ("The final report has not finished.", f"{reverse('reports')}?casino={casino.pk}",
         "Run (or follow) the final report of 2026-03-10 on the reports page"),
        ("Revision 1 of the count of BJ-1 is not signed.", f"{count_room}#box-BJ-1",
         "A second counter signs it in the count room"),
        ("The box of BJ-2 is not dropped.",
         f"{reverse('count-drop')}?table={second.pk}&gaming_day=2026-03-10", "Drop the box of BJ-2"),
    ]
    assert "Not closed yet. It closes by itself once these 3 are settled:" in html
    # The API and the services keep the plain sentences.
    assert close_waiting(casino.pk, DAY) == [b.text for b in close_blockers(casino.pk, DAY)]
    # Each link opens for the role that settles it.
    for role_user, (_, url, _) in zip((d.f.finance, d.f.counter, d.f.counter), _blockers(html), strict=True):
        client.force_login(role_user)
        assert client.get(url).status_code == 200, url


def test_the_reports_page_shows_the_same_list_and_a_report_run_links_to_itself():
    d, _ = _day_with_three_blockers()
    casino = d.f.casino
    report = final_report(casino)
    client = Client()
    client.force_login(d.f.finance)
    html = client.get(reverse("reports-day", args=[report.pk])).content.decode()
    assert [text for text, _, _ in _blockers(html)] == ["Revision 1 of the count of BJ-1 is not signed.",
                                                        "The box of BJ-2 is not dropped."]


def test_a_check_registered_with_its_place_links_there(monkeypatch):
    """audit/compliance registers its CTR check with the day's compliance page; a check
    registered without a place is listed without a link."""
    from audit.compliance.selectors import ctr_close_check, ctr_close_place
    from tables.closing.services import close

    assert close.CHECK_PLACES[ctr_close_check] is ctr_close_place
    d = played_day()

    def ctr(casino_id, day):
        return ["a CTR for Pat lacks an address"]

    def elsewhere(casino_id, day):
        return ["a thing elsewhere"]

    monkeypatch.setattr(close, "CLOSE_CHECKS", [ctr, elsewhere])
    monkeypatch.setitem(close.CHECK_PLACES, ctr, ctr_close_place)
    blockers = close_blockers(d.f.casino.pk, DAY)[-2:]
    assert (blockers[0].text, blockers[0].url) == (
        "a CTR for Pat lacks an address",
        f"{reverse('compliance-day')}?casino={d.f.casino.pk}&gaming_day=2026-03-10")
    assert (blockers[1].text, blockers[1].url) == ("a thing elsewhere", "")
