"""Recording rounds over the API: audit on save, bad input, idempotency, corrections, voids."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.urls import reverse

from tables.models import Finding, Round, RoundRevision, Table, TableSession
from tables.services.sessions import table_session_open
from tests.concurrency import run_at_once
from tests.conftest import AUTHS, api_as, client_as
from tests.factories import (
    DealerFactory,
    PitFactory,
    RulesetFactory,
    TableFactory,
    jackpot_bank_for,
    user_with_role,
)
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def pitboss(db):
    return user_with_role("pit_boss")


def open_table(game: str, pitboss) -> Table:
    pit = PitFactory()
    table = TableFactory(pit=pit, game=game,
                         ruleset=RulesetFactory(game=game, casino=pit.casino), seats=6 if game == "holdem_blackjack" else 7)
    jackpot_bank_for(table)
    table_session_open(table=table, dealer=DealerFactory(casino=pit.casino), author=pitboss)
    return table


def post_round(client, table, data, **headers):
    return client.post(reverse("round-list"), {"table": table.pk, "round": data}, format="json", headers=headers)


CASES = [(game, case) for game, cases in ROUNDS.items() for case in cases]


@pytest.mark.parametrize(("game", "case"), CASES, ids=[f"{g}-{c}" for g, c in CASES])
def test_record_round_and_audit_it(game, case, pitboss):
    data, kind, amount = ROUNDS[game][case]
    table = open_table(game, pitboss)
    response = post_round(api_as(pitboss), table, data)
    assert response.status_code == 201, response.data
    body = response.json()
    assert body["sequence"] == 1 and body["revision"] == 1 and body["game"] == game
    findings = body["findings"]
    if kind is None:
        assert findings == [], findings
        assert body["wagers"], "every wager is settled"
        for wager in body["wagers"]:
            if wager["recorded_net"] is not None:
                assert wager["recorded_net"] == wager["expected_net"], wager
    else:
        matching = [f for f in findings if f["kind"] == kind]
        assert matching, findings
        assert all(f["message"] and f["code"] for f in findings)
        if amount is not None:
            assert any(Decimal(f["amount"]) == Decimal(amount) for f in matching), matching
    assert Round.objects.get(pk=body["id"]).open_findings == len(findings)


def test_correct_round_wager_rows_for_finance(pitboss):
    table = open_table("ante_up_21", pitboss)
    body = post_round(api_as(pitboss), table, ROUNDS["ante_up_21"]["correct"][0]).json()
    rows = {(w["wager"], w["hand"]): (w["stake"], w["expected_net"], w["recorded_net"], w["player"])
            for w in body["wagers"]}
    assert rows[("21", 0)] == ("10.00", "10.00", "10.00", "P-7")
    assert rows[("ante", None)] == ("10.00", "10.00", "10.00", "P-7")
    assert rows[("bet", None)] == ("10.00", "10.00", "10.00", "P-7")


def test_impossible_round_is_refused_field_by_field_and_nothing_is_stored(pitboss):
    table = open_table("ante_up_21", pitboss)
    data = {"dealer": {"cards": ["QH", "7C"]}, "seats": [{
        "seat": 1, "wagers": {"21": "-10.00", "ante": "10.00"},
        "hands": [{"cards": ["9S", "1X"], "actions": ["stand"]}]}]}
    response = post_round(api_as(pitboss), table, data)
    assert response.status_code == 400
    body = response.json()
    assert any(key.startswith("round.seats[0].hands[0].cards[1]") for key in body), body
    assert any("1X" in " ".join(v) for v in body.values())
    assert any("wagers" in key for key in body), body
    assert not Round.objects.exists() and not RoundRevision.objects.exists()


def test_too_many_copies_of_a_card_is_impossible(pitboss):
    table = open_table("poker_or_bust", pitboss)  # 6 decks
    data = {"dealer": {"cards": ["AS", "AS", "AS", "AS"]}, "seats": [{
        "seat": 1, "wagers": {"ante": "10", "odds": "10"}, "cards": ["AS", "AS", "AS"]}]}
    response = post_round(api_as(pitboss), table, data)
    assert response.status_code == 400
    assert "AS" in str(response.json())


def test_closed_table_other_game_and_dealer_off_duty_are_refused(pitboss):
    closed = TableFactory(game="ante_up_21")
    response = post_round(api_as(pitboss), closed, ROUNDS["ante_up_21"]["correct"][0])
    assert response.status_code == 400 and "closed" in str(response.json())

    table = open_table("ante_up_21", pitboss)
    other_game = {**ROUNDS["ante_up_21"]["correct"][0], "game": "blackjack_tie"}
    response = post_round(api_as(pitboss), table, other_game)
    assert response.status_code == 400 and "Ante Up 21" in str(response.json())

    stranger = DealerFactory(casino=table.pit.casino)
    response = api_as(pitboss).post(reverse("round-list"), {
        "table": table.pk, "dealer": stranger.pk, "round": ROUNDS["ante_up_21"]["correct"][0]}, format="json")
    assert response.status_code == 400 and "not on duty" in str(response.json())
    assert not Round.objects.exists()


def test_idempotent_replay_and_conflicting_reuse(pitboss):
    table = open_table("blackjack_tie", pitboss)
    client = api_as(pitboss)
    data = ROUNDS["blackjack_tie"]["correct"][0]
    first = post_round(client, table, data, **{"Idempotency-Key": "tablet-7-0001"})
    again = post_round(client, table, data, **{"Idempotency-Key": "tablet-7-0001"})
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Round.objects.count() == 1
    other = post_round(client, table, ROUNDS["blackjack_tie"]["underpay"][0], **{"Idempotency-Key": "tablet-7-0001"})
    assert other.status_code == 422
    assert Round.objects.count() == 1


def test_failed_request_does_not_burn_its_idempotency_key(pitboss):
    table = open_table("blackjack_tie", pitboss)
    client = api_as(pitboss)
    bad = {"dealer": {"cards": ["TH"]}, "seats": []}
    assert post_round(client, table, bad, **{"Idempotency-Key": "k1"}).status_code == 400
    good = post_round(client, table, ROUNDS["blackjack_tie"]["correct"][0], **{"Idempotency-Key": "k1"})
    assert good.status_code == 201  # the refused request stored nothing, not even its key


def _record(pitboss, game="ante_up_21", case="underpay"):
    table = open_table(game, pitboss)
    body = post_round(api_as(pitboss), table, ROUNDS[game][case][0]).json()
    return table, Round.objects.get(pk=body["id"])


def test_correction_makes_a_new_revision_and_keeps_the_old_one(pitboss):
    _, rnd = _record(pitboss)
    client = api_as(pitboss)
    url = reverse("round-corrections", args=[rnd.pk])
    fixed = ROUNDS["ante_up_21"]["correct"][0]
    assert client.post(url, {"revision": 1, "round": fixed}, format="json").status_code == 400  # no reason
    response = client.post(url, {"revision": 1, "reason": "Keyed 5 instead of 10 for the 21 pay", "round": fixed},
                           format="json")
    assert response.status_code == 200, response.data
    assert response.json()["revision"] == 2 and response.json()["findings"] == []

    stale = client.post(url, {"revision": 1, "reason": "again", "round": fixed}, format="json")
    assert stale.status_code == 409 and stale.json()["current_revision"] == 2

    revisions = client.get(reverse("round-revisions", args=[rnd.pk])).json()["results"]
    assert [r["number"] for r in revisions] == [1, 2]
    assert revisions[0]["data"]["seats"][0]["paid"][0]["net"] == "5.00"
    assert revisions[0]["findings"][0]["kind"] == "underpay"
    assert revisions[0]["findings"][0]["status"] == "superseded"
    assert revisions[1]["reason"] == "Keyed 5 instead of 10 for the 21 pay"
    assert revisions[1]["author"] == str(pitboss)
    old = Finding.objects.get(revision__number=1)
    assert old.history.latest().history_change_reason.startswith("superseded by a correction")


def test_correction_keeps_the_ruleset_version_the_round_was_played_under(pitboss, manager):
    from tables.services.floor import ruleset_update

    table, rnd = _record(pitboss, "ante_up_21", "correct")
    ruleset_update(ruleset=table.ruleset, author=manager, reason="6:5 from tomorrow",
                   config={**table.ruleset.config, "blackjack_pays": "6:5"})
    response = api_as(pitboss).post(reverse("round-corrections", args=[rnd.pk]), {
        "revision": 1, "reason": "re-key", "round": ROUNDS["ante_up_21"]["correct"][0]}, format="json")
    assert response.status_code == 200
    assert response.json()["ruleset_version"] == 1


def test_only_the_recording_pit_boss_or_a_manager_corrects(pitboss, manager):
    _, rnd = _record(pitboss)
    other = user_with_role("pit_boss", username="other_pitboss")
    payload = {"revision": 1, "reason": "mine now", "round": ROUNDS["ante_up_21"]["correct"][0]}
    assert api_as(other).post(reverse("round-corrections", args=[rnd.pk]), payload,
                              format="json").status_code == 403
    surveillance = user_with_role("surveillance")
    assert api_as(surveillance).post(reverse("round-corrections", args=[rnd.pk]), payload,
                                     format="json").status_code == 403


def test_void_needs_a_reason_and_keeps_the_records(pitboss):
    _, rnd = _record(pitboss)
    client = api_as(pitboss)
    url = reverse("round-void", args=[rnd.pk])
    assert client.post(url, {}, format="json").status_code == 400
    response = client.post(url, {"reason": "Misdeal: dealer exposed the hole card"}, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "voided"
    assert client.post(url, {"reason": "twice"}, format="json").status_code == 400
    assert RoundRevision.objects.filter(round=rnd).count() == 1
    assert Finding.objects.get(round=rnd).status == "superseded"
    correction = client.post(reverse("round-corrections", args=[rnd.pk]), {
        "revision": 1, "reason": "x", "round": ROUNDS["ante_up_21"]["correct"][0]}, format="json")
    assert correction.status_code == 400


def test_list_filters(pitboss):
    table, _ = _record(pitboss, "ante_up_21", "underpay")
    client = api_as(pitboss)
    post_round(client, table, ROUNDS["ante_up_21"]["correct"][0])
    rows = client.get(reverse("round-list"), {"has_findings": "true"}).json()["results"]
    assert [r["sequence"] for r in rows] == [1]
    rows = client.get(reverse("round-list"), {"has_findings": "false", "game": "ante_up_21"}).json()["results"]
    assert [r["sequence"] for r in rows] == [2]
    assert client.get(reverse("round-list"), {"pit": table.pit_id}).json()["count"] == 2
    assert client.get(reverse("round-list"), {"game": "blackjack_tie"}).json()["count"] == 0


def test_sessions_open_change_dealer_close(pitboss):
    table = TableFactory(game="blackjack_tie")
    first, second = DealerFactory(casino=table.pit.casino), DealerFactory(casino=table.pit.casino)
    client = api_as(pitboss)
    opening = {"table": table.pk, "dealer": first.pk, "reason": "opener slip printer down"}
    opened = client.post(reverse("tablesession-list"), opening, format="json")
    assert opened.status_code == 201, opened.data
    session_id = opened.json()["id"]
    again = client.post(reverse("tablesession-list"), opening, format="json")
    assert again.status_code == 400 and "already open" in str(again.json())
    changed = client.post(reverse("tablesession-dealer", args=[session_id]), {"dealer": second.pk}, format="json")
    assert changed.json()["dealer"] == second.pk
    assert len(changed.json()["assignments"]) == 2 and changed.json()["assignments"][0]["ended_at"]
    closed = client.post(reverse("tablesession-close", args=[session_id]), {"reason": "closer counted on paper"},
                         format="json")
    assert closed.json()["closed_at"] and closed.json()["dealer"] is None
    table.refresh_from_db()
    assert not table.is_open


@pytest.mark.parametrize("auth", AUTHS)
def test_opening_or_closing_without_a_slip_over_the_api_says_why(pitboss, auth):
    """The opener and closer slips are the way a table opens and closes; the slip-less calls are
    refused with a field error until they say why, which the session's history keeps."""
    table = TableFactory(game="blackjack_tie")
    dealer = DealerFactory(casino=table.pit.casino)
    client = client_as(pitboss, auth)
    for reason in (None, "", "   "):
        body = {"table": table.pk, "dealer": dealer.pk} | ({} if reason is None else {"reason": reason})
        refused = client.post(reverse("tablesession-list"), body, format="json")
        assert refused.status_code == 400, refused.content
        assert "reason" in refused.json(), refused.json()
    assert not TableSession.objects.filter(table=table).exists()
    opened = client.post(reverse("tablesession-list"), {"table": table.pk, "dealer": dealer.pk,
                                                         "reason": "opener slip printer down"}, format="json")
    assert opened.status_code == 201, opened.content
    session = TableSession.objects.get(table=table)
    assert session.history.earliest().history_change_reason == "table opened without an opener: opener slip printer down"
    close = reverse("tablesession-close", args=[session.pk])
    for body in ({}, {"reason": ""}, {"reason": "x" * 201}):
        refused = client.post(close, body, format="json")
        assert refused.status_code == 400 and "reason" in refused.json(), refused.content
    session.refresh_from_db()
    assert session.closed_at is None
    closed = client.post(close, {"reason": "closer counted on paper"}, format="json")
    assert closed.status_code == 200, closed.content
    session.refresh_from_db()
    assert session.history.latest().history_change_reason == "table closed without a closer: closer counted on paper"


