"""Fills and credits have four eyes in the database itself, as jackpot adjustments do: a slip's
issuer is not its requester and its receiver is not its issuer, whoever writes the row (the
services refuse both first, with the field named)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from casino.audit_guard import allow_audit_write
from casino.roles import ROLE_GROUPS
from tables.accounting.models import ChipSlip
from tables.accounting.services.transfers import chip_slip_issue, chip_slip_request
from tests.accounting.helpers import floor, opener
from tests.conftest import AUTHS, client_as

pytestmark = pytest.mark.django_db


def _refused(constraint: str, write) -> None:
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        allow_audit_write()  # the audit guard would let the move through: the CHECK alone refuses
        write()
    assert constraint in str(refused.value)


@pytest.mark.postgres
@pytest.mark.parametrize("kind", [ChipSlip.FILL, ChipSlip.CREDIT])
def test_the_database_refuses_a_slip_issued_by_its_requester_or_received_by_its_issuer(kind):
    f = floor()
    opener(f, {"100": 10}, at=timezone.now())
    slip = chip_slip_request(table=f.table, kind=kind, counts={"100": 1}, author=f.boss)
    slips = ChipSlip.objects.filter(pk=slip.pk)
    _refused("chipslip_issuer_not_requester", lambda: slips.update(
        status=ChipSlip.ISSUED, issued_by=f.boss, issued_at=timezone.now()))
    # A row written already issued by its requester (not through the services) is refused too.
    _refused("chipslip_issuer_not_requester", lambda: ChipSlip.objects.create(
        casino=slip.casino, table=slip.table, kind=kind, serial=slip.serial + 100, gaming_day=slip.gaming_day,
        total=slip.total, requested_at=slip.requested_at, requested_by=f.boss, status=ChipSlip.ISSUED,
        issued_by=f.boss, issued_at=timezone.now()))
    chip_slip_issue(slip=slip, author=f.cashier)
    # Signed by the dealer, as a credit must be (chipslip_credit_dealer_signed): only four eyes is at stake.
    _refused("chipslip_receiver_not_issuer", lambda: slips.update(
        status=ChipSlip.RECEIVED, received_by=f.cashier, received_at=timezone.now(), received_dealer=f.dealer))
    assert slips.values_list("status", "issued_by", "received_by").get() == (ChipSlip.ISSUED, f.cashier.pk, None)


@pytest.mark.parametrize("auth", AUTHS)
def test_a_requester_who_is_also_a_cashier_cannot_issue_their_own_slip(auth):
    """One person with both roles: the API answers the service's field error, nothing changes."""
    f = floor()
    opener(f, {"100": 10}, at=timezone.now())
    f.boss.groups.add(Group.objects.get(name=ROLE_GROUPS["cage"]))
    client = client_as(f.boss, auth)
    fill = client.post(reverse("chipslip-list"), {"table": f.table.pk, "kind": "fill",
                                                  "counts": [{"denomination": "25", "count": 4}]}, format="json")
    assert fill.status_code == 201, fill.content
    issued = client.post(reverse("chipslip-issue", args=[fill.json()["id"]]), format="json")
    assert issued.status_code == 400 and "issued_by" in issued.json(), issued.content
    assert ChipSlip.objects.get(pk=fill.json()["id"]).status == ChipSlip.REQUESTED
