"""The stored advantage-play day (audit/advantage/results.py): equal to a fresh count, never served
stale as current, a large day answered from the last result with its time while the worker
recounts it (a broker that is down included), and the task, the rebuild and the report's hook."""

from __future__ import annotations

import re
from datetime import date
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from audit.advantage.lines import lines_recompute
from audit.advantage.models import DayChange, DayResult, DayResultPlayer
from audit.advantage.results import COUNTING, CURRENT, STALE, day_answer, day_results_compute
from audit.advantage.selectors import advantage_day
from audit.advantage.tasks import count_after_report, day_count
from casino.models import OutboxTask
from tables.services.rounds import round_correct, round_record, round_void
from tables.services.sessions import table_session_open
from tests.advantage.helpers import blackjack_round, dealt_day, table_with_decks
from tests.conftest import api_as
from tests.factories import CasinoFactory, user_with_role
from tests.own_redis import broker_at

pytestmark = pytest.mark.django_db
API = "/api/v1/advantage-play/"
PAGE = reverse("desk-advantage")


@pytest.fixture
def floor():
    """Two tables of one casino: 32 rounds dealt to a counter, a flat and a random bettor at the
    first, 12 at the second with the counter moving over; one round corrected, one voided."""
    pitboss = user_with_role("pit_boss")
    first, dealer = table_with_decks(6)
    casino = first.pit.casino
    second, other_dealer = table_with_decks(8, pit=first.pit)
    for table, d in ((first, dealer), (second, other_dealer)):
        table_session_open(table=table, dealer=d, author=pitboss)
    made = [round_record(table=first, data=d, author=pitboss).round for d in dealt_day(32, seed=7)]
    made += [round_record(table=second, data=d, author=pitboss).round for d in dealt_day(12, seed=5, decks=8)]
    round_correct(round=made[4], revision=1, reason="cards misread", author=pitboss,
                  data=blackjack_round(["2H", "7C"], [("P-COUNTER", "40.00", ["9S", "9D"])]))
    round_void(round=made[9], reason="misdeal", author=pitboss)
    return SimpleNamespace(casino=casino, tables=(first, second), pitboss=pitboss, rounds=made,
                           day=made[0].gaming_day)


def _stored(answer) -> list:
    return [(r.player, r.n, r.correlation, r.min_bet, r.max_bet, r.spread, r.mean_bet_low, r.mean_bet_high,
             r.signal, r.signal_words, answer.rows(0, 1, player=r.player)[0].pairs)
            for r in answer.rows(0, 10_000)]


def _fresh(day) -> list:
    return [(r.player, r.n, r.correlation, r.min_bet, r.max_bet, r.spread, r.mean_bet_low, r.mean_bet_high,
             r.signal, r.signal_words, r.pairs) for r in day.rows]


def test_the_stored_result_equals_a_fresh_count_for_all_tables_and_each_after_corrections_and_voids(floor):
    assert day_results_compute(casino_id=floor.casino.pk, gaming_day=floor.day) == 3
    for table_id in (None, *(t.pk for t in floor.tables)):
        answer = day_answer(floor.day, casino_id=floor.casino.pk, table_id=table_id)
        assert answer.status == CURRENT and answer._result is not None, "read from the stored result"
        fresh = advantage_day(floor.day, casinos={floor.casino.pk}, table_id=table_id)
        assert (answer.rounds, answer.shoes, answer.players) == (fresh.rounds, fresh.shoes, len(fresh.rows))
        assert _stored(answer) == _fresh(fresh)
    whole = day_answer(floor.day, casino_id=floor.casino.pk)
    first = day_answer(floor.day, casino_id=floor.casino.pk, table_id=floor.tables[0].pk)
    assert whole.rounds == 43 and {r.signal for r in first.rows(0, 100)} >= {"flag", "flat_bet"}
    counter = whole.rows(0, 100, player="P-COUNTER")[0]
    assert {p.table_label for p in counter.pairs} == {t.label for t in floor.tables}
    assert floor.rounds[9].pk not in {p.round_id for p in counter.pairs}, "a voided round is left out"


