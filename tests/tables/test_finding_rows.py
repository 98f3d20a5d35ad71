"""One map from the engine's findings to stored findings: recording, correcting and the
re-audit write the same fields and the same history (issue #18)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from django.utils import timezone

from audit.reports.services.reaudit import REAUDIT_NOTE, rounds_reaudit
from tables.games import ENGINE_VERSION
from tables.models import Finding
from tables.services import rounds
from tables.services.rounds import round_correct, round_record
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table, pitboss  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

# an Odds of 20 against an Ante of 10 and a pay of 10 on the Ante: ANTE_ODDS_UNEQUAL with a seat and a player
DATA = ROUNDS["poker_or_bust"]["rule_violation"][0]
SAME = ("kind", "code", "path", "rule", "expected", "recorded", "amount", "seat", "player", "status", "review_note",
        "reopened_reason")


def _with_player(data: dict) -> dict:
    data = {**data, "seats": [{**data["seats"][0], "player": "P-2001"}]}
    return data


def _history(finding: Finding) -> list:
    return list(Finding.history.filter(id=finding.pk))


def _assert_history(finding: Finding, *, user, reason: str) -> None:
    (row,) = _history(finding)  # exactly one row, written when the finding was
    assert (row.history_type, row.history_user, row.history_change_reason) == ("+", user, reason)
    assert row.history_date == finding.created_at
    for name in (*SAME, "message", "round_id", "revision_id", "created_at"):
        assert getattr(row, name) == getattr(finding, name), name


def test_recording_and_re_audit_store_a_finding_alike_with_its_history(pitboss, monkeypatch):  # noqa: F811
    at = timezone.now().replace(microsecond=0)
    data = _with_player(DATA)
    table = open_table("poker_or_bust", pitboss)
    recorded = round_record(table=table, data=data, author=pitboss, at=at).round
    (by_recording,) = Finding.objects.filter(round=recorded)
    assert (by_recording.code, by_recording.player, by_recording.seat) == ("ANTE_ODDS_UNEQUAL", "P-2001", 1)
    _assert_history(by_recording, user=pitboss, reason="recorded")

    # The same round recorded by an engine that saw nothing wrong; today's engine, replaying
    # it, adds the finding.
    real = rounds.round_audit

    def blind(**kwargs):
        canonical, result = real(**kwargs)
        return canonical, dataclasses.replace(result, findings=())

    monkeypatch.setattr(rounds, "round_audit", blind)
    missed = round_record(table=table, data=data, author=pitboss, at=at + timedelta(minutes=1)).round
    monkeypatch.undo()
    assert not Finding.objects.filter(round=missed).exists()
    later = at + timedelta(hours=1)
    result = rounds_reaudit(round_ids=[missed.pk], full=True, at=later)
    assert result.new_findings == 1
    (by_reaudit,) = Finding.objects.filter(round=missed)

    for name in SAME:
        assert getattr(by_reaudit, name) == getattr(by_recording, name), name
    assert by_reaudit.message == REAUDIT_NOTE + by_recording.message
    assert (by_reaudit.revision.number, by_reaudit.created_at) == (1, later)
    _assert_history(by_reaudit, user=None, reason=f"re-audit by engine {ENGINE_VERSION}")
    missed.refresh_from_db()
    assert missed.open_findings == 1


def test_a_correction_writes_its_findings_history_with_the_reason(pitboss):  # noqa: F811
    at = timezone.now().replace(microsecond=0)
    table = open_table("poker_or_bust", pitboss)
    rnd = round_record(table=table, data=ROUNDS["poker_or_bust"]["correct"][0], author=pitboss, at=at).round
    assert not Finding.objects.filter(round=rnd).exists()
    round_correct(round=rnd, revision=1, data=DATA, reason="odds chips miscounted", author=pitboss,
                  at=at + timedelta(minutes=2))
    (finding,) = Finding.objects.filter(round=rnd)
    assert finding.revision.number == 2
    _assert_history(finding, user=pitboss, reason="corrected: odds chips miscounted")
