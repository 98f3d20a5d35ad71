"""Issue #20: the tablet's "corrections asked for" list reads one period, not every dismissed
finding ever: the requests the pit can still act on, rounds of the last DEFAULT_DAYS gaming days
whose day is not closed (a closed day refuses a correction)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from audit.services import finding_review
from casino.periods import DEFAULT_DAYS
from tables.pages.selectors import corrections_requested
from tables.services.rounds import round_record
from tests.closing.closed_today import close_directly
from tests.pages.test_desk import OVERPAY
from tests.pages.test_reviewed_findings_stand import floor, pitboss, surveillance  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


def test_a_request_stands_for_the_period_and_not_on_a_closed_day(floor, pitboss, surveillance, client):  # noqa: F811
    rnd = round_record(table=floor["a"], data=OVERPAY, author=pitboss).round
    finding_review(finding=rnd.findings.get(), decision="dismiss", note="fix the entry", author=surveillance)
    day = rnd.gaming_day
    assert list(corrections_requested(today=day)) == list(rnd.findings.all())
    assert corrections_requested(today=day + timedelta(days=DEFAULT_DAYS - 1), table=floor["a"]).count() == 1
    assert not corrections_requested(today=day + timedelta(days=DEFAULT_DAYS)).exists()
    client.force_login(pitboss)
    assert "fix the entry" in client.get(reverse("tablet-table", args=[floor["a"].pk])).content.decode()
    close_directly(floor["a"].pit.casino, day)
    assert not corrections_requested(today=day, recorded_by=pitboss).exists()
    assert "fix the entry" not in client.get(reverse("tablet-table", args=[floor["a"].pk])).content.decode()
