"""The answer to recording or correcting a round is built without the serializers (hot path):
it must be the very document a later GET of the round returns."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import api_as
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table, pitboss, post_round  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db

CASES = [(game, case) for game, cases in ROUNDS.items() for case in cases]


@pytest.mark.parametrize(("game", "case"), CASES, ids=[f"{g}-{c}" for g, c in CASES])
def test_created_round_answer_equals_its_detail(game, case, pitboss):  # noqa: F811
    data = ROUNDS[game][case][0]
    client = api_as(pitboss)
    created = post_round(client, open_table(game, pitboss), data)
    assert created.status_code == 201, created.content
    body = created.json()
    detail = client.get(reverse("round-detail", args=[body["id"]]))
    assert detail.status_code == 200
    assert body == detail.json()


def test_corrected_round_answer_equals_its_detail(pitboss):  # noqa: F811
    game = "ante_up_21"
    client = api_as(pitboss)
    cases = list(ROUNDS[game].values())
    created = post_round(client, open_table(game, pitboss), cases[0][0]).json()
    corrected = client.post(reverse("round-corrections", args=[created["id"]]),
                            {"revision": 1, "reason": "pay keyed wrong", "round": cases[-1][0]}, format="json")
    assert corrected.status_code == 200, corrected.content
    assert corrected.json()["revision"] == 2
    assert corrected.json() == client.get(reverse("round-detail", args=[created["id"]])).json()


def test_unknown_table_is_a_field_error_and_stores_nothing(pitboss):  # noqa: F811
    from tables.models import Round

    response = api_as(pitboss).post(reverse("round-list"), {"table": 987654, "round": {}}, format="json")
    assert response.status_code == 400
    assert "table" in response.json() and "987654" in str(response.json()["table"])
    assert not Round.objects.exists()


def test_a_recorded_round_has_its_history_row_and_numbered_rows(pitboss):  # noqa: F811
    from tables.models import Finding, Round, Wager

    client = api_as(pitboss)
    game = "ante_up_21"
    table = open_table(game, pitboss)
    first, second = (post_round(client, table, case[0]).json() for case in list(ROUNDS[game].values())[:2])
    assert (first["sequence"], second["sequence"]) == (1, 2)
    history = Round.history.get(id=second["id"])
    assert (history.history_type, history.history_change_reason, history.history_user) == ("+", "recorded", pitboss)
    assert (history.sequence, history.table_id, history.status) == (2, table.pk, "active")
    for body in (first, second):
        assert Wager.objects.filter(round_id=body["id"]).count() == len(body["wagers"])
        assert sorted(Finding.objects.filter(round_id=body["id"]).values_list("id", flat=True)) == \
            [f["id"] for f in body["findings"]]
