"""Issue #15, point 4: a refused round keeps its field paths and says each error as the table
counts: the seat's own number, hands and cards from one."""

from __future__ import annotations

import copy
import json

import pytest
from django.urls import reverse

from casino.field_words import error_words, path_words
from tables.models import Round
from tables.services.sessions import table_session_open
from tests.conftest import api_as
from tests.factories import DealerFactory, PitFactory, RulesetFactory, TableFactory, user_with_role
from tests.tables.rounds_data import HOLDEM_CORRECT, ROUNDS

# Seat 1 played correctly; the second seat in the list is seat 4 at the table, with one card.
ROUND = copy.deepcopy(ROUNDS["ante_up_21"]["correct"][0])
ROUND["seats"].append({"seat": 4, "player": "P-8", "wagers": {"21": "10.00"},
                       "hands": [{"cards": ["5S"], "actions": ["stand"]}]})
PATH = "round.seats[1].hands[0].cards"
WORDS = "Seat 4, hand 1, cards: needs at least 2 cards, got 1"


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("round.seats[1].hands[0].cards", "Seat 4, hand 1, cards"),
        ("round.seats[1].hands[0].cards[0]", "Seat 4, hand 1, card 1"),
        ("round.seats[0].wagers.21", "Seat 1, 21 bet"),
        ("round.seats[0].paid[0].net", "Seat 1, pay for the 21 bet (hand 1), net"),
        ("round.seats[0].paid[1]", "Seat 1, pay for the Ante"),
        ("round.dealer.cards[1]", "Dealer, card 2"),
        ("round.seats[5].seat", "Seat entry 6 (no seat number), seat"),
        ("round", "The round"),
        ("table", "Table"),
        ("dealer_badge", "Dealer's badge number"),
        ("non_field_errors", ""),
    ],
)
def test_a_path_as_the_table_counts(path, words):
    assert path_words(path, ROUND) == words


def test_holdem_actions_name_their_seat_and_messages_their_seats():
    hand = copy.deepcopy(HOLDEM_CORRECT)
    seat = hand["actions"][0]["seat"]
    assert path_words("round.actions[0].amount", hand) == f"Action 1 (seat {seat}), amount"
    listed = hand["seats"][0]["seat"]
    assert error_words({"round.seats[1].seat": ["seat 9 is already taken by seats[0]"]}, hand) == [
        f"Seat {hand['seats'][1]['seat']}, seat: seat 9 is already taken by seat {listed}"]


def _open_table(pitboss):
    pit = PitFactory()
    table = TableFactory(pit=pit, game="ante_up_21", ruleset=RulesetFactory(game="ante_up_21", casino=pit.casino))
    table_session_open(table=table, dealer=DealerFactory(casino=pit.casino), author=pitboss)
    return table


@pytest.mark.django_db
def test_the_api_keeps_the_path_and_adds_the_words():
    pitboss = user_with_role("pit_boss")
    table = _open_table(pitboss)
    response = api_as(pitboss).post(reverse("round-list"), {"table": table.pk, "round": ROUND}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body[PATH] == ["needs at least 2 cards, got 1"]
    assert body["messages"] == [WORDS]
    assert not Round.objects.exists()


@pytest.mark.django_db
def test_the_tablet_answers_with_the_words_it_shows(client):
    pitboss = user_with_role("pit_boss")
    table = _open_table(pitboss)
    client.force_login(pitboss)
    for name in ("tablet-round-preview", "tablet-round-save"):
        response = client.post(reverse(name, args=[table.pk]), json.dumps({"round": ROUND}),
                               content_type="application/json")
        assert response.status_code == 400
        assert response.json()["errors"] == {PATH: ["needs at least 2 cards, got 1"]}
        assert response.json()["messages"] == [WORDS]
    assert not Round.objects.exists()
