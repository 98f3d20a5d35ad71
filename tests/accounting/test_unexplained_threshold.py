"""The casino's threshold for an unexplained difference between cash and recorded play:
a default written in the README, and a bad value refused on its field."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tables.accounting.models import AccountingSettings
from tables.accounting.services.findings import accounting_settings
from tests.factories import CasinoFactory, user_with_role

pytestmark = pytest.mark.django_db


def test_the_default_is_one_hundred():
    assert accounting_settings(CasinoFactory()).unexplained_above == D("100.00")


@pytest.mark.parametrize("bad", ["-0.01", "abc", "1e20"])
def test_a_bad_threshold_is_a_field_error_and_nothing_is_saved(client, bad):
    casino = CasinoFactory()
    client.force_login(user_with_role("gaming_manager"))
    response = client.post(reverse("admin:accounting_accountingsettings_add"), {
        "casino": casino.pk, "report_above": "25.00", "regulator_at": "100.00", "unexplained_above": bad,
        "change_reason": "our rule"})
    assert response.status_code == 200
    assert "unexplained_above" in response.context["adminform"].form.errors
    assert not AccountingSettings.objects.exists()


def test_the_model_names_the_field():
    settings = AccountingSettings(casino=CasinoFactory(), unexplained_above=D("-5"))
    with pytest.raises(ValidationError) as refused:
        settings.full_clean()
    assert "unexplained_above" in refused.value.message_dict


def test_a_gaming_manager_sets_it_with_a_reason(client):
    casino = CasinoFactory()
    client.force_login(user_with_role("gaming_manager"))
    client.post(reverse("admin:accounting_accountingsettings_add"), {
        "casino": casino.pk, "report_above": "25.00", "regulator_at": "100.00", "unexplained_above": "250.00",
        "buy_in_max": "100000.00", "slip_max": "5000000.00", "change_reason": "our rule"})
    saved = AccountingSettings.objects.get(casino=casino)
    assert saved.unexplained_above == D("250.00") and saved.history.first().history_change_reason == "our rule"
