"""What the books cannot hold is still refused by the re-audit: a stored revision is replayed with
its stored form as what the books hold (``round_parsed_audit(stored=True)``), and the limits that
recording applies are applied to it and to the engine's new settlements."""

from __future__ import annotations

from decimal import Decimal

import pytest

from audit.reports.services.reaudit import rounds_reaudit
from tables.services import round_limits
from tests.decisions.test_pricing import _record, _seat, floor  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def test_a_stored_round_beyond_the_books_limits_is_listed_as_refused(floor, monkeypatch):  # noqa: F811
    ok = _record(floor, "blackjack_tie", ["TH", "7C"], [_seat(1, "P-1", "100.00", ["TS", "2D"], ["stand"])])
    long_name = _record(floor, "blackjack_tie", ["TH", "7C"],
                        [_seat(1, "PLAYER-12", "10.00", ["TS", "2D"], ["stand"])])
    assert rounds_reaudit(round_ids=[ok.pk, long_name.pk], full=True).errors == []
    # Limits lowered under the stored rounds, as a change of the books would: the player's
    # identifier read from the stored revision, the stake too, the pay from the new audit.
    monkeypatch.setattr(round_limits, "PLAYER_LENGTH", 5)
    errors = rounds_reaudit(round_ids=[ok.pk, long_name.pk], full=True).errors
    assert len(errors) == 1 and f"round {long_name.pk}" in errors[0] and "at most 5 characters" in errors[0]
    monkeypatch.setattr(round_limits, "LARGEST_TABLE_LIMIT", Decimal("50.00"))
    errors = rounds_reaudit(round_ids=[ok.pk], full=True).errors
    assert len(errors) == 1 and "more than any table takes" in errors[0]
    monkeypatch.setattr(round_limits, "MAX_AMOUNT", Decimal("5.00"))
    monkeypatch.setattr(round_limits, "LARGEST_TABLE_LIMIT", Decimal("1000.00"))
    errors = rounds_reaudit(round_ids=[ok.pk], full=True).errors
    assert len(errors) == 1 and "more than the books hold" in errors[0]
