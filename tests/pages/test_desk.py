"""The surveillance desk and its selectors: queue, round page, review, dealers, patterns."""

from __future__ import annotations

import copy
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit.selectors import (
    QueueFilters,
    dealer_stats,
    dealer_table,
    finding_queue,
    finding_queue_totals,
    floor_average,
    overpay_patterns,
)
from tables.models import Finding
from tables.services.rounds import round_correct, round_record, round_void
from tables.services.sessions import table_session_dealer_change, table_session_open
from tests.factories import DealerFactory, PitFactory, RulesetFactory, TableFactory, user_with_role
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db

CORRECT = ROUNDS["ante_up_21"]["correct"][0]
UNDERPAY = ROUNDS["ante_up_21"]["underpay"][0]  # underpaid 5.00
OVERPAY = ROUNDS["ante_up_21"]["overpay"][0]  # overpaid 10.00 (the ante)


def with_player(data: dict, player: str, seat: int = 1) -> dict:
    data = copy.deepcopy(data)
    data["seats"][0]["player"] = player
    data["seats"][0]["seat"] = seat
    return data


@pytest.fixture
def pitboss(db):
    return user_with_role("pit_boss")


@pytest.fixture
def surveillance(db):
    return user_with_role("surveillance")


@pytest.fixture
def floor(pitboss):
    """Two tables in two pits; dealers Ann (table A) and Bob (table B)."""
    pit_a, pit_b = PitFactory(name="Pit A"), PitFactory(name="Pit B")
    a = TableFactory(pit=pit_a, label="A1", ruleset=RulesetFactory(casino=pit_a.casino))
    b = TableFactory(pit=pit_b, label="B1", ruleset=RulesetFactory(casino=pit_b.casino))
    ann = DealerFactory(casino=pit_a.casino, name="Ann")
    bob = DealerFactory(casino=pit_a.casino, name="Bob")
    table_session_open(table=a, dealer=ann, author=pitboss)
    table_session_open(table=b, dealer=bob, author=pitboss)
    return {"a": a, "b": b, "ann": ann, "bob": bob, "pit_a": pit_a, "pit_b": pit_b}


def record(table, data, author):
    return round_record(table=table, data=data, author=author).round


def test_queue_filters_orders_and_totals(floor, pitboss):
    record(floor["a"], UNDERPAY, pitboss)
    record(floor["b"], OVERPAY, pitboss)
    record(floor["a"], CORRECT, pitboss)
    everything = finding_queue(QueueFilters())
    assert [f.kind for f in everything] == ["overpay", "underpay"]  # newest first
    largest = finding_queue(QueueFilters(order="largest"))
    assert [f.amount for f in largest] == [Decimal("10.00"), Decimal("5.00")]
    totals = finding_queue_totals(everything)
    assert totals["count"] == 2 and totals["amount"] == Decimal("15.00")
    assert {r["kind"]: r["count"] for r in totals["by_kind"]} == {"overpay": 1, "underpay": 1}
    assert [f.kind for f in finding_queue(QueueFilters(pit=floor["pit_a"].pk))] == ["underpay"]
    assert [f.kind for f in finding_queue(QueueFilters(dealer=floor["bob"].pk))] == ["overpay"]
    assert [f.kind for f in finding_queue(QueueFilters(kind="underpay"))] == ["underpay"]
    assert [f.kind for f in finding_queue(QueueFilters(min_amount=Decimal("6")))] == ["overpay"]
    assert [f.kind for f in finding_queue(QueueFilters(max_amount=Decimal("6")))] == ["underpay"]
    day = everything[0].round.gaming_day
    assert finding_queue(QueueFilters(gaming_day=day)).count() == 2
    assert finding_queue(QueueFilters(gaming_day=day - timedelta(days=1))).count() == 0


def test_queue_page_filters_by_query_string(client, floor, pitboss, surveillance):
    record(floor["a"], UNDERPAY, pitboss)
    record(floor["b"], OVERPAY, pitboss)
    client.force_login(surveillance)
    page = client.get(
        reverse("desk-queue"), {"table": floor["b"].pk, "order": "largest"}
    ).content.decode()
    assert "B1 #1" in page and "A1 #1" not in page and "10.00" in page
    bad = client.get(
        reverse("desk-queue"), {"min_amount": "20", "max_amount": "5"}
    ).content.decode()
    assert "must not be below" in bad


def test_round_page_shows_cards_pays_reasoning_and_revisions(client, floor, pitboss, surveillance):
    rnd = record(floor["a"], UNDERPAY, pitboss)
    round_correct(
        round=rnd,
        revision=1,
        data=OVERPAY,
        reason="ante was paid double, not the 21",
        author=pitboss,
    )
    client.force_login(surveillance)
    page = client.get(reverse("desk-round", args=[rnd.pk])).content.decode()
    assert "9♠" in page and "Q♥" in page  # cards as dealt
    assert "pays 10.00" in page and "pays 20.00" in page  # computed beside recorded
    assert "Revision 2" in page and "ante was paid double, not the 21" in page
    assert "Seat 1, pay 1, net" in page and "seats[" not in page  # what changed, in words
    assert "superseded by a correction" in page  # the old finding, with its history


