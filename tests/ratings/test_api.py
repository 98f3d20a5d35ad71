"""The ratings API and its CSV, on the hand-worked day (tests/ratings/test_hand_worked.py)."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from casino.roles import FINANCE, PIT_BOSS
from tests.conftest import api_as
from tests.factories import CasinoFactory, user_with_role
from tests.ratings.test_hand_worked import worked  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def test_player_ratings_day_and_sessions(worked):  # noqa: F811
    client = api_as(user_with_role(PIT_BOSS))
    body = client.get(reverse("player-ratings", args=[worked["player"].pk]), {"gaming_day": "2026-03-02"}).json()
    assert body["gaming_day"] == "2026-03-02"
    [day] = body["results"]
    assert (day["identifier"], day["name"], day["rounds"], day["minutes"], day["theo"], day["actual"]) == (
        "P-7", "Ada Lovelace", 7, 27, "4.80", "10.00")
    assert [(s["table_label"], s["start"], s["rounds"], s["theo"]) for s in day["sessions"]] == [
        ("T-A", "2026-03-02T15:00:00Z", 3, "1.80"), ("T-A", "2026-03-02T15:40:00Z", 2, "1.20"),
        ("T-B", "2026-03-02T15:45:00Z", 2, "1.80")]
    assert [(w["wager"], w["count"], w["stake"], w["average"], w["theo"]) for w in day["wagers"]] == [
        ("ante", 7, "80.00", "11.43", "0.80"), ("odds", 7, "80.00", "11.43", "4.00")]


def test_a_range_and_its_errors(worked):  # noqa: F811
    client = api_as(user_with_role(PIT_BOSS))
    url = reverse("player-ratings", args=[worked["player"].pk])
    body = client.get(url, {"from": "2026-03-01", "to": "2026-03-03"}).json()
    assert (body["from"], body["to"], [d["gaming_day"] for d in body["results"]]) == (
        "2026-03-01", "2026-03-03", ["2026-03-02"])
    for params, field in (({"gaming_day": "2026-02-30"}, "gaming_day"), ({"from": "2026-03-01"}, "to"),
                          ({"from": "2026-01-01", "to": "2026-03-02"}, "to"),
                          ({"from": "2026-03-03", "to": "2026-03-01"}, "to"), ({"to": "yesterday"}, "to")):
        answer = client.get(url, params)
        assert answer.status_code == 400 and field in answer.json(), (params, answer.content)
    assert client.get(reverse("player-ratings", args=[999999])).status_code == 404


def test_day_ratings_without_names_for_finance_and_the_csv(worked):  # noqa: F811
    client = api_as(user_with_role(FINANCE))
    body = client.get(reverse("rating-list"), {"gaming_day": "2026-03-02"}).json()
    assert [(r["identifier"], r["registered"], r["theo"]) for r in body["results"]] == [
        ("P-7", True, "4.80"), ("P-9", False, "3.00")]
    assert "name" not in body["results"][0]
    answer = client.get(reverse("rating-csv"), {"gaming_day": "2026-03-02"})
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.content.decode("utf-8-sig"))))
    assert [(r["Identifier"], r["Rounds"], r["Time on game (minutes)"], r["Theoretical win"], r["Name"])
            for r in rows] == [("P-7", "7", "27", "4.80", ""), ("P-9", "1", "0", "3.00", "")]
    boss_rows = list(csv.DictReader(io.StringIO(api_as(user_with_role(PIT_BOSS)).get(
        reverse("rating-csv"), {"gaming_day": "2026-03-02"}).content.decode("utf-8-sig"))))
    assert boss_rows[0]["Name"] == "Ada Lovelace"
    assert client.get(reverse("rating-list"), {"casino": "x"}).status_code == 400


def test_the_day_list_is_a_page_like_every_api_list(worked):  # noqa: F811
    client = api_as(user_with_role(FINANCE))
    first = client.get(reverse("rating-list"), {"gaming_day": "2026-03-02", "limit": 1}).json()
    assert (first["count"], first["gaming_day"], [r["identifier"] for r in first["results"]]) == (
        2, "2026-03-02", ["P-7"])
    assert first["previous"] is None and "offset=1" in first["next"]
    # The list counts a day's sessions; the identifier's own days list them.
    assert first["results"][0]["sessions"] == 3
    second = client.get(first["next"]).json()
    assert [r["identifier"] for r in second["results"]] == ["P-9"] and second["next"] is None
    for bad in ({"limit": 0}, {"limit": 501}, {"offset": "x"}):
        answer = client.get(reverse("rating-list"), {"gaming_day": "2026-03-02", **bad})
        assert answer.status_code == 400 and set(bad) <= set(answer.json()), answer.content


def test_an_identifiers_days_list_its_sessions_registered_or_not(worked):  # noqa: F811
    client = api_as(user_with_role(FINANCE))
    body = client.get(reverse("rating-identifier", args=["P-7"]), {"gaming_day": "2026-03-02"}).json()
    [day] = body["results"]
    assert (day["identifier"], day["registered"], day["theo"]) == ("P-7", True, "4.80")
    assert [(s["table_label"], s["rounds"], s["theo"]) for s in day["sessions"]] == [
        ("T-A", 3, "1.80"), ("T-A", 2, "1.20"), ("T-B", 2, "1.80")]
    [unregistered] = client.get(reverse("rating-identifier", args=["P-9"]), {"gaming_day": "2026-03-02"}).json()[
        "results"]
    assert unregistered["registered"] is False and len(unregistered["sessions"]) == 1
    assert client.get(reverse("rating-identifier", args=["P-404"]), {"gaming_day": "2026-03-02"}).json()[
        "results"] == []
    # Another casino's user sees none of them.
    other = api_as(user_with_role(FINANCE, "elsewhere-finance", casinos=[CasinoFactory(name="Elsewhere")]))
    assert other.get(reverse("rating-identifier", args=["P-7"]), {"gaming_day": "2026-03-02"}).json()["results"] == []
