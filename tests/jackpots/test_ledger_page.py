"""The ledger page lists a period's transactions a page at a time (issue #20): a bank takes a
transaction per taxed round, so a month of a busy floor on one page would cost seconds."""

from __future__ import annotations

import pytest

from audit.jackpots import views
from audit.jackpots.models import LedgerTransaction
from tests.factories import user_with_role
from tests.jackpots.helpers import linked_bank, simulated_day

pytestmark = pytest.mark.django_db


def test_the_ledger_page_pages_through_the_periods_transactions(client, monkeypatch):
    bank, tables, _, pitboss = linked_bank(2)
    simulated_day(tables, pitboss, rounds=20)
    every = list(LedgerTransaction.objects.filter(bank=bank).order_by("created_at", "pk").values_list("pk", flat=True))
    assert len(every) >= 5
    monkeypatch.setattr(views, "LEDGER_PAGE", 2)
    client.force_login(user_with_role("finance", casinos=[bank.casino]))
    period = {"bank": bank.pk, "from": "2000-01-01", "to": "2100-01-01"}
    seen = []
    for number in range(1, len(every)):
        page = client.get("/jackpots/ledger/", {**period, "page": number})
        assert page.status_code == 200
        shown = [t.pk for t in page.context["transactions"]]
        assert len(shown) <= 2
        seen += shown
        if page.context["next_page"] is None:
            break
        assert f"page={number + 1}" in page.content.decode()
    assert seen == every


def test_a_page_that_is_not_a_number_is_said_on_the_page(client):
    bank, *_ = linked_bank(1)
    client.force_login(user_with_role("finance", casinos=[bank.casino]))
    page = client.get("/jackpots/ledger/", {"bank": bank.pk, "page": "x"})
    assert page.status_code == 200
    assert "is not a page number" in page.content.decode()
