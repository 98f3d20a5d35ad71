"""Bad input gets a field error as JSON, never a 500, and nothing is half-saved.

One test per cause found in issue #14 part 6 (each failed before its fix): amounts no
column can hold, text the database cannot store, bodies too deep or too large, page sizes
and offsets out of range, over-long Idempotency-Keys, and bare lists where the schema
promises a page.
"""

from __future__ import annotations

import copy
import json
from decimal import Decimal

import pytest
from django.urls import reverse

from tables.models import Finding, IdempotencyKey, Round, Table, Wager
from tables.services.sessions import table_session_open
from tests.conftest import api_as
from tests.factories import DealerFactory, PitFactory, RulesetFactory, TableFactory, user_with_role
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db

CORRECT = ROUNDS["ante_up_21"]["correct"][0]


@pytest.fixture
def pitboss(db):
    return user_with_role("pit_boss")


@pytest.fixture
def table(pitboss) -> Table:
    pit = PitFactory()
    table = TableFactory(pit=pit, game="ante_up_21", ruleset=RulesetFactory(game="ante_up_21", casino=pit.casino),
                         min_bet=Decimal("10.00"), max_bet=Decimal("100000.00"))
    table_session_open(table=table, dealer=DealerFactory(casino=pit.casino), author=pitboss)
    return table


def _round(**seat_changes) -> dict:
    data = copy.deepcopy(CORRECT)
    data["seats"][0].update(seat_changes)
    return data


def _json(body) -> bytes:
    """JSON as a client sends it, \\u escapes for what UTF-8 cannot carry (a lone surrogate)."""
    return json.dumps(body, ensure_ascii=True).encode()


def _post_round(client, table, data, pays=None, **headers):
    body = {"table": table.pk, "round": data, **({"pays": pays} if pays else {})}
    return client.post(reverse("round-list"), _json(body), content_type="application/json", headers=headers)


def _refused(response, field: str) -> list[str]:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert field in body, body
    return body[field]


def _nothing_stored():
    assert not Round.objects.exists() and not Wager.objects.exists() and not IdempotencyKey.objects.exists()


# --- money ----------------------------------------------------------------------------------


@pytest.mark.parametrize("amount", ["1e30", "9" * 40, "1e3", "NaN", "Infinity", "-inf", "sNaN", "10.5e1"])
def test_round_amounts_no_column_can_hold_or_in_exponent_form_are_refused(pitboss, table, amount):
    data = _round(wagers={"21": amount, "ante": "10.00", "bet": "10.00"})
    response = _post_round(api_as(pitboss), table, data, **{"Idempotency-Key": "k-1"})
    _refused(response, "round.seats[0].wagers.21")
    _nothing_stored()


def test_a_thirteen_digit_pay_is_refused_not_a_database_error(pitboss, table):
    data = _round(paid=[{"wager": "21", "hand": 0, "net": "1234567890123.00"}])
    _refused(_post_round(api_as(pitboss), table, data), "round.seats[0].paid[0].net")
    _nothing_stored()


def test_a_wager_no_table_could_take_is_refused(pitboss, table):
    """999,999,999,999.00 fits the books' columns but is above any table's maximum."""
    data = _round(wagers={"21": "999999999999.00", "ante": "10.00", "bet": "10.00"}, paid=[])
    messages = _refused(_post_round(api_as(pitboss), table, data), "round.seats[0].wagers.21")
    assert "9,999,999,999.99" in messages[0]
    _nothing_stored()


def test_a_wager_above_the_tables_maximum_is_stored_and_flagged(pitboss, table):
    data = _round(wagers={"21": "150000.00", "ante": "10.00", "bet": "10.00"}, paid=[])
    response = _post_round(api_as(pitboss), table, data, pays="attested")
    assert response.status_code == 201, response.json()
    codes = {f["code"]: f for f in response.json()["findings"]}
    finding = codes["WAGER_ABOVE_TABLE_MAX"]
    assert finding["expected"] == "100000.00" and finding["recorded"] == "150000.00"
    assert finding["amount"] == "50000.00" and finding["path"] == "seats[0].wagers.21"
    assert Wager.objects.get(wager="21").stake == Decimal("150000.00")  # stored as recorded


def test_a_main_wager_below_the_tables_minimum_is_flagged_side_bets_are_not(pitboss, table):
    data = _round(wagers={"21": "5.00", "ante": "5.00", "bet": "5.00", "poker_bonus": "1.00"}, paid=[])
    response = _post_round(api_as(pitboss), table, data, pays="attested")
    assert response.status_code == 201, response.json()
    below = [f for f in response.json()["findings"] if f["code"] == "WAGER_BELOW_TABLE_MIN"]
    assert [f["path"] for f in below] == ["seats[0].wagers.21"]
    assert below[0]["expected"] == "10.00" and below[0]["recorded"] == "5.00"


