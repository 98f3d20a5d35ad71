"""A gaming day with a required CTR whose patron is not identified does not close silently:
/closing/ names the patron; identification, or compliance's exception, lets it close."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.urls import reverse

from audit.compliance.models import CtrException
from audit.compliance.services import cash_out_record, ctr_exception_record, identification_record
from tables.closing.services.check import day_close_current
from tables.closing.services.close import CLOSE_CHECKS, close_waiting
from tests.closing.helpers import DAY, final_report, played_day
from tests.compliance.helpers import FULL_ID
from tests.conftest import api_as
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db(transaction=True)


def _day_with_a_ctr(amount: str = "10500.00"):
    d = played_day()
    cashier = user_with_role("cage", username="cashier")
    cash_out_record(casino=d.f.casino, kind="chip_redemption", amount=D(amount), author=cashier,
                    player_identifier="WHALE-1", at=d.session.opened_at + timedelta(hours=2))
    return d, user_with_role("compliance", username="officer")


def test_the_day_waits_names_the_patron_then_closes_when_identified():
    from audit.compliance.selectors import ctr_close_check

    assert ctr_close_check in CLOSE_CHECKS
    d, officer = _day_with_a_ctr()
    casino = d.f.casino
    d.sign()
    final_report(casino)
    assert day_close_current(casino.pk, DAY) is None
    waiting = close_waiting(casino.pk, DAY)
    assert len(waiting) == 1 and "WHALE-1" in waiting[0] and "cash out 10,500.00" in waiting[0]
    status = api_as(d.f.manager).get(reverse("dayclose-status"), {"casino": casino.pk, "gaming_day": DAY})
    assert "WHALE-1" in str(status.json())
    page = api_as(officer).get(reverse("closing-days"), {"casino": casino.pk, "day": DAY.isoformat()})
    assert "WHALE-1" in page.content.decode()
    # Incomplete identification: the day still waits, naming what is missing.
    identification_record(casino=casino, identifier="WHALE-1", author=officer, reason="ID at the cage",
                          last_name="Doe", first_name="Jane")
    assert day_close_current(casino.pk, DAY) is None
    assert "address" in close_waiting(casino.pk, DAY)[0]
    identification_record(casino=casino, identifier="WHALE-1", author=officer, reason="the rest of it", **FULL_ID)
    assert day_close_current(casino.pk, DAY) is not None


def test_an_exception_with_a_reason_lets_the_day_close():
    d, officer = _day_with_a_ctr()
    casino = d.f.casino
    d.sign()
    final_report(casino)
    assert day_close_current(casino.pk, DAY) is None
    ctr_exception_record(casino=casino, gaming_day=DAY, subject="WHALE-1", direction="out", author=officer,
                         reason="patron left without ID; CTR filed with what is known")
    assert day_close_current(casino.pk, DAY) is not None
    assert CtrException.objects.get().recorded_by == officer