def test_review_from_the_desk_keeps_the_note_in_history(client, floor, pitboss, surveillance):
    rnd = record(floor["a"], UNDERPAY, pitboss)
    finding = rnd.findings.get()
    client.force_login(surveillance)
    url = reverse("desk-finding-review", args=[finding.pk])
    missing_note = client.post(
        url, {"decision": "escalate", "note": ""}, follow=True
    ).content.decode()
    assert "note" in missing_note
    finding.refresh_from_db()
    assert finding.status == Finding.OPEN
    client.post(url, {"decision": "escalate", "note": "Camera check needed"})
    client.post(url, {"decision": "confirm", "note": "Seen on camera: dealer paid 5"})
    finding.refresh_from_db()
    assert finding.status == Finding.CONFIRMED
    reasons = list(
        finding.history.order_by("history_date").values_list("history_change_reason", flat=True)
    )
    # the first row is the finding's creation by the recording (issue #18: recording writes it)
    assert reasons == ["recorded", "escalate: Camera check needed", "confirm: Seen on camera: dealer paid 5"]
    page = client.get(reverse("desk-round", args=[rnd.pk])).content.decode()
    assert (
        "escalate: Camera check needed" in page and "confirm: Seen on camera: dealer paid 5" in page
    )


def test_a_manager_reads_the_desk_but_does_not_review(client, floor, pitboss):
    rnd = record(floor["a"], UNDERPAY, pitboss)
    client.force_login(user_with_role("gaming_manager"))
    page = client.get(reverse("desk-round", args=[rnd.pk])).content.decode()
    assert "Record decision" not in page
    assert (
        client.post(
            reverse("desk-finding-review", args=[rnd.findings.get().pk]),
            {"decision": "confirm", "note": "x"},
        ).status_code
        == 403
    )


def test_dealer_stats_against_the_floor(floor, pitboss, surveillance):
    for data in (UNDERPAY, OVERPAY, CORRECT, CORRECT):  # Ann: 4 rounds, 2 with errors
        record(floor["a"], data, pitboss)
    for data in (CORRECT, CORRECT, CORRECT, OVERPAY):  # Bob: 4 rounds, 1 error
        record(floor["b"], data, pitboss)
    dismissed = record(floor["b"], UNDERPAY, pitboss)  # dismissed: a recording mistake, not Bob's
    from audit.services import finding_review

    finding_review(
        finding=dismissed.findings.get(), decision="dismiss", note="entry slip", author=surveillance
    )
    voided = record(floor["a"], OVERPAY, pitboss)
    round_void(round=voided, reason="misdeal", author=pitboss)
    ann = dealer_stats(floor["ann"])
    assert (ann["rounds"], ann["error_rounds"], ann["overpaid"], ann["underpaid"]) == (
        4,
        2,
        Decimal("10.00"),
        Decimal("5.00"),
    )
    assert ann["error_rate"] == Decimal("50.0")
    bob = dealer_stats(floor["bob"])
    assert (bob["rounds"], bob["error_rounds"], bob["overpaid"], bob["underpaid"]) == (
        5,
        1,
        Decimal("10.00"),
        0,
    )
    whole = floor_average()
    assert (whole["rounds"], whole["error_rounds"], whole["dealers"]) == (9, 3, 2)
    assert whole["overpaid"] == Decimal("20.00") and whole["error_rate"] == Decimal("33.3")
    rows = {r["dealer"].name: r for r in dealer_table()}
    assert rows["Ann"]["error_rounds"] == 2 and rows["Bob"]["rounds"] == 5


def test_dealer_table_aggregates_in_a_fixed_number_of_queries(floor, pitboss):
    for _ in range(6):
        record(floor["a"], UNDERPAY, pitboss)
        record(floor["b"], OVERPAY, pitboss)
    with CaptureQueriesContext(connection) as ctx:
        dealer_table()
    assert len(ctx.captured_queries) <= 3  # rounds per dealer, money per dealer, the dealers


def test_dealer_pages(client, floor, pitboss, surveillance):
    record(floor["a"], UNDERPAY, pitboss)
    client.force_login(surveillance)
    page = client.get(reverse("desk-dealer", args=[floor["ann"].pk])).content.decode()
    assert 'data-stat="rounds">1<' in page and 'data-stat="underpaid">5.00<' in page
    listing = client.get(reverse("desk-dealers")).content.decode()
    assert "Ann" in listing and "Floor" in listing