@pytest.mark.postgres
def test_audit_tables_refuse_update_and_delete_outside_the_services(pitboss):
    if connection.vendor != "postgresql":
        pytest.skip("the append-only triggers exist on PostgreSQL only")
    from django.db import DatabaseError, transaction

    _, rnd = _record(pitboss)
    for statement in (
        f"UPDATE tables_roundrevision SET reason = 'x' WHERE round_id = {rnd.pk}",
        f"DELETE FROM tables_wager WHERE round_id = {rnd.pk}",
        f"UPDATE tables_round SET revision = 9 WHERE id = {rnd.pk}",
        f"UPDATE audit_finding SET status = 'dismissed' WHERE round_id = {rnd.pk}",
        f"DELETE FROM tables_historicalround WHERE id = {rnd.pk}",
    ):
        with pytest.raises(DatabaseError, match="append-only|only change through"), transaction.atomic(), \
                connection.cursor() as cursor:
            cursor.execute(statement)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_corrections_one_wins_the_other_gets_409(pitboss):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are only meaningful on PostgreSQL")
    _, rnd = _record(pitboss)
    results = []

    def correct(index: int) -> None:
        client = api_as(pitboss)
        response = client.post(reverse("round-corrections", args=[rnd.pk]), {
            "revision": 1, "reason": f"client {index}", "round": ROUNDS["ante_up_21"]["correct"][0]}, format="json")
        results.append(response.status_code)

    assert run_at_once(2, correct) == []
    assert sorted(results) == [200, 409]
    assert RoundRevision.objects.filter(round=rnd).count() == 2


@pytest.mark.parametrize("bad", [0, "round", [], None])
def test_round_that_is_not_an_object_is_refused(pitboss, bad):
    table = open_table("ante_up_21", pitboss)
    response = post_round(api_as(pitboss), table, bad)
    assert response.status_code == 400
    assert "round" in response.json()
