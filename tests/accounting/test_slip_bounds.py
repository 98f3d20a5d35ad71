"""Chips counted on a slip (opener, closer, fill, credit) or in a drop box are bounded by the
casino's ``slip_max`` (its accounting settings, beside ``buy_in_max``): more is refused with the
field named, over the API (token and session) and on the tablet's page, and nothing is saved.

Before: each count was held to a million pieces, but a million 5,000 chips made a fill of
5,000,000,000.00, and a million chips of the largest value a chip set takes overflowed the
slip's total column (a 500 on PostgreSQL)."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.urls import reverse

from tables.accounting.models import AccountingSettings, ChipSlip, InventorySlip, Leg
from tables.accounting.selectors import active_denominations
from tables.accounting.services.chips import MAX_CHIP
from tests.accounting.helpers import floor, opener
from tests.conftest import api_as, client_as
from tests.factories import chip_set_for

pytestmark = pytest.mark.django_db


def _nothing_saved(before):
    assert (ChipSlip.objects.count(), InventorySlip.objects.count(), Leg.objects.count()) == before


def _counts_now():
    return ChipSlip.objects.count(), InventorySlip.objects.count(), Leg.objects.count()


@pytest.mark.parametrize("auth", ["token", "session"])
def test_a_fill_above_the_casinos_bound_is_refused_by_field(auth):
    f = floor()
    opener(f, {"100": 10})
    client = client_as(f.boss, auth)
    before = _counts_now()
    for kind in ("fill", "credit"):
        response = client.post(reverse("chipslip-list"), {
            "table": f.table.pk, "kind": kind, "counts": [{"denomination": "5000", "count": 1_000_000}]},
            format="json")
        assert response.status_code == 400, response.content
        assert set(response.json()) == {"counts"}
        assert "5,000,000,000.00, more than one slip or box holds (5,000,000.00)" in response.json()["counts"][0]
    _nothing_saved(before)
    # At the bound it is a slip.
    ok = client.post(reverse("chipslip-list"), {
        "table": f.table.pk, "kind": "fill", "counts": [{"denomination": "5000", "count": 1000}]}, format="json")
    assert ok.status_code == 201 and ok.json()["total"] == "5000000.00"


def test_the_bound_is_the_casinos_own():
    f = floor()
    opener(f, {"100": 10})
    AccountingSettings.objects.create(casino=f.casino, slip_max=D("20000.00"))
    client = api_as(f.boss)
    refused = client.post(reverse("chipslip-list"), {
        "table": f.table.pk, "kind": "fill", "counts": [{"denomination": "100", "count": 201}]}, format="json")
    assert refused.status_code == 400 and "(20,000.00)" in refused.json()["counts"][0]
    assert client.post(reverse("chipslip-list"), {
        "table": f.table.pk, "kind": "fill", "counts": [{"denomination": "100", "count": 200}]},
        format="json").status_code == 201


def test_an_opener_or_closer_above_the_bound_is_refused_by_field():
    f = floor()
    client = api_as(f.boss)
    before = _counts_now()
    huge = [{"denomination": "5000", "count": 999_999}, {"denomination": "1000", "count": 999_999}]
    for kind in ("opener", "closer"):
        if kind == "closer":
            opener(f, {"100": 10})
            before = _counts_now()
        response = client.post(reverse("inventoryslip-list"), {
            "table": f.table.pk, "kind": kind, "dealer": f.dealer.pk, "dealer_badge": f.dealer.employee_number,
            "counts": huge}, format="json")
        assert response.status_code == 400 and set(response.json()) == {"counts"}, response.json()
        _nothing_saved(before)


def test_chips_of_the_largest_value_a_set_takes_are_a_field_error_not_a_500():
    f = floor()
    chip_set_for(f.casino, values=("5", str(MAX_CHIP)))
    opener(f, {"5": 10})
    before = _counts_now()
    response = api_as(f.boss).post(reverse("chipslip-list"), {
        "table": f.table.pk, "kind": "fill", "counts": [{"denomination": str(MAX_CHIP), "count": 1_000_000}]},
        format="json")
    assert response.status_code == 400 and set(response.json()) == {"counts"}, response.content
    _nothing_saved(before)


def test_the_tablet_page_says_which_field_and_saves_nothing():
    f = floor()
    opener(f, {"100": 10})
    five_thousand = next(d for d in active_denominations(f.casino) if d.value == D("5000"))
    before = _counts_now()
    page = api_as(f.boss).post(reverse("tablet-chips-fill", args=[f.table.pk]),
                               {f"count-{five_thousand.pk}": "1000000"}, format="multipart", follow=True)
    assert page.status_code == 400  # a refused form is answered again, with what was typed
    assert "Chip counts: these chips total 5,000,000,000.00, more than one slip or box holds" in page.content.decode()
    _nothing_saved(before)