def test_overpay_patterns_pair_a_dealer_with_a_player_or_a_seat(floor, pitboss):
    for _ in range(3):
        record(
            floor["a"], with_player(OVERPAY, "P-77", seat=3), pitboss
        )  # Ann -> P-77 at seat 3, three times
    record(floor["a"], with_player(OVERPAY, "P-12", seat=5), pitboss)  # once: not a pattern
    table_session_dealer_change(
        session=floor["a"].sessions.get(), dealer=floor["bob"], author=pitboss
    )
    record(floor["a"], with_player(OVERPAY, "P-77", seat=3), pitboss)  # Bob once: not Ann's pattern
    found = overpay_patterns()
    assert [
        (p["round__dealer__name"], p["player"], p["count"], p["amount"]) for p in found["by_player"]
    ] == [("Ann", "P-77", 3, Decimal("30.00"))]
    assert [
        (p["round__dealer__name"], p["round__table__label"], p["seat"], p["count"])
        for p in found["by_seat"]
    ] == [("Ann", "A1", 3, 3)]
    assert overpay_patterns(min_count=4) == {"by_player": [], "by_seat": []}


def test_patterns_page(client, floor, pitboss, surveillance):
    for _ in range(2):
        record(floor["a"], with_player(OVERPAY, "P-9"), pitboss)
    client.force_login(surveillance)
    page = client.get(reverse("desk-patterns")).content.decode()
    assert "P-9" in page and "Ann" in page


def test_dealer_and_pattern_pages_default_to_the_last_30_gaming_days_shown_and_changeable(
        client, floor, pitboss, surveillance):
    """Issue #20: a page's cost must not grow with the years of rounds the database holds, so the
    dealer pages read a bounded period by default (30 gaming days to today's), which the form shows."""
    from django.utils import timezone

    from casino.gaming_day import current_gaming_day
    from tables.services.sessions import table_session_close

    old = timezone.now() - timedelta(days=40)
    c = TableFactory(pit=floor["pit_a"], label="C1", ruleset=RulesetFactory(casino=floor["pit_a"].casino))
    carl = DealerFactory(casino=floor["pit_a"].casino, name="Carl")
    session = table_session_open(table=c, dealer=carl, author=pitboss, at=old)
    for _ in range(2):
        round_record(table=c, data=with_player(OVERPAY, "P-OLD"), author=pitboss, at=old)
    table_session_close(session=session, author=pitboss, at=old + timedelta(minutes=5))
    record(floor["a"], UNDERPAY, pitboss)
    today = current_gaming_day(floor["pit_a"].casino)
    client.force_login(surveillance)

    listing = client.get(reverse("desk-dealers")).content.decode()
    assert f'value="{today - timedelta(days=29)}"' in listing and f'value="{today}"' in listing
    assert "Ann" in listing and "Carl" not in listing
    assert "P-OLD" not in client.get(reverse("desk-patterns")).content.decode()
    carl_page = client.get(reverse("desk-dealer", args=[carl.pk])).content.decode()
    assert 'data-stat="rounds">0<' in carl_page

    since = (old - timedelta(days=1)).date().isoformat()
    assert "Carl" in client.get(reverse("desk-dealers"), {"since": since}).content.decode()
    assert "P-OLD" in client.get(reverse("desk-patterns"), {"since": since}).content.decode()
    carl_then = client.get(reverse("desk-dealer", args=[carl.pk]), {"since": since}).content.decode()
    assert 'data-stat="rounds">2<' in carl_then
    backwards = client.get(reverse("desk-dealers"), {"since": today.isoformat(), "until": since})
    assert backwards.status_code == 200 and "must not be before" in backwards.content.decode()


def test_patterns_page_lists_the_most_repeated_pairs_and_says_when_it_left_some_out(
        client, floor, pitboss, surveillance, monkeypatch):
    """Issue #20: a busy floor's month holds thousands of pairs overpaid twice; the page lists
    the most repeated ones (PATTERNS_SHOWN) and says that more exist, instead of all of them."""
    from audit.pages import views
    from audit.rollups.selectors import overpay_patterns

    monkeypatch.setattr(views, "PATTERNS_SHOWN", 2)
    for player, times in (("P-1", 4), ("P-2", 3), ("P-3", 2)):
        for _ in range(times):
            record(floor["a"], with_player(OVERPAY, player, seat=int(player[-1])), pitboss)
    limited = overpay_patterns(limit=2)
    assert [p["player"] for p in limited["by_player"]] == ["P-1", "P-2"]
    assert limited["more_by_player"] and limited["more_by_seat"]
    assert overpay_patterns(limit=3)["more_by_player"] is False
    client.force_login(surveillance)
    page = client.get(reverse("desk-patterns")).content.decode()
    assert "P-1" in page and "P-2" in page and "P-3" not in page
    assert page.count("more pairs were overpaid 2 times or more") == 2
