"""The play signals end to end: rounds recorded through round_record, priced by audit/decisions,
counted and stored with the day, read on the page and through the API."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.advantage.results import CURRENT, day_answer
from audit.decisions.pricing import price_all_pending
from tables.services.rounds import round_record
from tables.services.sessions import table_session_open
from tests.advantage.helpers import blackjack_round, table_with_decks
from tests.conftest import api_as
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db
API = "/api/v1/advantage-play/"
PAGE = reverse("desk-advantage")
#: Stiff hole cards under a ten: standing on ten-six beats the upcard-best hit against each.
SMALL = ["2H", "3C", "4D", "5S", "6H"]


@pytest.fixture
def day():
    """16 rounds against a ten up: P-HOLE stands on ten-six (the upcard-best is the hit) each time
    the hole card is small, P-PLAIN stands on twenty."""
    pitboss = user_with_role("pit_boss")
    table, dealer = table_with_decks(6)
    table_session_open(table=table, dealer=dealer, author=pitboss)
    rounds = []
    for i in range(16):
        hole = SMALL[i % len(SMALL)]
        rounds.append(round_record(table=table, data=blackjack_round(["KS", hole], [
            ("P-HOLE", "10.00", ["TD", "6C"]), ("P-PLAIN", "10.00", ["QH", "JD"])]), author=pitboss).round)
    return table, rounds


def test_a_hole_card_player_is_flagged_on_the_page_and_in_the_api_once_the_rounds_are_priced(day):
    table, rounds = day
    casino_id = table.pit.casino_id
    before = day_answer(rounds[0].gaming_day, casino_id=casino_id)
    assert before.unpriced == 16, "counted before pricing: the rounds are said to be still priced"
    hole_row = before.rows(0, 10, player="P-HOLE")[0]
    assert hole_row.plays.hole.deviations == 0
    assert price_all_pending() == 16
    answer = day_answer(rounds[0].gaming_day, casino_id=casino_id)  # stale once priced: counted again
    assert answer.status == CURRENT and answer.unpriced == 0
    hole = answer.rows(0, 10, player="P-HOLE")[0].plays.hole
    assert (hole.deviations, hole.observed, hole.rounds) == (16, 16, 16)
    assert hole.signal == "flag" and hole.p_value <= 1e-4 and 0 < hole.expected < 16
    assert answer.rows(0, 10)[0].player == "P-HOLE", "a flag of a play signal comes first"

    stored = day_answer(rounds[0].gaming_day, casino_id=casino_id)
    assert stored._result is not None and stored.unpriced == 0, "now read from the stored result"
    plain = stored.rows(0, 10, player="P-PLAIN")[0]
    assert plain.plays.hole.signal == "none" and plain.plays.count.deviations == 0

    client = api_as(user_with_role("surveillance"))
    body = client.get(API, {"gaming_day": rounds[0].gaming_day.isoformat()}).json()
    row = next(r for r in body["rows"] if r["player"] == "P-HOLE")
    assert row["hole_card"]["signal"] == "flag" and row["hole_card"]["observed"] == 16
    assert row["hole_card"]["signal_words"] == "Flag: deviations win against the hole card"
    assert len(row["deviations"]) == 16 and row["deviations"][0]["action"] == "stand"
    assert row["deviations"][0]["best"] == "hit" and row["deviations"][0]["beats"] is True
    assert body["unpriced"] == 0 and body["thresholds"]["play_min_deviations"] == 10

    page = client.get(PAGE, {"gaming_day": rounds[0].gaming_day.isoformat()}).content.decode()
    assert "Flag: deviations win against the hole card" in page
    assert "16 of 16 deviations beat the best given the hole card" in page
    assert "Best against the upcard" in page and "<td>Stand</td><td>Hit</td>" in page


def test_the_page_shows_each_players_play_quality_for_the_day(day):
    """The decisions' cost per unit of the priced handle (audit/decisions), from the stored rows."""
    from decimal import Decimal

    from audit.decisions.figures import play_quality, play_quality_text
    from audit.decisions.models import SeatDecisions

    table, rounds = day
    price_all_pending()
    rows = SeatDecisions.objects.filter(player="P-HOLE")
    cost, handle = sum((r.cost for r in rows), Decimal(0)), sum((r.handle for r in rows), Decimal(0))
    assert handle == Decimal("160.00") and cost > 0
    client = api_as(user_with_role("surveillance"))
    page = client.get(PAGE, {"gaming_day": rounds[0].gaming_day.isoformat()}).content.decode()
    cells = page.split('class="play-quality">')[1:]
    shown = {cell.split("</td>")[0] for cell in cells}
    assert play_quality_text(play_quality(cost, handle)) in shown
    assert "0.00% of the priced handle" in shown  # P-PLAIN stood on twenty every time


def test_a_player_who_folds_on_the_hole_card_is_flagged_on_the_page_and_in_the_api():
    """Ante Up 21's fold decision end to end: 9-9 against a Queen is a bet by the upcard, and
    P-FOLD folds it each time the hole card is the other Queen (the dealer's pair beats his)."""
    pitboss = user_with_role("pit_boss")
    table, dealer = table_with_decks(6, game="ante_up_21")
    table_session_open(table=table, dealer=dealer, author=pitboss)
    rounds = []
    for _ in range(12):
        data = {"dealer": {"cards": ["QD", "QC"]}, "seats": [{
            "seat": 1, "player": "P-FOLD", "wagers": {"21": "10.00", "ante": "10.00"},
            "hands": [{"cards": ["9S", "9H"], "actions": ["stand"]}]}]}
        rounds.append(round_record(table=table, data=data, author=pitboss).round)
    assert price_all_pending() == 12
    answer = day_answer(rounds[0].gaming_day, casino_id=table.pit.casino_id)
    hole = answer.rows(0, 10, player="P-FOLD")[0].plays.hole
    assert (hole.deviations, hole.observed, hole.rounds) == (12, 12, 12)
    assert hole.signal == "flag" and hole.expected == pytest.approx(12 * 23 / 309, abs=1e-9)

    client = api_as(user_with_role("surveillance"))
    body = client.get(API, {"gaming_day": rounds[0].gaming_day.isoformat()}).json()
    row = next(r for r in body["rows"] if r["player"] == "P-FOLD")
    assert row["hole_card"]["signal"] == "flag"
    assert {(d["action"], d["best"], d["beats"]) for d in row["deviations"]} == {("fold", "bet", True)}
    page = client.get(PAGE, {"gaming_day": rounds[0].gaming_day.isoformat()}).content.decode()
    assert "<td>Fold</td><td>Bet</td>" in page
