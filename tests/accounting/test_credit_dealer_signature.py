"""A credit (chips the table returns to the cage) is received only with the dealer's signature:
the service, the tablet page, the API (through a real token as well as a session) and the
database refuse it without; a fill received without it is still stored and flagged."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from casino.audit_guard import allow_audit_write
from tables.accounting.models import AccountingFinding, ChipSlip, Leg
from tables.accounting.services.transfers import (
    chip_slip_issue,
    chip_slip_receive,
    chip_slip_request,
)
from tests.accounting.helpers import floor, opener
from tests.conftest import AUTHS, client_as

pytestmark = pytest.mark.django_db


def _issued(f, kind: str = ChipSlip.CREDIT) -> ChipSlip:
    opener(f, {"100": 10}, at=timezone.now())
    slip = chip_slip_request(table=f.table, kind=kind, counts={"100": 2}, author=f.boss)
    return chip_slip_issue(slip=slip, author=f.cashier)


def _unchanged(slip: ChipSlip, legs: int) -> None:
    slip.refresh_from_db()
    assert (slip.status, slip.received_by, slip.received_dealer, slip.transaction) == (ChipSlip.ISSUED, None, None,
                                                                                       None)
    assert Leg.objects.count() == legs and not AccountingFinding.objects.exists()


def test_the_service_refuses_a_credit_received_without_the_dealer():
    f = floor()
    credit = _issued(f)
    legs = Leg.objects.count()
    with pytest.raises(ValidationError) as refused:
        chip_slip_receive(slip=credit, author=f.boss)
    assert "dealer" in refused.value.message_dict
    _unchanged(credit, legs)
    credit = chip_slip_receive(slip=credit, author=f.boss, dealer=f.dealer.pk, dealer_badge=f.dealer.employee_number)
    assert credit.status == ChipSlip.RECEIVED and credit.received_dealer == f.dealer and credit.transaction


@pytest.mark.parametrize("auth", AUTHS)
def test_the_api_answers_a_field_error_for_a_credit_received_without_the_dealer(auth):
    f = floor()
    credit = _issued(f)
    legs = Leg.objects.count()
    boss = client_as(f.boss, auth)
    url = reverse("chipslip-receive", args=[credit.pk])
    for unsigned in ({}, {"dealer": None, "dealer_badge": ""}):
        refused = boss.post(url, unsigned, format="json")
        assert refused.status_code == 400 and "dealer" in refused.json(), refused.content
    _unchanged(credit, legs)
    signed = boss.post(url, {"dealer": f.dealer.pk, "dealer_badge": f.dealer.employee_number}, format="json")
    assert signed.status_code == 200, signed.content
    assert signed.json()["status"] == "received" and signed.json()["received_dealer"] == f.dealer.pk


@pytest.mark.parametrize("auth", AUTHS)
def test_a_fill_is_still_received_without_the_dealer_and_flagged(auth):
    f = floor()
    fill = _issued(f, ChipSlip.FILL)
    got = client_as(f.boss, auth).post(reverse("chipslip-receive", args=[fill.pk]), {}, format="json")
    assert got.status_code == 200 and got.json()["received_dealer"] is None
    assert AccountingFinding.objects.get(chip_slip=fill).code == AccountingFinding.NO_DEALER_SIGNATURE


def test_the_tablet_asks_for_the_dealer_on_a_credit_and_refuses_it_without(client):
    f = floor()
    credit, fill = _issued(f), chip_slip_issue(slip=chip_slip_request(
        table=f.table, kind=ChipSlip.FILL, counts={"100": 1}, author=f.boss), author=f.cashier)
    client.force_login(f.boss)
    html = client.get(reverse("tablet-chips", args=[f.table.pk])).content.decode()
    credit_form = html[html.index(f'id="slip-{credit.label}"'):].split("</tr>")[0]
    fill_form = html[html.index(f'id="slip-{fill.label}"'):].split("</tr>")[0]
    assert "not signed by the dealer" in fill_form
    assert "not signed by the dealer" not in credit_form
    assert "A credit leaves the tray only with the dealer's signature" in credit_form
    legs = Leg.objects.count()
    refused = client.post(reverse("tablet-slip-receive", args=[credit.pk]), {"dealer": "", "dealer_badge": ""})
    assert refused.status_code == 400
    assert re.search(r"[Dd]ealer: C-000001 is a credit", refused.content.decode())  # the field, then the refusal
    _unchanged(credit, legs)
    client.post(reverse("tablet-slip-receive", args=[credit.pk]),
                {"dealer": f.dealer.pk, "dealer_badge": f.dealer.employee_number})
    credit.refresh_from_db()
    assert credit.status == ChipSlip.RECEIVED and credit.received_dealer == f.dealer


@pytest.mark.postgres
def test_the_database_refuses_a_credit_received_without_the_dealer_whoever_writes_it():
    f = floor()
    credit = _issued(f)
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        allow_audit_write()  # the audit guard would let the move through: the CHECK alone refuses
        ChipSlip.objects.filter(pk=credit.pk).update(status=ChipSlip.RECEIVED, received_by=f.boss,
                                                     received_at=timezone.now())
    assert "chipslip_credit_dealer_signed" in str(refused.value)
    fill = chip_slip_issue(slip=chip_slip_request(table=f.table, kind=ChipSlip.FILL, counts={"100": 1},
                                                  author=f.boss), author=f.cashier)
    with transaction.atomic():
        allow_audit_write()
        ChipSlip.objects.filter(pk=fill.pk).update(status=ChipSlip.RECEIVED, received_by=f.boss,
                                                   received_at=timezone.now())
    assert ChipSlip.objects.get(pk=fill.pk).status == ChipSlip.RECEIVED
