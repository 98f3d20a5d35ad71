"""The hash chains hold when writers at one table (and one jackpot bank) run at once.

Each writer is a thread with its own PostgreSQL connection, going through the API with a real
``Authorization: Token`` header, as the tablets do. A writer that waited for the table's lock
must link to the head the previous writer left, not to the head it saw before it waited:
otherwise two links share a predecessor and ``audit_verify`` reports every later one as
tampered."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from casino.tokens import api_token_issue
from tables import chain
from tables.models import ChainLink, Round
from tests.audit.test_hash_chain import verify_output
from tests.concurrency import run_at_once
from tests.factories import user_with_role
from tests.jackpots.helpers import hit_round, linked_bank
from tests.jackpots.test_parallel_writers import TAXED_NO_HIT
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS_AT_ONE_TABLE, THREADS = 40, 4


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("parallel writers under row locks need PostgreSQL")


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_issue(user=user, author=None, name='tablet')[1]}")
    return client


def record_in_parallel(table, pitboss, data, *, rounds=ROUNDS_AT_ONE_TABLE, threads=THREADS) -> list[int]:
    statuses: list[int] = []

    def write(index: int) -> None:
        client = token_client(pitboss)
        for _ in range(rounds // threads):
            response = client.post(reverse("round-list"), {"table": table.pk, "round": data}, format="json")
            statuses.append(response.status_code)

    assert run_at_once(threads, write) == []
    return statuses


def test_rounds_recorded_at_one_table_from_four_threads_verify():
    pitboss = user_with_role("pit_boss", username="pb-parallel")
    table = open_table("ante_up_21", pitboss)
    statuses = record_in_parallel(table, pitboss, ROUNDS["ante_up_21"]["underpay"][0])
    assert statuses == [201] * ROUNDS_AT_ONE_TABLE
    assert ChainLink.objects.filter(chain=chain.table_chain(table.pk)).count() == ROUNDS_AT_ONE_TABLE
    out = verify_output()
    assert "every chain verifies" in out, out


def test_corrections_and_voids_at_one_table_in_parallel_verify():
    """Corrections and voids take the table's chain after writing their rows: they too link
    to the head left by whoever held the lock before them."""
    pitboss = user_with_role("pit_boss", username="pb-fix")
    table = open_table("ante_up_21", pitboss)
    data = ROUNDS["ante_up_21"]["underpay"][0]
    client = token_client(pitboss)
    ids = [client.post(reverse("round-list"), {"table": table.pk, "round": data}, format="json").json()["id"]
           for _ in range(8)]
    statuses: list[int] = []

    def write(index: int) -> None:
        client = token_client(pitboss)
        for pk in ids[index::4]:
            if index % 2:
                response = client.post(reverse("round-void", args=[pk]), {"reason": "misdeal"}, format="json")
            else:
                response = client.post(reverse("round-corrections", args=[pk]), {
                    "revision": 1, "reason": "recount", "round": ROUNDS["ante_up_21"]["correct"][0]}, format="json")
            statuses.append(response.status_code)
        for _ in range(3):
            statuses.append(client.post(reverse("round-list"), {"table": table.pk, "round": data},
                                        format="json").status_code)

    assert run_at_once(4, write) == []
    assert sorted(set(statuses)) == [200, 201], statuses
    assert Round.objects.filter(table=table, status=Round.VOIDED).count() == 4
    out = verify_output()
    assert "every chain verifies" in out, out


def test_jackpot_bank_chain_holds_under_parallel_rounds_at_its_tables():
    """Four tables of one bank: the rounds' contributions post to the bank's chain at once."""
    bank, tables, _, pitboss = linked_bank(4)
    statuses: list[int] = []

    def write(index: int) -> None:
        client = token_client(pitboss)
        for n in range(5):
            data = hit_round() if (index, n) == (0, 2) else hit_round(dealer=TAXED_NO_HIT)
            response = client.post(reverse("round-list"), {"table": tables[index].pk, "round": data,
                                                           "pays": "attested"}, format="json")
            statuses.append(response.status_code if response.status_code == 201 else response.content[:300])

    assert run_at_once(4, write) == []
    assert statuses == [201] * 20, statuses
    assert ChainLink.objects.filter(chain=chain.bank_chain(bank.pk)).count() > 20
    out = verify_output()
    assert "every chain verifies" in out, out
