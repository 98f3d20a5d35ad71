"""Issue #15, point 2: pages, exports and messages show the casino's local time with its
zone; the API keeps UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from casino.local_time import local_time_text
from casino.tokens import api_token_issue
from tables.services.rounds import round_record
from tables.services.sessions import table_session_for_moment, table_session_open
from tests.conftest import api_as
from tests.factories import (
    CasinoFactory,
    DealerFactory,
    PitFactory,
    RulesetFactory,
    TableFactory,
    user_with_role,
)
from tests.tables.rounds_data import ROUNDS

# 14:05 UTC on a winter day: 09:05 EST in New York, 15:05 CET in Berlin.
MOMENT = datetime(2026, 1, 15, 14, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("moment", "zone", "style", "text"),
    [
        (MOMENT, "America/New_York", "datetime", "2026-01-15 09:05 EST"),
        (datetime(2026, 7, 15, 14, 5, tzinfo=UTC), "America/New_York", "datetime", "2026-07-15 10:05 EDT"),
        (MOMENT, "Europe/Berlin", "time", "15:05 CET"),
        (MOMENT, "UTC", "seconds", "2026-01-15 14:05:00 UTC"),
        # A zone whose database abbreviation is a bare offset ("-03") gets a readable one.
        (MOMENT, "America/Sao_Paulo", "datetime", "2026-01-15 11:05 UTC-03:00"),
        (MOMENT, "Asia/Kolkata", "time", "19:35 IST"),
        (MOMENT, "Asia/Kathmandu", "time", "19:50 UTC+05:45"),
        (MOMENT, "America/New_York", "date", "2026-01-15"),
    ],
)
def test_one_format_with_the_zone_named(moment, zone, style, text):
    assert local_time_text(moment, zone, style) == text


def test_a_record_leads_to_its_own_casinos_zone(db):
    table = TableFactory(pit=PitFactory(casino=CasinoFactory(name="Berlin", time_zone="Europe/Berlin")))
    assert local_time_text(MOMENT, table) == "2026-01-15 15:05 CET"
    assert local_time_text(None, table) == ""
    with pytest.raises(ValueError, match="aware"):
        local_time_text(datetime(2026, 1, 15, 14, 5), table)  # noqa: DTZ001 - the point of the test


def _played_round(casino, *, game="ante_up_21", kind="underpay"):
    pit = PitFactory(casino=casino)
    table = TableFactory(pit=pit, game=game, ruleset=RulesetFactory(game=game, casino=casino))
    dealer = DealerFactory(casino=casino)
    pitboss = user_with_role("pit_boss", username=f"pb-{casino.pk}", casinos=[casino])
    table_session_open(table=table, dealer=dealer, author=pitboss, at=MOMENT - timedelta(hours=1))
    return round_record(table=table, data=ROUNDS[game][kind][0], author=pitboss, at=MOMENT).round


@pytest.mark.django_db
def test_round_pages_show_local_time_and_the_api_keeps_utc():
    rnd = _played_round(CasinoFactory())  # New York
    desk = api_as(user_with_role("surveillance"))
    page = desk.get(reverse("desk-round", args=[rnd.pk])).content.decode()
    assert "recorded 2026-01-15 09:05 EST by" in page
    assert "14:05" not in page and "UTC" not in page
    api = desk.get(reverse("round-detail", args=[rnd.pk])).json()
    assert api["recorded_at"] in ("2026-01-15T14:05:00Z", "2026-01-15T14:05:00+00:00")

    tablet = api_as(user_with_role("pit_boss", username="pb-reader"))
    result = tablet.get(reverse("tablet-round", args=[rnd.pk])).content.decode()
    assert "2026-01-15 09:05 EST" in result
    table_page = tablet.get(reverse("tablet-table", args=[rnd.table_id])).content.decode()
    assert "since 08:05 EST" in table_page


@pytest.mark.django_db
def test_a_page_of_several_casinos_shows_each_record_in_its_own_zone():
    new_york = _played_round(CasinoFactory())
    berlin = _played_round(CasinoFactory(name="Berlin", time_zone="Europe/Berlin", gaming_day_start_hour=6))
    root = api_as(user_with_role("superuser"))
    # The queue and the list read one period (issue #20: the last 30 gaming days unless asked).
    queue = root.get(reverse("desk-queue") + "?status=all&since=2026-01-15&until=2026-01-15").content.decode()
    assert "2026-01-15 09:05 EST" in queue and "2026-01-15 15:05 CET" in queue
    rounds = root.get(reverse("round-list") + "?gaming_day=2026-01-15").json()["results"]
    assert {new_york.pk, berlin.pk} == {r["id"] for r in rounds}
    for r in rounds:
        assert r["recorded_at"] in ("2026-01-15T14:05:00Z", "2026-01-15T14:05:00+00:00")


@pytest.mark.django_db
def test_an_earlier_moment_is_refused_in_the_casinos_time():
    rnd = _played_round(CasinoFactory())
    session = rnd.session
    with pytest.raises(ValidationError) as refused:
        table_session_for_moment(session_id=session.pk, session_day=session.gaming_day,
                                 at=MOMENT - timedelta(days=1), time_zone="America/New_York", start_hour=6,
                                 label=rnd.table.label, author=None)
    assert "2026-01-14 09:05 EST belongs to gaming day 2026-01-14" in str(refused.value)


@pytest.mark.django_db
def test_tokens_page_shows_the_managers_casino_zone():
    manager = user_with_role("gaming_manager", casinos=[CasinoFactory(name="Berlin", time_zone="Europe/Berlin")])
    token, _ = api_token_issue(user=manager, author=manager, name="tablet", days=30)
    page = api_as(manager).get(reverse("api-tokens")).content.decode()
    assert f"<td>{local_time_text(token.created_at, 'Europe/Berlin')}</td>" in page
    assert "CET</td>" in page or "CEST</td>" in page


def test_no_page_shows_a_stored_time_through_djangos_date_filter():
    """Django's ``|date`` shows a time in the server's zone (UTC) without naming it; every page
    time goes through the ``local_time`` filters, in the record's casino's zone. A ``|date``
    with hours or minutes in any template fails here (dates alone, e.g. of a gaming day, are fine)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    clock = re.compile(r'\|\s*(?:date|time)\s*:\s*"[^"]*[GHhgisAaPTfO][^"]*"')
    offenders = [f"{path.relative_to(root)}:{n}" for path in root.rglob("*.html")
                 for n, line in enumerate(path.read_text().splitlines(), 1) if clock.search(line)]
    assert not offenders, offenders
