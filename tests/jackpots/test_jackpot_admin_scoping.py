"""The jackpot admin is scoped like the floor's: a gaming manager sees, chooses and creates
only in their casinos' banks (W-2G thresholds are global)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from audit.jackpots.models import JackpotBank, JackpotBankTable, JackpotLineConfig
from tests.factories import CasinoFactory, PitFactory, TableFactory, user_with_role
from tests.jackpots.helpers import GAME, progressive_ruleset

pytestmark = pytest.mark.django_db


def _bank_of(casino, name):
    from audit.jackpots.services import jackpot_bank_create, jackpot_line_configure

    pit = PitFactory(casino=casino)
    table = TableFactory(pit=pit, game=GAME, ruleset=progressive_ruleset(casino), label=f"{name}-T1")
    spare = TableFactory(pit=pit, game=GAME, ruleset=table.ruleset, label=f"{name}-T2")
    bank = jackpot_bank_create(casino=casino, name=name, author=user_with_role("superuser"), reason="setup",
                               tables=[table])
    jackpot_line_configure(bank=bank, line="bust5_unsuited", progressive=True, reset="40.00",
                           increment_rate="0.30", hidden_rate="0.05", cap=None,
                           author=user_with_role("superuser"), reason="setup")
    return bank, spare


@pytest.fixture
def two_casinos():
    mine, theirs = CasinoFactory(name="Demo Casino"), CasinoFactory(name="Other Casino")
    my_bank, my_spare = _bank_of(mine, "My bank")
    their_bank, their_spare = _bank_of(theirs, "Their bank")
    manager = user_with_role("gaming_manager", username="demo-gm", casinos=[mine])
    client = Client()
    client.force_login(manager)
    return client, (mine, my_bank, my_spare), (theirs, their_bank, their_spare)


def test_another_casinos_jackpot_objects_are_not_found(two_casinos):
    client, _mine, (theirs, bank, _spare) = two_casinos
    member = JackpotBankTable.objects.get(bank=bank)
    config = JackpotLineConfig.objects.filter(bank=bank).first()
    for name, obj in (("jackpotbank", bank), ("jackpotbanktable", member), ("jackpotlineconfig", config)):
        for view in ("change", "history"):
            response = client.get(reverse(f"admin:jackpots_{name}_{view}", args=[obj.pk]))
            assert response.status_code in (403, 404), (name, view, response.status_code)
        listing = client.get(reverse(f"admin:jackpots_{name}_changelist")).content.decode()
        assert "Their bank" not in listing and "Other Casino" not in listing, name


def test_a_manager_cannot_create_on_another_casinos_bank(two_casinos):
    client, (mine, my_bank, my_spare), (theirs, bank, spare) = two_casinos
    before = JackpotLineConfig.objects.count()
    response = client.post(reverse("admin:jackpots_jackpotlineconfig_add"), {
        "bank": bank.pk, "line": "bust7_suited", "progressive": "on", "reset": "10000.00",
        "increment_rate": "0.05", "hidden_rate": "0.01", "cap": "", "change_reason": "sneaky"})
    assert response.status_code == 200 and "bank" in response.context["adminform"].form.errors
    linked = client.post(reverse("admin:jackpots_jackpotbanktable_add"),
                         {"bank": bank.pk, "table": spare.pk, "change_reason": "sneaky"})
    assert linked.status_code == 200 and "bank" in linked.context["adminform"].form.errors
    mixed = client.post(reverse("admin:jackpots_jackpotbanktable_add"),
                        {"bank": my_bank.pk, "table": spare.pk, "change_reason": "sneaky"})
    assert mixed.status_code == 200 and "table" in mixed.context["adminform"].form.errors
    created = client.post(reverse("admin:jackpots_jackpotbank_add"), {
        "casino": theirs.pk, "name": "Sneaky bank", "defer_changes_until_hit": "on", "change_reason": "sneaky",
        "members-TOTAL_FORMS": "0", "members-INITIAL_FORMS": "0"})
    assert created.status_code == 200 and "casino" in created.context["adminform"].form.errors
    assert JackpotLineConfig.objects.count() == before
    assert not JackpotBankTable.objects.filter(table=spare).exists()
    assert not JackpotBank.objects.filter(name="Sneaky bank").exists()
    # Their own bank still works.
    ok = client.post(reverse("admin:jackpots_jackpotbanktable_add"),
                     {"bank": my_bank.pk, "table": my_spare.pk, "change_reason": "second table"})
    assert ok.status_code == 302


def test_the_add_forms_offer_only_the_managers_casinos(two_casinos):
    client, (mine, my_bank, my_spare), (theirs, bank, spare) = two_casinos
    choices = {}
    for name in ("jackpotbank", "jackpotbanktable", "jackpotlineconfig"):
        form = client.get(reverse(f"admin:jackpots_{name}_add")).context["adminform"].form
        for field in ("casino", "bank", "table"):
            if field in form.fields:
                choices[(name, field)] = set(form.fields[field].queryset)
    assert choices[("jackpotbank", "casino")] == {mine}
    assert choices[("jackpotbanktable", "bank")] == {my_bank} == choices[("jackpotlineconfig", "bank")]
    assert spare not in choices[("jackpotbanktable", "table")] and my_spare in choices[("jackpotbanktable", "table")]


def test_the_floor_lists_filter_by_the_managers_casinos_only(two_casinos):
    client, *_ = two_casinos
    for name in ("tables_pit", "tables_dealer", "tables_table", "tables_ruleset", "casino_casinomembership"):
        listing = client.get(reverse(f"admin:{name}_changelist"))
        assert listing.status_code == 200, name
        assert "Other Casino" not in listing.content.decode(), name
