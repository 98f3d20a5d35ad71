"""The count lines (audit/advantage/models.py CountLine): what the walk needs of each round's current
revision, kept as rounds are recorded, corrected and voided, equal to what bets.round_cards and
bets.round_bets give from the raw revision; the rebuild makes the same lines as the listener."""

from __future__ import annotations

import copy
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import transaction
from django.db.models import F
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.advantage.bets import ASSESSED_GAMES, round_bets, round_cards
from audit.advantage.lines import line_bets, line_cards
from audit.advantage.models import CountLine
from audit.reports.services.reaudit import rounds_reaudit
from tables.games.vocabulary.cards import parse_card
from tables.models import Round, RoundRevision
from tables.services.rounds import round_correct, round_record, round_void
from tables.services.sessions import table_session_open
from tests.advantage.helpers import blackjack_round, table_with_decks
from tests.examples import examples
from tests.factories import user_with_role
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db


def raw_lines() -> dict:
    """Every round of the assessed games as the walk needs it, from its raw current revision with
    the one definition of its cards and bets (bets.py)."""
    out = {}
    for rev in (RoundRevision.objects.filter(number=F("round__revision"), round__game__in=ASSESSED_GAMES)
                .select_related("round__ruleset_version")):
        rnd = rev.round
        out[rnd.pk] = (rnd.gaming_day, rnd.table_id, rnd.sequence, rnd.session_id, rnd.dealer_id,
                       rnd.ruleset_version.rules().decks, rnd.status == Round.ACTIVE,
                       round_cards(rnd.game, rev.data), round_bets(rnd.game, rev.data))
    return out


def stored_lines() -> dict:
    return {line.round_id: (line.gaming_day, line.table_id, line.sequence, line.session_id, line.dealer_id,
                            line.decks, line.active, line_cards(line.cards), line_bets(line.bets))
            for line in CountLine.objects.all()}


@pytest.fixture
def floor():
    pitboss = user_with_role("pit_boss")
    tables = {}
    for game in ("ante_up_21", "poker_or_bust", "holdem_blackjack"):
        table, dealer = table_with_decks(6, game=game)
        table_session_open(table=table, dealer=dealer, author=pitboss)
        tables[game] = table
    return {"pitboss": pitboss, "tables": tables}


def _record(floor, game: str, data: dict):
    return round_record(table=floor["tables"][game], data=data, author=floor["pitboss"]).round


def test_lines_follow_recording_correction_and_void(floor):
    pitboss = floor["pitboss"]
    first = _record(floor, "ante_up_21", blackjack_round(["QH", "7C"], [
        ("P-1", "10.00", ["9S", "9D"]), ("P-1", "15.00", ["2S", "3D"]), (None, "10.00", ["TD", "4H"])]))
    second = _record(floor, "ante_up_21", blackjack_round(["5H", "6C"], [("P-2", "20.00", ["2C", "3C"])]))
    poker = _record(floor, "poker_or_bust", ROUNDS["poker_or_bust"]["correct"][0])
    _record(floor, "holdem_blackjack", ROUNDS["holdem_blackjack"]["correct"][0])  # not assessed: no line
    lines = stored_lines()
    assert lines == raw_lines()
    assert set(lines) == {first.pk, second.pk, poker.pk}
    # The dealer's cards, then each seat's; a player on two seats bets the sum; a seat without one none.
    assert lines[first.pk][7] == tuple(parse_card(c) for c in ("QH", "7C", "9S", "9D", "2S", "3D", "TD", "4H"))
    assert lines[first.pk][8] == (("P-1", Decimal("25.00")),)

    round_correct(round=first, revision=1, reason="cards misread", author=pitboss,
                  data=blackjack_round(["2H", "7C"], [("P-3", "40.00", ["9S", "9D"])]))
    lines = stored_lines()
    assert lines == raw_lines()
    assert lines[first.pk][8][0][0] == "P-3"

    round_void(round=second, reason="recorded at the wrong table", author=pitboss)
    lines = stored_lines()
    assert lines == raw_lines()
    assert lines[second.pk][6] is False and lines[first.pk][6] is True

    # A re-audit adds findings only: the cards and bets of a round stay, and so do its lines.
    rounds_reaudit(round_ids=[first.pk, poker.pk], full=True)
    assert stored_lines() == lines == raw_lines()