@pytest.mark.parametrize(("field", "value"), [("min_bet", "1e30"), ("min_bet", "1e3"), ("max_bet", "9" * 40),
                                              ("max_bet", "12345678901.00"), ("min_bet", "NaN"),
                                              ("max_bet", "10.001")])
def test_floor_amounts_use_the_same_money_rule(manager, table, field, value):
    url = reverse("table-detail", args=[table.pk])
    _refused(api_as(manager).patch(url, {field: value, "reason": "limits"}, format="json"), field)


def test_jackpot_amounts_use_the_same_money_rule(manager):
    from audit.jackpots.models import JackpotBank
    from tests.factories import CasinoFactory

    bank = JackpotBank.objects.create(casino=CasinoFactory(), name="Bank")
    url = reverse("jackpot-bank-configure", args=[bank.pk])
    response = api_as(manager).post(url, {"line": "bust5_unsuited", "progressive": True, "reset": "1e3",
                                          "reason": "x"}, format="json")
    _refused(response, "reset")


# --- text -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("player", "words"), [("P\x00-7", "NUL"), ("P-\ud800", "surrogate"),
                                               ("P-\x07", "control"), ("P" * 5000, "40")])
def test_player_ids_the_database_cannot_store_are_refused(pitboss, table, player, words):
    messages = _refused(_post_round(api_as(pitboss), table, _round(player=player)), "round.seats[0].player")
    assert words in messages[0]
    _nothing_stored()


@pytest.mark.parametrize("reason", ["misdeal\x00", "misdeal\x1b[31m", "misdeal \ud83d"])
def test_control_characters_in_a_reason_are_refused(pitboss, table, reason):
    rnd = _post_round(api_as(pitboss), table, CORRECT).json()
    response = api_as(pitboss).post(reverse("round-void", args=[rnd["id"]]), _json({"reason": reason}),
                                    content_type="application/json")
    _refused(response, "reason")
    assert Round.objects.get().status == Round.ACTIVE


def test_line_breaks_and_tabs_in_a_note_are_kept(pitboss, table):
    rnd = _post_round(api_as(pitboss), table, CORRECT).json()
    response = api_as(pitboss).post(reverse("round-void", args=[rnd["id"]]), {"reason": "mis\tdeal\r\nseat 3"},
                                    format="json")
    assert response.status_code == 200, response.json()


def test_nul_in_a_query_parameter_is_a_field_error(manager):
    response = api_as(manager).get(reverse("finding-list"), {"code": "PAY\x00"})
    _refused(response, "code")


# --- bodies ---------------------------------------------------------------------------------


def test_deeply_nested_json_is_refused(pitboss, table):
    body = b'{"table": 1, "round": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    response = api_as(pitboss).post(reverse("round-list"), body, content_type="application/json")
    assert response.status_code == 400 and "nested" in response.json()["detail"]
    _nothing_stored()


