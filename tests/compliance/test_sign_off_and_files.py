"""The compliance sign-off keeps the MTL's digest: a later change shows as changed since signed.
The MTL's CSV and PDF."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.compliance.models import MtlSignOff
from audit.compliance.selectors import compliance_day
from audit.compliance.services import mtl_sign_off
from tables.accounting.services.buyins import buy_in_void
from tests.compliance.helpers import DAY, t31_floor
from tests.conftest import api_as

pytestmark = pytest.mark.django_db


def test_a_change_after_the_sign_off_shows_and_a_new_sign_off_follows():
    f = t31_floor()
    f.cash_in(f.bj1, "2000.00", "P-1", hours=1)
    second = f.cash_in(f.bj2, "2000.00", "P-1", hours=2)
    assert not compliance_day(f.casino, DAY).signed
    signed = mtl_sign_off(casino=f.casino, gaming_day=DAY, author=f.compliance, note="reviewed")
    day = compliance_day(f.casino, DAY)
    assert (day.signed, day.changed_since_signed, signed.patrons, signed.digest) == (True, False, 1, day.digest)
    # A transaction under the threshold of a patron not on the log changes nothing.
    f.cash_in(f.bj1, "100.00", "P-2", hours=3)
    assert not compliance_day(f.casino, DAY).changed_since_signed
    # Another transaction of a logged patron, and a void, each change the log.
    f.cash_out("50.00", "P-1", hours=4)
    assert compliance_day(f.casino, DAY).changed_since_signed
    buy_in_void(buy_in=second, reason="wrong patron", author=f.pit_boss)
    day = compliance_day(f.casino, DAY)
    assert day.changed_since_signed and day.mtl == []
    mtl_sign_off(casino=f.casino, gaming_day=DAY, author=f.compliance)
    assert not compliance_day(f.casino, DAY).changed_since_signed
    assert MtlSignOff.objects.count() == 2


def test_the_page_shows_signed_then_changed_and_the_files_hold_the_log():
    f = t31_floor()
    f.cash_in(f.bj1, "2000.00", "P-1", hours=1)
    f.cash_in(f.bj2, "2000.00", "P-1", hours=2)
    client = api_as(f.compliance)
    query = {"casino": f.casino.pk, "gaming_day": DAY.isoformat()}
    assert client.post(reverse("compliance-sign-off"), query, format="multipart").status_code == 302
    page = client.get(reverse("compliance-day"), query).content.decode()
    assert 'id="sign-off-state">signed<' in page and "P-1" in page
    # 06:00 local start + 1 h: the casino's zone, not UTC.
    assert "07:00" in page
    f.cash_out("10.00", "P-1", hours=3)
    assert "changed since signed" in client.get(reverse("compliance-day"), query).content.decode()
    csv = client.get(reverse("compliance-mtl-file", kwargs={"fmt": "csv"}), query)
    text = csv.content.decode("utf-8-sig")
    assert csv.status_code == 200 and text.count("P-1") == 3 and "BJ-2" in text and "cage" in text
    pdf = client.get(reverse("compliance-mtl-file", kwargs={"fmt": "pdf"}), query)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
