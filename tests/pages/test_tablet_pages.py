"""The tablet's pages and JSON endpoints through Django's test client."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from audit.services import finding_review
from tables.models import Finding, Round, TableSession
from tables.services.rounds import round_record
from tests.factories import DealerFactory, PitFactory, RulesetFactory, TableFactory, user_with_role
from tests.tables.rounds_data import HOLDEM_CORRECT, ROUNDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def pitboss(db):
    return user_with_role("pit_boss")


@pytest.fixture
def table(db):
    pit = PitFactory(name="Pit A")
    return TableFactory(
        pit=pit, game="ante_up_21", ruleset=RulesetFactory(game="ante_up_21", casino=pit.casino)
    )


@pytest.fixture
def dealer(table):
    return DealerFactory(casino=table.pit.casino, name="Dana Dealer")


def post_json(client, url, body, **headers):
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def open_table(client, table, dealer):
    return client.post(reverse("tablet-table-open", args=[table.pk]), {"dealer": dealer.pk, "reason": "opener on paper"})


def test_open_change_dealer_close_through_the_pages(client, pitboss, table, dealer):
    client.force_login(pitboss)
    response = open_table(client, table, dealer)
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.is_open
    other = DealerFactory(casino=table.pit.casino, name="Otto Other")
    client.post(reverse("tablet-table-dealer", args=[table.pk]), {"dealer": other.pk})
    page = client.get(reverse("tablet-table", args=[table.pk])).content.decode()
    assert "Otto Other" in page and "Record a round" in page
    # The same dealer again: refused with the reason, nothing changes.
    response = client.post(
        reverse("tablet-table-dealer", args=[table.pk]), {"dealer": other.pk}, follow=True
    )
    assert "already dealing" in response.content.decode()
    close = reverse("tablet-table-close", args=[table.pk])
    session = TableSession.objects.get(table=table)
    # One tap is not enough: the page and an unconfirmed POST say what closing ends, and change nothing.
    for response in (client.get(close), client.post(close)):
        page = response.content.decode()
        assert response.status_code == 200, page
        assert f"Close {table.label}?" in page and "relieves <strong>Otto Other</strong>" in page
        assert "<strong>0</strong> rounds recorded today" in page
        table.refresh_from_db()
        assert table.is_open and TableSession.objects.get(table=table).closed_at is None
    # A confirmation of another session (the table closed and opened again meanwhile) is refused.
    stale = client.post(close, {"confirm": "yes", "session": session.pk + 1000, "reason": "closer on paper"}, follow=True)
    assert "changed since you confirmed" in stale.content.decode()
    assert TableSession.objects.get(table=table).closed_at is None
    done = client.post(close, {"confirm": "yes", "session": session.pk, "reason": "closer on paper"}, follow=True)
    table.refresh_from_db()
    session.refresh_from_db()
    assert not table.is_open and session.closed_at is not None
    from casino.local_time import local_time_text

    said = f"Table {table.label} closed at {local_time_text(session.closed_at, table.pit.casino, 'time')}: " \
           "session of Otto Other ended, 0 rounds today."
    assert said in done.content.decode()


def test_open_without_a_dealer_is_refused(client, pitboss, table):
    client.force_login(pitboss)
    response = client.post(reverse("tablet-table-open", args=[table.pk]), {"reason": "opener on paper"}, follow=True)
    assert "choose the dealer" in response.content.decode()
    assert not TableSession.objects.exists()


def test_pit_live_view_shows_state_dealer_rounds_and_findings(client, pitboss, table, dealer):
    client.force_login(pitboss)
    open_table(client, table, dealer)
    round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=pitboss)
    round_record(table=table, data=ROUNDS["ante_up_21"]["correct"][0], author=pitboss)
    closed = TableFactory(pit=table.pit, label="Z9", ruleset=table.ruleset)
    page = client.get(reverse("tablet-floor")).content.decode()
    assert "Dana Dealer" in page and "2 rounds today" in page and "1 open finding" in page
    assert f'data-table="{closed.label}"' in page and "closed" in page


def test_preview_gives_pays_and_stores_nothing(client, pitboss, table, dealer):
    client.force_login(pitboss)
    open_table(client, table, dealer)
    data = ROUNDS["ante_up_21"]["correct"][0]
    response = post_json(client, reverse("tablet-round-preview", args=[table.pk]), {"round": data})
    assert response.status_code == 200
    body = response.json()
    by_wager = {s["wager"]: s for s in body["settlements"]}
    assert by_wager["21"]["net"] == "10.00" and by_wager["21"]["words"] == "pays 10.00"
    assert by_wager["21"]["label"] == "21 bet (hand 1)"
    assert body["findings"] == []
    assert not Round.objects.exists()


def test_preview_names_the_impossible_field(client, pitboss, table, dealer):
    client.force_login(pitboss)
    open_table(client, table, dealer)
    data = json.loads(json.dumps(ROUNDS["ante_up_21"]["correct"][0]))
    data["seats"][0]["hands"][0]["cards"][1] = "1X"
    response = post_json(client, reverse("tablet-round-preview", args=[table.pk]), {"round": data})
    assert response.status_code == 400
    assert "round.seats[0].hands[0].cards[1]" in response.json()["errors"]


def test_save_is_idempotent_per_key(client, pitboss, table, dealer):
    client.force_login(pitboss)
    open_table(client, table, dealer)
    url = reverse("tablet-round-save", args=[table.pk])
    body = {"round": ROUNDS["ante_up_21"]["underpay"][0]}
    first = post_json(client, url, body, **{"Idempotency-Key": "k-1"})
    again = post_json(client, url, body, **{"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 201
    assert first.json()["round"] == again.json()["round"] and again.json()["replayed"] is True
    assert Round.objects.count() == 1
    saved = first.json()
    assert saved["at_stake"] == "5.00"
    assert (
        saved["findings"][0]["kind_words"] == "Underpaid"
        and "underpaid by 5.00" in saved["findings"][0]["message"]
    )
    other = post_json(
        client, url, {"round": ROUNDS["ante_up_21"]["correct"][0]}, **{"Idempotency-Key": "k-1"}
    )
    assert other.status_code == 422 and Round.objects.count() == 1


def test_save_on_a_closed_table_is_refused_and_the_key_stays_free(client, pitboss, table):
    client.force_login(pitboss)
    url = reverse("tablet-round-save", args=[table.pk])
    response = post_json(
        client, url, {"round": ROUNDS["ante_up_21"]["correct"][0]}, **{"Idempotency-Key": "k-2"}
    )
    assert response.status_code == 400 and "closed" in response.json()["errors"]["table"][0]
    assert not Round.objects.exists()


def test_entry_page_carries_the_table_config(client, pitboss, table, dealer):
    client.force_login(pitboss)
    open_table(client, table, dealer)
    page = client.get(reverse("tablet-round-new", args=[table.pk])).content.decode()
    assert 'id="entry-config"' in page and '"family": "blackjack"' in page
    assert (
        '"key": "poker_bonus"' in page and '"amounts": ["1.00"]' in page
    )  # the ruleset's fixed Poker Bonus


def test_correction_of_own_round_with_a_reason(client, pitboss, table, dealer):
    client.force_login(pitboss)
    open_table(client, table, dealer)
    rnd = round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=pitboss).round
    url = reverse("tablet-round-correct", args=[rnd.pk])
    assert client.get(url).status_code == 200
    fixed = ROUNDS["ante_up_21"]["correct"][0]
    no_reason = post_json(client, url, {"round": fixed, "revision": 1, "reason": " "})
    assert no_reason.status_code == 400 and "reason" in no_reason.json()["errors"]
    response = post_json(
        client, url, {"round": fixed, "revision": 1, "reason": "21 bet was paid in full"}
    )
    assert (
        response.status_code == 200
        and response.json()["revision"] == 2
        and response.json()["findings"] == []
    )
    stale = post_json(client, url, {"round": fixed, "revision": 1, "reason": "again"})
    assert stale.status_code == 409
    rnd.refresh_from_db()
    assert rnd.revision == 2 and rnd.revisions.get(number=2).reason == "21 bet was paid in full"
    assert Finding.objects.get(round=rnd, revision__number=1).status == Finding.SUPERSEDED


def test_another_pit_boss_may_not_correct(client, pitboss, table, dealer):
    client.force_login(pitboss)
    open_table(client, table, dealer)
    rnd = round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=pitboss).round
    client.force_login(user_with_role("pit_boss", username="other_boss"))
    url = reverse("tablet-round-correct", args=[rnd.pk])
    assert client.get(url).status_code == 403
    assert (
        post_json(
            client, url, {"round": ROUNDS["ante_up_21"]["correct"][0], "revision": 1, "reason": "x"}
        ).status_code
        == 403
    )


def test_result_page_shows_findings_in_plain_words(client, pitboss, table, dealer):
    client.force_login(pitboss)
    open_table(client, table, dealer)
    rnd = round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=pitboss).round
    page = client.get(reverse("tablet-round", args=[rnd.pk])).content.decode()
    assert "1 finding · 5.00 at stake" in page and "Underpaid" in page and "pays 10.00" in page


def test_dismissal_asks_the_recorder_for_a_correction(client, pitboss, table, dealer):
    client.force_login(pitboss)
    open_table(client, table, dealer)
    rnd = round_record(table=table, data=ROUNDS["ante_up_21"]["underpay"][0], author=pitboss).round
    finding_review(
        finding=rnd.findings.get(),
        decision="dismiss",
        note="Paid in full on camera; fix the entry",
        author=user_with_role("surveillance"),
    )
    page = client.get(reverse("tablet-floor")).content.decode()
    assert "Corrections asked for by surveillance" in page and "fix the entry" in page
    post_json(
        client,
        reverse("tablet-round-correct", args=[rnd.pk]),
        {"round": ROUNDS["ante_up_21"]["correct"][0], "revision": 1, "reason": "paid in full"},
    )
    assert "Corrections asked for" not in client.get(reverse("tablet-floor")).content.decode()


def test_holdem_next_step_endpoint(client, pitboss):
    pit = PitFactory()
    table = TableFactory(
        pit=pit,
        game="holdem_blackjack",
        seats=6,
        ruleset=RulesetFactory(game="holdem_blackjack", casino=pit.casino),
    )
    client.force_login(pitboss)
    hand = {**HOLDEM_CORRECT, "actions": HOLDEM_CORRECT["actions"][:8]}
    response = post_json(client, reverse("tablet-holdem-next", args=[table.pk]), {"round": hand})
    assert response.status_code == 200
    body = response.json()
    assert body["phase"] == "round1" and body["to_act"] == 1
    assert {"action": "raise", "amount": "4.00"} in body["options"]
    wrong_game = TableFactory(pit=pit)
    assert (
        post_json(
            client, reverse("tablet-holdem-next", args=[wrong_game.pk]), {"round": hand}
        ).status_code
        == 400
    )


def test_bad_json_is_a_field_error(client, pitboss, table, dealer):
    client.force_login(pitboss)
    response = client.post(
        reverse("tablet-round-preview", args=[table.pk]),
        "not json",
        content_type="application/json",
    )
    assert response.status_code == 400 and "body" in response.json()["errors"]
