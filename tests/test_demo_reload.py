"""Loading the demo twice on one gaming day adds nothing the second time (`load_demo` is
idempotent per day): a test of its own, as it loads the demo itself, committed, and the story's
tests (tests/test_demo_story.py) share one load."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from audit.jackpots.models import JackpotAdjustment, JackpotAward
from audit.reports.models import DailyReport
from tables.accounting.models import ChipSlip, InventorySlip, SoftCount
from tables.models import Round
from tests.test_demo_story import _load_demo

# Committed as `load_demo` commits: the reports' tasks are queued on commit.
pytestmark = pytest.mark.django_db(transaction=True)


def test_loading_the_demo_again_the_same_day_adds_nothing():
    _load_demo()
    counts = lambda: (Round.objects.count(), DailyReport.objects.count(), JackpotAward.objects.count(),  # noqa: E731
                      JackpotAdjustment.objects.count(), get_user_model().objects.count(),
                      InventorySlip.objects.count(), ChipSlip.objects.count(), SoftCount.objects.count())
    first = counts()
    logins = _load_demo()
    assert counts() == first
    assert set(logins) == {"pitboss", "surveillance", "finance", "manager", "manager2", "cage", "count", "count2",
                           "compliance"}
