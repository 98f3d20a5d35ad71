"""Objects the permission matrix needs for the jackpot URLs that take a pk."""

from __future__ import annotations

from audit.jackpots.services import (
    jackpot_adjustment_request,
    jackpot_bank_create,
    jackpot_line_configure,
)
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.factories import DealerFactory, PitFactory, TableFactory, user_with_role
from tests.jackpots.helpers import GAME, hit_round, progressive_ruleset


def jackpot_matrix_objects() -> dict:
    manager = user_with_role("gaming_manager", username="matrix-gm")
    pitboss = user_with_role("pit_boss", username="matrix-pb")
    finance = user_with_role("finance", username="matrix-fin")
    pit = PitFactory()
    table = TableFactory(pit=pit, game=GAME, ruleset=progressive_ruleset(pit.casino))
    bank = jackpot_bank_create(
        casino=pit.casino, name="Matrix bank", author=manager, reason="matrix", tables=[table]
    )
    table_session_open(table=table, dealer=DealerFactory(casino=pit.casino), author=pitboss)
    jackpot_line_configure(
        bank=bank,
        line="bust5_unsuited",
        progressive=True,
        reset="40",
        increment_rate="0.3",
        author=manager,
        reason="matrix",
    )
    round_record(table=table, data=hit_round(), author=pitboss)
    adjustment = jackpot_adjustment_request(
        bank=bank,
        line="bust5_unsuited",
        amount="5.00",
        reason="malfunction_correction",
        note="matrix",
        author=finance,
    )
    award = bank.awards.get()
    return {
        "jackpot-bank": bank,
        "jackpot-award": award,
        "jackpot-adjustment": adjustment,
        "jackpots-award": award,
        "jackpots-adjustment": adjustment,
    }