def test_each_change_of_a_day_moves_its_table_counter_and_the_stored_result_is_stale_after_it(floor):
    first, second = floor.tables

    def changes(table):
        return DayChange.objects.get(gaming_day=floor.day, table=table).changes

    assert (changes(first), changes(second)) == (34, 12)  # 32 lines, a correction and a void
    assert DayChange.objects.get(gaming_day=floor.day, table=first).lines == 32
    day_results_compute(casino_id=floor.casino.pk, gaming_day=floor.day)
    more = round_record(table=second, data=dealt_day(1, seed=9, decks=8)[0], author=floor.pitboss).round
    assert changes(second) == 13
    with override_settings(ADVANTAGE_INLINE_LINES=0):
        assert day_answer(floor.day, casino_id=floor.casino.pk).status == STALE
        assert day_answer(floor.day, casino_id=floor.casino.pk, table_id=second.pk).status == STALE
        # The other table did not change: its result is still the day as it stands.
        assert day_answer(floor.day, casino_id=floor.casino.pk, table_id=first.pk).status == CURRENT
    for change in (lambda: round_correct(round=more, revision=1, reason="misread", author=floor.pitboss,
                                         data=blackjack_round(["2H", "7C"], [("P-NEW", "15.00", ["9S", "9D"])])),
                   lambda: round_void(round=more, reason="misdeal", author=floor.pitboss),
                   lambda: lines_recompute(floor.day, [second.pk])):
        day_results_compute(casino_id=floor.casino.pk, gaming_day=floor.day)
        with override_settings(ADVANTAGE_INLINE_LINES=0):
            assert day_answer(floor.day, casino_id=floor.casino.pk, table_id=second.pk).status == CURRENT
            change()
            assert day_answer(floor.day, casino_id=floor.casino.pk, table_id=second.pk).status == STALE
    # Thresholds changed in the settings make a stored result stale too.
    day_results_compute(casino_id=floor.casino.pk, gaming_day=floor.day)
    with override_settings(ADVANTAGE_INLINE_LINES=0, ADVANTAGE_FLAG_LOWER_BOUND=0.5):
        assert day_answer(floor.day, casino_id=floor.casino.pk).status == STALE


def test_a_small_day_not_counted_yet_is_counted_in_the_request_and_stored(floor):
    assert not DayResult.objects.exists()
    answer = day_answer(floor.day, casino_id=floor.casino.pk)
    assert answer.status == CURRENT and answer._day is not None
    stored = DayResult.objects.get(casino=floor.casino, gaming_day=floor.day, table=None)
    assert stored.rounds == 43 and stored.players == answer.players
    again = day_answer(floor.day, casino_id=floor.casino.pk)
    assert again._result is not None and _stored(again) == _fresh(answer._day)
    assert not OutboxTask.objects.exists(), "a small day queues no recount"


def test_the_page_and_api_answer_a_large_day_from_the_stored_result_with_its_time_and_queue_a_recount(
        floor, client, django_capture_on_commit_callbacks):
    client.force_login(user_with_role("surveillance", casinos=[floor.casino]))
    api = api_as(user_with_role("gaming_manager", "gm", casinos=[floor.casino]))
    day = floor.day.isoformat()
    with override_settings(ADVANTAGE_INLINE_LINES=10), django_capture_on_commit_callbacks() as sent:
        counting = client.get(PAGE, {"gaming_day": day})
        assert counting.status_code == 200
        page = counting.content.decode()
        assert "has 44 count lines: too many to count while you wait" in page and "P-COUNTER" not in page
        assert OutboxTask.objects.get().task == "advantage.day_count"
        body = api.get(API, {"gaming_day": day}).json()
        assert (body["status"], body["rounds"], body["rows"], body["lines"]) == (COUNTING, None, [], 44)
        assert OutboxTask.objects.count() == 1, "a recount already queued is not queued again"

        day_count(floor.casino.pk, day)  # what the worker runs
        current = client.get(PAGE, {"gaming_day": day}).content.decode()
        assert "P-COUNTER" in current and "Counted as of" not in current
        assert api.get(API, {"gaming_day": day}).json()["status"] == CURRENT

        round_record(table=floor.tables[0], data=dealt_day(1, seed=11)[0], author=floor.pitboss)
        stale = client.get(PAGE, {"gaming_day": day}).content.decode()
        assert "Counted as of" in stale and "is being recounted" in stale and "P-COUNTER" in stale
        assert "43 rounds" in stale, "the last counted figures, not the day's 44th round"
        body = api.get(API, {"gaming_day": day, "table": floor.tables[0].pk}).json()
        assert body["status"] == STALE and body["as_of"] and body["rows"]
        assert OutboxTask.objects.count() == 3, "the all-tables and the table's reads each queued one"
    assert len(sent) == 3, "each recount is sent to the broker once its read commits"


def test_with_the_broker_down_the_large_day_still_answers_and_its_recount_waits_in_the_outbox(
        floor, client, django_capture_on_commit_callbacks):
    day_results_compute(casino_id=floor.casino.pk, gaming_day=floor.day)
    round_record(table=floor.tables[0], data=dealt_day(1, seed=11)[0], author=floor.pitboss)
    client.force_login(user_with_role("surveillance", casinos=[floor.casino]))
    api = api_as(user_with_role("gaming_manager", "gm", casinos=[floor.casino]))
    # Nothing listens on port 1: the broker is down.
    with override_settings(ADVANTAGE_INLINE_LINES=10), broker_at("redis://127.0.0.1:1/0"), \
            django_capture_on_commit_callbacks(execute=True):
        response = client.get(PAGE, {"gaming_day": floor.day.isoformat()})
        assert response.status_code == 200 and "Counted as of" in response.content.decode()
        body = api.get(API, {"gaming_day": floor.day.isoformat(), "table": floor.tables[0].pk})
        assert body.status_code == 200 and body.json()["status"] == STALE
    waiting = OutboxTask.objects.order_by("pk")
    assert [(w.task, w.attempts) for w in waiting] == [("advantage.day_count", 1)] * 2
    assert "OperationalError" in waiting[0].last_error


