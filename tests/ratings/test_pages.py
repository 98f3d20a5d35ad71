"""The pit boss's player pages on the hand-worked day: times in the casino's zone, field errors."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.players.models import Player
from tests.conftest import api_as
from tests.factories import user_with_role
from tests.ratings.test_hand_worked import worked  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(db):
    return api_as(user_with_role("pit_boss"))


def test_player_page_shows_sessions_in_the_casinos_zone(worked, boss):  # noqa: F811
    page = boss.get(reverse("player", args=[worked["player"].pk]), {"gaming_day": "2026-03-02"}).content.decode()
    assert "Ada Lovelace" in page
    # 15:00 UTC is 10:00 in New York (EST); the stored UTC hour is never shown. Only the sessions'
    # table is read: the record's history shows when the player was registered, which is "now" and
    # can itself be 15:00 on the machine's clock.
    sessions = page[page.index('<table class="data sessions">') :]
    sessions = sessions[: sessions.index("</table>")]
    assert "10:00 EST" in sessions and "10:12 EST" in sessions and "15:00" not in sessions
    assert '<dd class="minutes">27 min</dd>' in page and '<dd class="theo">4.80</dd>' in page


def test_top_players_marks_the_unregistered_with_a_register_button(worked, boss):  # noqa: F811
    page = boss.get(reverse("players-top"), {"gaming_day": "2026-03-02"}).content.decode()
    assert page.index("Ada Lovelace") < page.index("P-9")
    assert "not registered" in page and "identifier=P-9#register" in page
    form = boss.get(reverse("players"), {"identifier": "P-9"}).content.decode()
    assert 'name="identifier" value="P-9"' in form


def test_top_players_downloads_the_days_ratings_as_csv_with_the_pit_bosss_login(worked, boss):  # noqa: F811
    import html
    import re

    page = boss.get(reverse("players-top"), {"gaming_day": "2026-03-02"}).content.decode()
    [link] = re.findall(r'href="([^"]*ratings\.csv[^"]*)"', page)
    answer = boss.get(html.unescape(link))
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    rows = answer.content.decode().splitlines()
    assert "2026-03-02" in rows[1] and any("Ada Lovelace" in row for row in rows[1:])


def test_bad_dates_are_named_not_a_crash(worked, boss):  # noqa: F811
    for url in (reverse("players-top"), reverse("player", args=[worked["player"].pk])):
        answer = boss.get(url, {"gaming_day": "2026-02-30"})
        assert answer.status_code == 200 and "is not a date" in answer.content.decode()
    wide = boss.get(reverse("player", args=[worked["player"].pk]), {"from": "2026-01-01", "to": "2026-03-02"})
    assert "at most 31" in wide.content.decode()


def test_register_and_change_from_the_pages(worked, boss):  # noqa: F811
    refused = boss.post(reverse("players"), {"identifier": "P-7"}, format="multipart")
    assert refused.status_code == 400 and "already registered" in refused.content.decode()
    made = boss.post(reverse("players"), {"identifier": "P-9", "name": "Grace Hopper"}, format="multipart")
    player = Player.objects.get(identifier="P-9")
    assert made.status_code == 302 and made["Location"] == reverse("player", args=[player.pk])
    no_reason = boss.post(reverse("player", args=[player.pk]), {"name": "G. Hopper", "reason": ""}, format="multipart")
    assert no_reason.status_code == 400
    player.refresh_from_db()
    assert player.name == "Grace Hopper"
    boss.post(reverse("player", args=[player.pk]), {"name": "G. Hopper", "loyalty_number": "", "reason": "card"},
              format="multipart")
    player.refresh_from_db()
    assert player.name == "G. Hopper"


def test_other_roles_and_casinos_are_refused(worked):  # noqa: F811
    from tests.factories import CasinoFactory

    assert api_as(user_with_role("finance")).get(reverse("players")).status_code == 403
    stranger = api_as(user_with_role("pit_boss", casinos=[CasinoFactory(name="Elsewhere")]))
    assert stranger.get(reverse("player", args=[worked["player"].pk])).status_code == 404
    assert "Ada" not in stranger.get(reverse("players-top"), {"gaming_day": "2026-03-02"}).content.decode()