def test_the_rebuild_makes_the_lines_the_listener_made(floor):
    pitboss = floor["pitboss"]
    made = [_record(floor, "ante_up_21", _variant("ante_up_21", kind, ("P-1",)))
            for kind in ("correct", "overpay", "underpay")]
    made.append(_record(floor, "poker_or_bust", _variant("poker_or_bust", "underpay", ("P-2",))))
    round_correct(round=made[0], revision=1, reason="misread", author=pitboss,
                  data=_variant("ante_up_21", "overpay", ("P-3",)))
    round_void(round=made[1], reason="misdeal", author=pitboss)
    by_listener = stored_lines()
    assert len(by_listener) == 4
    CountLine.objects.filter(round_id=made[2].pk).update(cards=b"", bets="", active=False)  # damaged
    CountLine.objects.filter(round_id=made[3].pk).delete()  # lost
    CountLine.objects.create(round_id=made[3].pk + 1000, gaming_day=made[0].gaming_day, table=made[0].table,
                             sequence=999, session_id=made[0].session_id, dealer_id=made[0].dealer_id, decks=6,
                             cards=b"\x01", bets="")  # a stray line of no round
    assert stored_lines() != by_listener
    call_command("advantage_lines_rebuild", "--from", made[0].gaming_day.isoformat(),
                 "--to", made[0].gaming_day.isoformat(), verbosity=0)
    assert stored_lines() == by_listener == raw_lines()
    CountLine.objects.all().delete()
    call_command("advantage_lines_rebuild", verbosity=0)
    assert stored_lines() == by_listener


def test_the_rebuild_command_refuses_a_bad_date():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--from"):
        call_command("advantage_lines_rebuild", "--from", "2026-02-30")


def _variant(game: str, kind: str, players: tuple[str, ...]) -> dict:
    data = copy.deepcopy(ROUNDS[game][kind][0])
    for seat, player in zip(data["seats"], players, strict=False):
        if player:
            seat["player"] = player
        else:
            seat.pop("player", None)
    return data


GAMES = ("ante_up_21", "poker_or_bust", "holdem_blackjack")
KINDS = ("correct", "overpay", "underpay")
PLAYERS = st.tuples(st.sampled_from(["P-1", "P-2", ""]), st.sampled_from(["P-1", "P-3", ""]))
OPS = st.lists(st.one_of(
    st.tuples(st.just("record"), st.sampled_from(GAMES), st.sampled_from(KINDS), PLAYERS),
    st.tuples(st.just("correct"), st.integers(0, 20), st.sampled_from(KINDS), PLAYERS),
    st.tuples(st.just("void"), st.integers(0, 20)),
), min_size=1, max_size=10)


@settings(max_examples=examples(80, 8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_any_recording_correction_and_void_leaves_the_lines_equal_to_the_raw_revisions(floor, ops):
    with transaction.atomic():
        rounds: list = []
        for op in ops:
            try:
                with transaction.atomic():
                    match op:
                        case ("record", game, kind, players):
                            rounds.append(_record(floor, game, _variant(game, kind, players)))
                        case ("correct", n, kind, players) if rounds:
                            rnd = Round.objects.get(pk=rounds[n % len(rounds)].pk)
                            round_correct(round=rnd, revision=rnd.revision, data=_variant(rnd.game, kind, players),
                                          reason="a correction", author=floor["pitboss"])
                        case ("void", n) if rounds:
                            round_void(round=rounds[n % len(rounds)], reason="misdeal", author=floor["pitboss"])
            except ValidationError:
                pass  # a voided round corrected or voided again: refused, changes nothing
        assert stored_lines() == raw_lines()
        transaction.set_rollback(True)