def test_another_casinos_reader_sees_nothing_of_the_stored_result(floor, client):
    day_count(floor.casino.pk, floor.day.isoformat())
    elsewhere = user_with_role("surveillance", "elsewhere", casinos=[CasinoFactory(name="Elsewhere")])
    body = api_as(elsewhere).get(API, {"gaming_day": floor.day.isoformat()}).json()
    assert body["rows"] == [] and body["rounds"] == 0 and body["count"] == 0
    assert api_as(elsewhere).get(API, {"gaming_day": floor.day.isoformat(),
                                       "table": floor.tables[0].pk}).status_code == 400
    client.force_login(elsewhere)
    assert "P-COUNTER" not in client.get(PAGE, {"gaming_day": floor.day.isoformat()}).content.decode()
    client.force_login(user_with_role("pit_boss", "pb", casinos=[floor.casino]))
    assert client.get(PAGE, {"gaming_day": floor.day.isoformat()}).status_code == 403


def test_the_task_stores_every_key_and_the_rebuild_command_recounts_the_days(floor):
    assert day_count(floor.casino.pk, floor.day.isoformat()) == 3
    assert set(DayResult.objects.values_list("table_id", flat=True)) == {None, *(t.pk for t in floor.tables)}
    assert DayResultPlayer.objects.filter(result__table=None).count() == 3
    before = DayResult.objects.get(table=None).computed_at
    call_command("advantage_results_rebuild", "--from", floor.day.isoformat(), verbosity=0)
    assert DayResult.objects.get(table=None).computed_at > before
    assert day_count(floor.casino.pk + 1000, floor.day.isoformat()) == 0, "an unknown casino stores nothing"


def test_each_report_of_a_day_with_count_lines_queues_its_recount(floor):
    count_after_report(report=SimpleNamespace(casino_id=floor.casino.pk, gaming_day=floor.day))
    assert list(OutboxTask.objects.values_list("task", "args")) == [
        ("advantage.day_count", [floor.casino.pk, floor.day.isoformat()])]
    count_after_report(report=SimpleNamespace(casino_id=floor.casino.pk, gaming_day=date(2001, 1, 1)))
    assert OutboxTask.objects.count() == 1, "a day without count lines has nothing to count"


def test_the_api_writes_the_same_answer_from_the_stored_result_as_from_a_count_in_the_request(floor):
    api = api_as(user_with_role("surveillance", casinos=[floor.casino]))
    for query in ({}, {"table": floor.tables[0].pk}, {"limit": 2, "offset": 1}):
        DayResult.objects.all().delete()
        counted = api.get(API, {"gaming_day": floor.day.isoformat(), **query})
        stored = api.get(API, {"gaming_day": floor.day.isoformat(), **query})
        assert DayResult.objects.exists()
        assert counted["Content-Type"] == stored["Content-Type"] == "application/json"
        counted, stored = counted.json(), stored.json()
        assert counted.pop("as_of") == stored.pop("as_of")
        assert counted == stored and counted["rows"] and counted["rows"][0]["pairs"]
    # An indented answer is DRF's own renderer with the made pairs read back: the same figures.
    plain = api.get(API, {"gaming_day": floor.day.isoformat()})
    indented = api.get(API, {"gaming_day": floor.day.isoformat()}, HTTP_ACCEPT="application/json; indent=2")
    assert b'\n  "count"' in indented.content and indented.json() == plain.json()


def _page(response) -> str:
    """The page without its CSRF token (a new one each request)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())


def test_the_page_is_the_same_from_the_stored_result_as_from_a_count_in_the_request(floor, client):
    client.force_login(user_with_role("surveillance", casinos=[floor.casino]))
    for query in ({}, {"table": floor.tables[0].pk}, {"player": "P-COUNTER"}, {"player": "P-FLAT"}):
        DayResult.objects.all().delete()
        counted = _page(client.get(PAGE, {"gaming_day": floor.day.isoformat(), **query}))
        assert DayResult.objects.exists()
        stored = _page(client.get(PAGE, {"gaming_day": floor.day.isoformat(), **query}))
        assert counted == stored and query.get("player", "P-COUNTER") in stored and "Counted as of" not in stored
    assert '<table class="data pairs">' in stored  # the player's rounds
    flagged = DayResultPlayer.objects.filter(result__table=None, signal="flag").first()
    assert '<table class="data pairs">' in flagged.pairs_html, "a flagged row's rounds are made when counted"
    assert not DayResultPlayer.objects.filter(result__table=None, signal="flat_bet").exclude(pairs_html="").exists()
