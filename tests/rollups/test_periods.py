"""Every desk page and API list reads a bounded period (issue #20): a default one, shown and
changeable, a maximum where raw rows are read (a field error, never a 500), and a cost that does
not grow with the number of days the database holds."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from audit.rollups.models import DailyCodeRollup, DailyOverpayRollup, DailyRollup
from casino.gaming_day import current_gaming_day
from casino.periods import DEFAULT_DAYS, MAX_DAYS
from tables.models import Finding, Round
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.conftest import api_as
from tests.factories import DealerFactory, PitFactory, RulesetFactory, TableFactory, user_with_role
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db

OVERPAY = ROUNDS["ante_up_21"]["overpay"][0]
OLD_DAYS = 45  # before the default period of DEFAULT_DAYS


@pytest.fixture
def floor(db):
    """One overpaid round recorded OLD_DAYS ago and one today, at one table."""
    pit = PitFactory()
    table = TableFactory(pit=pit, label="T1", ruleset=RulesetFactory(casino=pit.casino))
    dealer = DealerFactory(casino=pit.casino, name="Ann")
    pitboss = user_with_role("pit_boss", casinos=[pit.casino])
    now = timezone.now()
    table_session_open(table=table, dealer=dealer, author=pitboss, at=now - timedelta(days=OLD_DAYS))
    old = round_record(table=table, data=OVERPAY, author=pitboss, at=now - timedelta(days=OLD_DAYS)).round
    new = round_record(table=table, data=OVERPAY, author=pitboss, at=now).round
    today = current_gaming_day(pit.casino)
    assert new.gaming_day == today and (today - old.gaming_day).days >= DEFAULT_DAYS
    return {"casino": pit.casino, "table": table, "dealer": dealer, "old": old, "new": new, "today": today,
            "surveillance": user_with_role("surveillance", casinos=[pit.casino])}


def _iso(day: date) -> str:
    return day.isoformat()


# --- the desk ----------------------------------------------------------------------------------


def test_queue_defaults_to_the_last_30_days_shows_them_and_the_older_backlog(client, floor):
    client.force_login(floor["surveillance"])
    page = client.get(reverse("desk-queue")).content.decode()
    first = floor["today"] - timedelta(days=DEFAULT_DAYS - 1)
    assert f'name="since" value="{_iso(first)}"' in page and f'name="until" value="{_iso(floor["today"])}"' in page
    assert f"T1 #{floor['new'].sequence}" in page and f"T1 #{floor['old'].sequence}<" not in page
    assert 'id="older-waiting"' in page and "<strong>1</strong> finding waiting" in page
    # Changeable: the old day's period shows the old round; status=all is bounded alike.
    old = client.get(reverse("desk-queue"), {"since": _iso(floor["old"].gaming_day), "status": "all"})
    assert f"T1 #{floor['old'].sequence}<" in old.content.decode()
    everything = client.get(reverse("desk-queue"), {"status": "all"}).content.decode()
    assert f"T1 #{floor['old'].sequence}<" not in everything and '<span data-count>1</span>' in everything
    # One gaming day asked for is the period.
    day = client.get(reverse("desk-queue"), {"gaming_day": _iso(floor["old"].gaming_day)}).content.decode()
    assert f"T1 #{floor['old'].sequence}<" in day and f"T1 #{floor['new'].sequence}<" not in day


def test_queue_refuses_a_period_over_the_maximum_and_shows_the_default(client, floor):
    client.force_login(floor["surveillance"])
    long_ago = floor["today"] - timedelta(days=MAX_DAYS)
    response = client.get(reverse("desk-queue"), {"since": _iso(long_ago), "until": _iso(floor["today"])})
    page = response.content.decode()
    assert response.status_code == 200 and f"A period of at most {MAX_DAYS} gaming days." in page
    assert f"T1 #{floor['old'].sequence}<" not in page  # the default period, not the long one
    bad = client.get(reverse("desk-queue"), {"since": "2026-02-30"})
    assert bad.status_code == 200 and "Enter a valid date." in bad.content.decode()


def test_dealer_pages_and_patterns_default_to_30_days_and_change(client, floor):
    client.force_login(floor["surveillance"])
    first = _iso(floor["today"] - timedelta(days=DEFAULT_DAYS - 1))
    for name, args in (("desk-dealers", []), ("desk-dealer", [floor["dealer"].pk]), ("desk-patterns", [])):
        page = client.get(reverse(name, args=args)).content.decode()
        assert f'name="since" value="{first}"' in page, name
    stats = client.get(reverse("desk-dealer", args=[floor["dealer"].pk])).context["stats"]
    assert (stats["rounds"], stats["error_rounds"]) == (1, 1)
    since = _iso(floor["old"].gaming_day)
    response = client.get(reverse("desk-dealer", args=[floor["dealer"].pk]), {"since": since,
                                                                            "until": _iso(floor["today"])})
    assert (response.context["stats"]["rounds"], response.context["stats"]["error_rounds"]) == (2, 2)
    assert len(response.context["recent"]) == 1  # the error rounds listed: the period's last 30 days
    recent = client.get(reverse("desk-dealer", args=[floor["dealer"].pk]), {"until": since}).context["recent"]
    assert [r.pk for r in recent] == [floor["old"].pk]
    patterns = client.get(reverse("desk-patterns"), {"since": since, "until": _iso(floor["today"])})
    assert [row["count"] for row in patterns.context["patterns"]["by_seat"]] == [2]
    assert not client.get(reverse("desk-patterns")).context["patterns"]["by_seat"]  # one overpay in 30 days


@pytest.mark.parametrize("pages", [("desk-dealers", "desk-dealer", "desk-patterns")])
def test_dealer_pages_cost_the_same_queries_for_1_or_40_days_of_rollups(client, floor, pages):
    """The pages read summed rollup rows: their query count does not grow with the days."""
    client.force_login(floor["surveillance"])
    DailyRollup.objects.all().delete()

    def days(n: int) -> None:
        for model in (DailyRollup, DailyCodeRollup, DailyOverpayRollup):
            model.objects.all().delete()
        for back in range(n):
            key = {"gaming_day": floor["today"] - timedelta(days=back), "table": floor["table"],
                   "dealer": floor["dealer"]}
            DailyRollup.objects.create(**key, game="ante_up_21", rounds=10, active_rounds=10, error_rounds=1,
                                       findings=1, overpaid=Decimal("10.00"))
            DailyCodeRollup.objects.create(**key, game="ante_up_21", kind="overpay", code="X", count=1,
                                           amount=Decimal("10.00"))
            DailyOverpayRollup.objects.create(**key, seat=1, player="P-7", count=1, rounds=1, player_rounds=1,
                                              amount=Decimal("10.00"))

    period = {"since": _iso(floor["today"] - timedelta(days=39)), "until": _iso(floor["today"])}
    counts = {}
    for n in (1, 40):
        days(n)
        for name in pages:
            args = [floor["dealer"].pk] if name == "desk-dealer" else []
            with CaptureQueriesContext(connection) as queries:
                response = client.get(reverse(name, args=args), period)
            counts[name, n] = len(queries)
        assert response.status_code == 200
    assert client.get(reverse("desk-dealers"), period).context["rows"][0]["rounds"] == 400
    for name in pages:
        assert counts[name, 1] == counts[name, 40], (name, counts)


# --- the API lists -----------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["finding-list", "round-list"])
def test_api_lists_read_the_last_30_days_unless_asked(floor, url):
    client = api_as(floor["surveillance"])
    body = client.get(reverse(url)).json()
    assert body["count"] == 1
    wanted = {"from": _iso(floor["old"].gaming_day), "to": _iso(floor["today"])}
    assert client.get(reverse(url), wanted).json()["count"] == 2
    assert client.get(reverse(url), {"gaming_day": _iso(floor["old"].gaming_day)}).json()["count"] == 1
    assert client.get(reverse(url), {"from": _iso(floor["old"].gaming_day)}).json()["count"] == 1  # 30 days on


@pytest.mark.parametrize("url", ["finding-list", "round-list"])
@pytest.mark.parametrize(("query", "field"), [
    ({"from": "2026-02-30"}, "from"),
    ({"to": "yesterday"}, "to"),
    ({"from": "2020-01-01", "to": "2026-01-01"}, "to"),
    ({"from": "2026-01-10", "to": "2026-01-01"}, "to"),
])
def test_api_lists_refuse_a_bad_date_or_a_period_over_the_maximum(floor, url, query, field):
    response = api_as(floor["surveillance"]).get(reverse(url), query)
    assert response.status_code == 400 and field in response.json(), response.content


def test_an_old_finding_or_round_is_still_read_by_its_id(floor):
    client = api_as(floor["surveillance"])
    old = Finding.objects.get(round=floor["old"])
    assert client.get(reverse("finding-detail", args=[old.pk])).status_code == 200
    assert client.get(reverse("round-detail", args=[floor["old"].pk])).status_code == 200


def test_api_findings_list_newest_first_by_id(floor):
    client = api_as(floor["surveillance"])
    wanted = {"from": _iso(floor["old"].gaming_day), "to": _iso(floor["today"])}
    ids = [f["id"] for f in client.get(reverse("finding-list"), wanted).json()["results"]]
    assert ids == sorted(ids, reverse=True) and len(ids) == 2
    assert Round.objects.count() == 2
