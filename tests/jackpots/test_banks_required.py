"""Issue #14 part 4: no Taxpayer's Fortune tax without a jackpot bank behind it.

A table whose ruleset takes markers does not open outside a bank (service, API, tablet);
a gaming manager manages banks on a page and in the admin; the demo floor's Upcard Luck
table is in a bank with live meters.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from audit.jackpots.models import JackpotBank, JackpotBankTable, JackpotLineConfig
from audit.jackpots.reconcile import jackpot_recompute
from audit.jackpots.selectors import bank_state
from tables.games import GAMES
from tables.models import TableSession
from tables.services.sessions import table_session_open
from tests.conftest import api_as
from tests.factories import (
    DealerFactory,
    PitFactory,
    RulesetFactory,
    TableFactory,
    jackpot_bank_for,
    user_with_role,
)

pytestmark = pytest.mark.django_db
GAME = "upcard_luck_21"
WHAT_TO_DO = "link the table to a jackpot bank (Jackpots → Banks)"


def _page_client(user) -> Client:
    """Pages take form posts (the API client sends JSON by default)."""
    client = Client()
    client.force_login(user)
    return client


def _upcard_table(*, markers: bool = True):
    pit = PitFactory()
    config = GAMES[GAME].rules_to_dict(GAMES[GAME].default_rules())
    config["taxpayers_fortune"] = markers
    table = TableFactory(pit=pit, game=GAME, ruleset=RulesetFactory(game=GAME, casino=pit.casino, config=config))
    return table, DealerFactory(casino=pit.casino)


def test_a_table_taking_markers_does_not_open_outside_a_bank():
    table, dealer = _upcard_table()
    boss = user_with_role("pit_boss")
    with pytest.raises(ValidationError) as err:
        table_session_open(table=table, dealer=dealer, author=boss)
    assert WHAT_TO_DO in err.value.message_dict["table"][0]
    table.refresh_from_db()
    assert not table.is_open and not TableSession.objects.filter(table=table).exists()
    jackpot_bank_for(table)
    assert table_session_open(table=table, dealer=dealer, author=boss).closed_at is None


def test_a_ruleset_without_markers_opens_anywhere():
    table, dealer = _upcard_table(markers=False)
    assert jackpot_bank_for(table) is None
    assert table_session_open(table=table, dealer=dealer, author=user_with_role("pit_boss"))


def test_the_api_answers_a_field_error_and_the_tablet_says_what_to_do():
    table, dealer = _upcard_table()
    boss = user_with_role("pit_boss")
    response = api_as(boss).post(
        reverse("tablesession-list"), {"table": table.pk, "dealer": dealer.pk, "reason": "opener on paper"},
        format="json"
    )
    assert response.status_code == 400 and WHAT_TO_DO in response.json()["table"][0]
    page = _page_client(boss).post(
        reverse("tablet-table-open", args=[table.pk]), {"dealer": dealer.pk, "reason": "opener on paper"}, follow=True
    )
    assert WHAT_TO_DO in page.content.decode()
    assert not TableSession.objects.filter(table=table).exists()


def test_a_gaming_manager_creates_a_bank_links_a_table_and_configures_a_line_on_the_page():
    table, dealer = _upcard_table()
    other, _ = _upcard_table()
    manager = user_with_role("gaming_manager")
    url = reverse("jackpots-banks")
    seen = _page_client(user_with_role("surveillance")).get(url).content.decode()
    assert table.label in seen and "cannot open" in seen
    refused = _page_client(user_with_role("pit_boss")).post(url, {"action": "create"})
    assert refused.status_code == 403
    client = _page_client(manager)
    bad = client.post(url, {"action": "create", "casino": table.pit.casino.pk, "name": "", "reason": "x"})
    assert bad.status_code == 200 and "A bank needs a name" in bad.content.decode()
    assert not JackpotBank.objects.exists()
    client.post(url, {"action": "create", "casino": table.pit.casino.pk, "name": "Main", "reason": "new bank",
                      "tables": [table.pk]})
    bank = JackpotBank.objects.get(name="Main")
    client.post(url, {"action": "link", "bank": bank.pk, "table": other.pk, "reason": "second table"})
    assert set(bank.members.values_list("table", flat=True)) == {table.pk, other.pk}
    client.post(url, {"action": "configure", "bank": bank.pk, "line": "bust5_unsuited", "progressive": "on",
                      "reset": "40.00", "increment_rate": "0.3", "hidden_rate": "0.05", "cap": "",
                      "reason": "opening"})
    config = JackpotLineConfig.objects.get(bank=bank, line="bust5_unsuited")
    assert config.progressive and config.created_by == manager and config.reason == "opening"
    assert bank_state(bank).lines[0].meter == 40  # seeded to its reset
    assert table_session_open(table=table, dealer=dealer, author=user_with_role("pit_boss"))


def test_a_gaming_manager_manages_banks_in_the_admin():
    table, _ = _upcard_table()
    plain = TableFactory(pit=table.pit)  # Ante Up: no jackpots
    client = _page_client(user_with_role("gaming_manager"))
    response = client.post(reverse("admin:jackpots_jackpotbank_add"), {
        "casino": table.pit.casino.pk, "name": "Admin bank", "defer_changes_until_hit": "on",
        "change_reason": "a bank for the new pit", "members-TOTAL_FORMS": "0", "members-INITIAL_FORMS": "0"})
    assert response.status_code == 302, response.content.decode()[:2000]
    bank = JackpotBank.objects.get(name="Admin bank")
    assert bank.history.first().history_change_reason == "a bank for the new pit"
    assert bank.meters.count() == 8  # made by the service, not a bare save
    refused = client.post(reverse("admin:jackpots_jackpotbanktable_add"),
                          {"bank": bank.pk, "table": plain.pk, "change_reason": "try"})
    assert refused.status_code == 200 and "only Upcard Luck 21" in refused.content.decode()
    linked = client.post(reverse("admin:jackpots_jackpotbanktable_add"),
                         {"bank": bank.pk, "table": table.pk, "change_reason": "link"})
    assert linked.status_code == 302
    assert JackpotBankTable.objects.get(table=table).bank == bank
    assert client.get(reverse("admin:jackpots_jackpotlineconfig_add")).status_code == 200
    finance = _page_client(user_with_role("finance"))
    assert finance.get(reverse("admin:jackpots_jackpotbank_changelist")).status_code == 302


def test_the_demo_floor_puts_its_upcard_luck_table_in_a_bank_with_live_meters():
    from casino.demo.floor import demo_floor_load, demo_rounds_load

    demo_floor_load()
    member = JackpotBankTable.objects.select_related("bank", "table").get(table__game=GAME)
    state = bank_state(member.bank)
    assert [ln.line for ln in state.lines if ln.progressive]
    assert all(ln.meter >= ln.config.reset > 0 for ln in state.lines if ln.progressive)
    demo_floor_load()  # loading again changes nothing
    assert JackpotBank.objects.count() == 1 and JackpotBankTable.objects.count() == 1
    demo_rounds_load(rounds_per_table=15)
    assert bank_state(member.bank).contribution_base > 0
    assert jackpot_recompute(member.bank).ok


def test_no_round_is_recorded_with_markers_at_a_table_in_no_bank():
    """A table already open (before this rule, or whose ruleset changed under it) records no
    Taxpayer's Fortune tax outside a bank either."""
    from tables.services.floor import floor_object_save
    from tables.services.rounds import round_record
    from tests.jackpots.helpers import hit_round

    table, dealer = _upcard_table(markers=False)
    boss, manager = user_with_role("pit_boss"), user_with_role("gaming_manager")
    table_session_open(table=table, dealer=dealer, author=boss)
    table.ruleset = RulesetFactory(game=GAME, casino=table.pit.casino)  # takes markers
    floor_object_save(obj=table, author=manager, reason="new rules")
    with pytest.raises(ValidationError) as err:
        round_record(table=table, data=hit_round(), author=boss)
    assert "before rounds are recorded here" in err.value.message_dict["table"][0]
    assert not table.rounds.exists()
