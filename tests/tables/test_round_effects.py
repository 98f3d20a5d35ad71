"""What a round sets off is the settings' two lists, called in their order, in the round's own
transaction: a ledger that refuses takes the round back with it (tables/round_effects.py)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.core.exceptions import ValidationError
from django.test import override_settings

from tables.models import Round
from tables.round_effects import RoundLedger, RoundProjection, round_ledgers, round_projections
from tables.services.rounds import round_correct, round_record, round_void
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table, pitboss  # noqa: F401 - the fixture

CALLS: list[tuple] = []


class Ledger:
    refuse = False

    def bank_required(self, table):
        CALLS.append(("ledger.bank_required", table.pk))

    def bank_of(self, table, *, earlier_round=None):
        return "bank"

    def context_for_round(self, *, table, version, context, bank, round=None, lock=True):  # noqa: A002
        CALLS.append(("ledger.context", lock))
        return context

    def priced_by_meters(self, audit, context):
        return False

    def round_posted(self, *, round, revision, audit, author, at, bank):  # noqa: A002
        # Called after the round's own rows: the round and its revision are in the database.
        assert Round.objects.filter(pk=round.pk, revision=revision.number).exists()
        CALLS.append(("ledger.posted", revision.number, bank))
        if Ledger.refuse:
            raise ValidationError({"round": ["the ledger refuses"]})

    def round_voided(self, *, round, author, reason, at):  # noqa: A002
        CALLS.append(("ledger.voided", reason))


class First:
    name = "first"

    @contextmanager
    def changing(self, round_ids):
        CALLS.append((f"{self.name}.changing", "enter"))
        yield
        CALLS.append((f"{self.name}.changing", "exit"))

    def round_posted(self, *, round, revision, casino_id):  # noqa: A002
        CALLS.append((f"{self.name}.posted", revision.number))

    def round_voided(self, *, round):  # noqa: A002
        CALLS.append((f"{self.name}.voided",))


class Second(First):
    name = "second"


class NotAProjection:
    def round_posted(self, *, round, revision, casino_id):  # noqa: A002
        pass


LISTED = {"ROUND_LEDGERS": [f"{__name__}.Ledger"],
          "ROUND_PROJECTIONS": [f"{__name__}.First", f"{__name__}.Second"]}


@pytest.fixture
def listed():
    CALLS.clear()
    Ledger.refuse = False
    with override_settings(**LISTED):
        yield CALLS


def test_the_settings_list_the_jackpot_ledger_and_four_projections_in_order():
    assert [type(x).__name__ for x in round_ledgers()] == ["JackpotMeters"]
    assert [type(x).__name__ for x in round_projections()] == ["DeskRollups", "CountLines", "RatingSessions",
                                                                 "DecisionQueue"]
    assert all(isinstance(x, RoundLedger) for x in round_ledgers())
    assert all(isinstance(x, RoundProjection) for x in round_projections())


@pytest.mark.django_db
def test_record_correct_and_void_call_the_ledgers_then_the_projections_in_the_listed_order(listed, pitboss):  # noqa: F811
    table = open_table("blackjack_tie", pitboss)
    listed.clear()
    recorded = round_record(table=table, data=ROUNDS["blackjack_tie"]["correct"][0], author=pitboss)
    assert listed == [("ledger.context", False), ("ledger.posted", 1, "bank"), ("first.posted", 1),
                      ("second.posted", 1)]

    listed.clear()
    round_correct(round=recorded.round, revision=1, data=ROUNDS["blackjack_tie"]["correct"][0], reason="re-keyed",
                  author=pitboss)
    assert listed == [("ledger.context", True), ("first.changing", "enter"), ("second.changing", "enter"),
                      ("second.changing", "exit"), ("first.changing", "exit"), ("ledger.posted", 2, "bank"),
                      ("first.posted", 2), ("second.posted", 2)]

    listed.clear()
    round_void(round=recorded.round, reason="misdeal", author=pitboss)
    assert listed == [("first.changing", "enter"), ("second.changing", "enter"), ("second.changing", "exit"),
                      ("first.changing", "exit"), ("ledger.voided", "misdeal"), ("first.voided",),
                      ("second.voided",)]


@pytest.mark.django_db
def test_a_ledger_that_refuses_takes_the_round_back_and_no_projection_hears_of_it(listed, pitboss):  # noqa: F811
    table = open_table("blackjack_tie", pitboss)
    before = Round.objects.count()
    Ledger.refuse = True
    listed.clear()
    with pytest.raises(ValidationError, match="the ledger refuses"):
        round_record(table=table, data=ROUNDS["blackjack_tie"]["correct"][0], author=pitboss)
    assert Round.objects.count() == before
    assert [c[0] for c in listed] == ["ledger.context", "ledger.posted"]


def test_a_listed_class_that_is_not_a_projection_is_refused_when_first_used():
    with override_settings(ROUND_PROJECTIONS=[f"{__name__}.NotAProjection"]), \
            pytest.raises(TypeError, match="does not implement RoundProjection"):
        round_projections()
