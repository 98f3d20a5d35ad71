"""What recording a round asks of the database: prepared statements, one bank lookup, the indexes it writes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.prepared import PREPARED
from tables.models import Round
from tables.services.rounds import round_correct, round_record
from tests.jackpots.helpers import DAY_START, hit_round, linked_bank
from tests.tables.rounds_data import ROUNDS
from tests.tables.test_rounds_api import open_table, pitboss  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements and these index names are PostgreSQL's")


@pytest.mark.postgres
def test_the_recorders_statements_are_prepared_and_no_others(pitboss):  # noqa: F811
    _postgres_only()
    table = open_table("ante_up_21", pitboss)
    data = ROUNDS["ante_up_21"]["correct"][0]
    for _ in range(6):
        round_record(table=table, data=data, author=pitboss)
        list(Round.objects.filter(table=table, gaming_day__isnull=False))
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    # The table's context (eight joined tables) and the round's INSERT: planned once per connection.
    assert any("FOR NO KEY UPDATE OF t" in s for s in prepared), prepared
    assert any('INSERT INTO "tables_round"' in s for s in prepared), prepared
    # An ORM query run as often is planned each time (its best plan may depend on its values).
    assert all(s.startswith(PREPARED) for s in prepared), prepared


def _bank_lookups(queries) -> list[str]:
    return [q["sql"] for q in queries if 'FROM "jackpots_jackpotbanktable"' in q["sql"]]


def test_recording_or_correcting_at_a_banked_table_looks_the_bank_up_once():
    _, tables, _, boss = linked_bank(1)
    at = DAY_START.replace(hour=9)
    with CaptureQueriesContext(connection) as queries:
        audited = round_record(table=tables[0], data=hit_round(), author=boss, at=at)
    assert len(_bank_lookups(queries)) == 1, _bank_lookups(queries)
    with CaptureQueriesContext(connection) as queries:
        round_correct(round=audited.round, revision=1, data=hit_round(player=("9H", "KC")), reason="wrong card",
                      author=boss, at=at.replace(minute=5))
    assert len(_bank_lookups(queries)) == 1, _bank_lookups(queries)


# Every index below costs each recorded round a write; the unique constraints serve the
# foreign keys they start with. Adding one is a decision: make it here too.
HOT_TABLE_INDEXES = {
    "tables_round": {"tables_round_pkey", "round_unique_sequence", "tables_roun_gaming__f3f5f1_idx",
                     "tables_round_session_id_98e189d5", "tables_round_ruleset_version_id_df860b14",
                     "tables_round_recorded_by_id_c6c0c58c",
                     "tables_round_recorded_at_0782a9a4", "tables_round_voided_by_id_0faa0b4b",
                     # The day's lists (tests/history/test_day_list_plans.py): each finding's round
                     # reached from the index alone, and the rounds of a day in recording order.
                     "round_scope_probe", "round_day_recorded",
                     # A dealer's rounds newest first (the dealer page), in place of the dealer's own.
                     "round_dealer_recorded"},
    "tables_historicalround": {"tables_historicalround_pkey", "tables_historicalround_id_a0346f38",
                               "tables_historicalround_history_date_14f6a8dc",
                               "tables_historicalround_history_user_id_3d007e81"},
    "tables_roundrevision": {"tables_roundrevision_pkey", "roundrevision_unique_number",
                             "tables_roundrevision_author_id_75b38ac5"},
    "tables_wager": {"tables_wager_pkey", "tables_wage_round_i_9dc764_idx", "tables_wager_revision_id_32c05cec",
                     "tables_wager_player_c5434497"},
    "audit_finding": {"audit_finding_pkey", "audit_finding_round_id_cd40ebd6", "audit_finding_revision_id_7d7b7330",
                      "audit_findi_status_172398_idx", "audit_finding_code_8bc9650c",
                      "audit_finding_reviewed_by_id_83ebd388",
                      # The desk's (newest or largest first) and the findings API's page of a
                      # day, in order from its index.
                      "finding_day_newest", "finding_day_largest", "finding_day_id"},
    "tables_idempotencykey": {"tables_idempotencykey_pkey", "idempotencykey_unique_per_user"},
    # A round extends or starts its players' rating sessions (audit/ratings/writer.py): the day's
    # look-up by table and player, and one player's days.
    "ratings_session": {"ratings_session_pkey", "ratings_session_day", "ratings_session_player"},
    # A round of the assessed games writes its count line (audit/advantage/lines.py).
    "advantage_countline": {"advantage_countline_pkey", "advantage_line_day_table_seq"},
    # And counts the change of its table's day (the stored advantage results compare with it): the
    # first round of a table's day inserts the row, every later one updates it in place (no
    # indexed column changes, so no index is written).
    "advantage_daychange": {"advantage_daychange_pkey", "advantage_daychange_day_table"},
}


@pytest.mark.postgres
@pytest.mark.parametrize("table", sorted(HOT_TABLE_INDEXES))
def test_the_tables_a_round_writes_carry_only_the_indexes_they_need(table):
    _postgres_only()
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = %s", [table])
        assert {row[0] for row in cursor.fetchall()} == HOT_TABLE_INDEXES[table]