def test_a_body_over_the_limit_is_413_json(pitboss, table, settings):
    body = b'{"table": 1, "round": {"x": "' + b"a" * (3 * 1024 * 1024) + b'"}}'
    response = api_as(pitboss).post(reverse("round-list"), body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json") and "bytes" in response.json()["detail"]
    _nothing_stored()


def test_invalid_json_is_a_400_naming_where(pitboss, table):
    response = api_as(pitboss).post(reverse("round-list"), b'{"table": 1,', content_type="application/json")
    assert response.status_code == 400 and "JSON" in response.json()["detail"]


def test_the_tablet_save_uses_the_same_body_rules(pitboss, table):
    url = reverse("tablet-round-save", args=[table.pk])
    deep = b'{"round": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    assert api_as(pitboss).post(url, deep, content_type="application/json").status_code == 400
    nul = api_as(pitboss).post(url, {"round": _round(player="P\x00")}, format="json")
    assert nul.status_code == 400 and "round.seats[0].player" in nul.json()["errors"]
    _nothing_stored()


# --- headers --------------------------------------------------------------------------------


def test_an_idempotency_key_over_200_characters_is_a_header_error(pitboss, table):
    response = _post_round(api_as(pitboss), table, CORRECT, **{"Idempotency-Key": "k" * 201})
    messages = _refused(response, "Idempotency-Key")
    assert "200" in messages[0]
    _nothing_stored()
    ok = _post_round(api_as(pitboss), table, CORRECT, **{"Idempotency-Key": "k" * 200})
    assert ok.status_code == 201


# --- pages of lists -------------------------------------------------------------------------


@pytest.mark.parametrize("limit", [str(10**32), "-1", "0", "ten", "1000000"])
def test_a_bad_page_size_is_a_field_error(manager, limit):
    for name in ("casino-list", "table-list", "round-list", "finding-list", "jackpot-award-list"):
        _refused(api_as(manager).get(reverse(name), {"limit": limit}), "limit")


@pytest.mark.parametrize("offset", [str(10**32), "-1", "x"])
def test_a_bad_offset_is_a_field_error(manager, offset):
    _refused(api_as(manager).get(reverse("round-list"), {"offset": offset}), "offset")


def test_page_sizes_up_to_the_cap_are_served(manager):
    response = api_as(manager).get(reverse("table-list"), {"limit": "200", "offset": "0"})
    assert response.status_code == 200 and "results" in response.json()


def test_history_versions_revisions_configs_and_ledger_are_pages(manager, pitboss, table):
    from audit.jackpots.models import JackpotBank
    from tests.factories import CasinoFactory

    rnd = _post_round(api_as(pitboss), table, CORRECT).json()
    bank = JackpotBank.objects.create(casino=CasinoFactory(), name="Bank")
    for url in (reverse("table-history", args=[table.pk]), reverse("ruleset-versions", args=[table.ruleset_id]),
                reverse("round-revisions", args=[rnd["id"]]), reverse("jackpot-bank-configs", args=[bank.pk]),
                reverse("jackpot-bank-ledger", args=[bank.pk])):
        body = api_as(manager).get(url, {"limit": "1"}).json()
        assert set(body) == {"count", "next", "previous", "results"}, (url, body)
        assert len(body["results"]) <= 1


# --- JSON error pages under /api/ -----------------------------------------------------------


def test_unknown_api_url_is_json_404(manager):
    response = api_as(manager).get("/api/v1/no-such-thing/")
    assert response.status_code == 404 and response.json() == {"detail": "Not found."}


def test_findings_of_rounds_are_never_half_saved(pitboss, table):
    """A refused correction leaves the round's findings and revisions as they were."""
    rnd = _post_round(api_as(pitboss), table, ROUNDS["ante_up_21"]["underpay"][0]).json()
    data = copy.deepcopy(ROUNDS["ante_up_21"]["underpay"][0])
    data["seats"][0]["player"] = "P" * 41
    response = api_as(pitboss).post(reverse("round-corrections", args=[rnd["id"]]),
                                    {"revision": 1, "reason": "fix", "round": data}, format="json")
    _refused(response, "round.seats[0].player")
    assert Finding.objects.filter(status=Finding.OPEN).count() == 1
    assert Round.objects.get().revision == 1


def test_a_long_reason_or_review_note_is_kept_whole_in_the_history(pitboss, table, manager):
    """History rows held 100 characters of a reason: a 500-character reason was a 500."""
    rnd = _post_round(api_as(pitboss), table, ROUNDS["ante_up_21"]["underpay"][0]).json()
    surveillance = user_with_role("surveillance")
    note = "Checked the overhead camera; " * 60  # 1,740 characters, within the note's 2,000
    finding = rnd["findings"][0]["id"]
    response = api_as(surveillance).post(reverse("finding-review", args=[finding]),
                                         {"decision": "confirm", "note": note}, format="json")
    assert response.status_code == 200, response.content[:300]
    assert Finding.objects.get(pk=finding).history.latest().history_change_reason.endswith(note.strip())
    reason = "r" * 500
    response = api_as(pitboss).post(reverse("round-void", args=[rnd["id"]]), {"reason": reason}, format="json")
    assert response.status_code == 200, response.content[:300]
    assert Round.objects.get().history.latest().history_change_reason == f"voided: {reason}"
    response = api_as(manager).patch(reverse("table-detail", args=[table.pk]), {"seats": 6, "reason": reason},
                                     format="json")
    assert response.status_code == 200 and table.history.latest().history_change_reason == reason


def test_a_correction_is_judged_by_the_limits_the_round_was_played_under(pitboss, table, manager):
    data = _round(wagers={"21": "150000.00", "ante": "10.00", "bet": "10.00"}, paid=[])
    rnd = _post_round(api_as(pitboss), table, data, pays="attested").json()
    response = api_as(manager).patch(reverse("table-detail", args=[table.pk]),
                                     {"max_bet": "200000.00", "reason": "high limit tonight"}, format="json")
    assert response.status_code == 200, response.json()
    corrected = api_as(pitboss).post(reverse("round-corrections", args=[rnd["id"]]),
                                     {"revision": 1, "reason": "re-keyed", "round": data, "pays": "attested"},
                                     format="json")
    assert corrected.status_code == 200, corrected.json()
    assert [f["expected"] for f in corrected.json()["findings"] if f["code"] == "WAGER_ABOVE_TABLE_MAX"] == [
        "100000.00"]
