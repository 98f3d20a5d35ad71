"""Who may do what, and bad input refused with the field named and nothing stored; the
PostgreSQL guard on the append-only tables."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, connection, transaction
from django.urls import reverse

from audit.compliance.models import CashOut, CashOutVoid, ComplianceSettings, PatronIdentification
from audit.compliance.services import (
    cash_out_record,
    cash_out_void,
    identification_record,
    settings_save,
)
from tables.accounting.models import AccountingSettings, BuyIn
from tests.compliance.helpers import DAY, FULL_ID, t31_floor
from tests.conftest import api_as
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db


def test_an_absurd_buy_in_is_refused_by_the_house_bound():
    f = t31_floor()
    with pytest.raises(ValidationError) as refused:
        f.cash_in(f.bj1, "100000.01", "P-1")
    assert "largest buy-in" in refused.value.message_dict["amount"][0]
    AccountingSettings.objects.create(casino=f.casino, buy_in_max=D("250000.00"))
    f.cash_in(f.bj1, "100000.01", "P-1")
    response = api_as(f.pit_boss).post(reverse("buyin-list"), {"table": f.bj1.pk, "seat": 1, "kind": "cash",
                                                                "amount": "999999999.00"}, format="json")
    assert response.status_code == 400 and "amount" in response.json()
    assert BuyIn.objects.count() == 1


@pytest.mark.parametrize(("amount", "kind"), [("0", "chip_redemption"), ("-50", "chip_redemption"),
                                              ("1.005", "chip_redemption"), ("5000000", "chip_redemption"),
                                              ("100", "marker")])
def test_bad_cash_outs_are_refused_with_the_field_named(amount, kind):
    f = t31_floor()
    response = api_as(f.cashier).post(reverse("cashout-list"), {"casino": f.casino.pk, "kind": kind,
                                                                 "amount": amount}, format="json")
    assert response.status_code == 400, response.content
    assert ("amount" if kind != "marker" else "kind") in response.json()
    assert not CashOut.objects.exists()


def test_only_the_cage_records_a_cash_out_and_a_void_needs_a_reason():
    f = t31_floor()
    with pytest.raises(ValidationError):
        cash_out_record(casino=f.casino, kind="other", amount=D("10"), author=f.pit_boss)
    out = f.cash_out("400.00", "P-1")
    with pytest.raises(ValidationError) as refused:
        cash_out_void(cash_out=out, reason=" ", author=f.cashier)
    assert "reason" in refused.value.message_dict
    cash_out_void(cash_out=out, reason="keyed 400 for 40", author=f.cashier,
                  replacement={"kind": "other", "amount": D("40.00"), "player_identifier": "P-1"})
    assert CashOut.objects.get(corrects=out).amount == D("40.00")
    assert CashOutVoid.objects.count() == 1


def test_identification_is_compliance_only_on_the_api_and_absent_from_other_payloads():
    f = t31_floor()
    f.cash_in(f.bj1, "6000.00", "P-1", hours=1)
    f.cash_in(f.bj2, "6000.00", "P-1", hours=2)
    body = {"casino": f.casino.pk, "identifier": "P-1", "last_name": "Doe", "reason": "ID shown"}
    for role in ("gaming_manager", "pit_boss", "cage", "finance"):
        someone = user_with_role(role, username=f"who-{role}")
        assert api_as(someone).post(reverse("identification-list"), body, format="json").status_code == 403
        assert api_as(someone).get(reverse("identification-list")).status_code == 403
    with pytest.raises(PermissionDenied):
        identification_record(casino=f.casino, identifier="P-1", author=f.manager, reason="x", last_name="Doe")
    assert not PatronIdentification.objects.exists()
    ok = api_as(f.compliance).post(reverse("identification-list"), {**body, **{
        k: str(v) for k, v in FULL_ID.items()}}, format="json")
    assert ok.status_code == 201, ok.content
    query = {"casino": f.casino.pk, "gaming_day": DAY.isoformat()}
    as_manager = api_as(f.manager).get(reverse("complianceday-mtl"), query).json()
    as_compliance = api_as(f.compliance).get(reverse("complianceday-mtl"), query).json()
    assert "identification" not in as_manager["ctrs"][0] and "123-45-6789" not in str(as_manager)
    assert as_compliance["ctrs"][0]["identification"]["tin"] == "123-45-6789"
    assert as_compliance["ctrs"][0]["missing"] == [] and as_compliance["mtl"][0]["cash_in"] == "12000.00"
    # The identification page too: compliance only.
    url = reverse("compliance-identification", kwargs={"identifier": "P-1"})
    assert api_as(f.manager).get(url).status_code == 403
    assert "Doe" in api_as(f.compliance).get(url).content.decode()


def test_bad_identification_is_refused_and_nothing_stored():
    f = t31_floor()
    response = api_as(f.compliance).post(reverse("identification-list"), {
        "casino": f.casino.pk, "identifier": "P-1", "date_of_birth": "2999-01-01", "reason": "x"}, format="json")
    assert response.status_code == 400 and "date_of_birth" in response.json()
    response = api_as(f.compliance).post(reverse("identification-list"), {
        "casino": f.casino.pk, "identifier": "P-1", "last_name": "Doe"}, format="json")
    assert response.status_code == 400 and "reason" in response.json()
    assert not PatronIdentification.objects.exists()


def test_settings_are_edited_by_compliance_or_a_gaming_manager_with_history():
    f = t31_floor()
    with pytest.raises(ValidationError) as refused:
        settings_save(casino=f.casino, author=f.manager, reason="x", mtl_threshold=D("12000.00"))
    assert "mtl_threshold" in refused.value.message_dict
    with pytest.raises(ValidationError):
        settings_save(casino=f.casino, author=f.pit_boss, reason="x", near_count=3)
    saved = settings_save(casino=f.casino, author=f.manager, reason="three near ones", near_count=3)
    assert saved.history.first().history_change_reason == "three near ones"
    assert api_as(f.pit_boss).get(reverse("compliancesettings-list")).status_code == 403
    assert ComplianceSettings.objects.count() == 1


def test_a_cash_out_on_a_closed_day_is_refused_but_compliance_works_after_the_close():
    from tests.closing.closed_today import close_directly

    f = t31_floor()
    f.cash_in(f.bj1, "12000.00", "P-1", hours=1)
    close_directly(f.casino, DAY)
    with pytest.raises(ValidationError):
        f.cash_out("100.00", "P-1", hours=2)
    identification_record(casino=f.casino, identifier="P-1", author=f.compliance, reason="ID next day", **FULL_ID)
    from audit.compliance.services import mtl_sign_off

    assert mtl_sign_off(casino=f.casino, gaming_day=DAY, author=f.compliance).patrons == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the guard is a PostgreSQL trigger")
def test_postgres_refuses_changing_or_deleting_title_31_records():
    f = t31_floor()
    f.cash_out("400.00", "P-1")
    identification_record(casino=f.casino, identifier="P-1", author=f.compliance, reason="ID", last_name="Doe")
    for table in ("compliance_cashout", "compliance_patronidentification"):
        for statement in (f"UPDATE {table} SET id = id", f"DELETE FROM {table}"):
            with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(statement)


def test_the_cage_voids_a_cash_out_from_its_page_with_a_reason(client):
    f = t31_floor()
    out = f.cash_out("400.00", "P-1")
    url = reverse("cage-cash-out-void", args=[out.pk])
    client.force_login(f.cashier)
    page = client.get(reverse("cage-cash-outs"), {"casino": f.casino.pk, "gaming_day": DAY.isoformat()})
    assert url in page.content.decode()
    refused = client.post(url, {"reason": "  "}, follow=True)
    assert "reason" in refused.content.decode() and not CashOutVoid.objects.exists()
    client.post(url, {"reason": "keyed for the wrong patron"})
    assert CashOutVoid.objects.get(cash_out=out).voided_by == f.cashier
    again = client.get(reverse("cage-cash-outs"), {"casino": f.casino.pk, "gaming_day": DAY.isoformat()})
    assert "voided: keyed for the wrong patron" in again.content.decode() and url not in again.content.decode()
    client.force_login(f.pit_boss)
    assert client.post(url, {"reason": "x"}).status_code == 403
    client.force_login(user_with_role("cage", username="elsewhere", casinos=[]))
    assert client.post(url, {"reason": "x"}).status_code == 404
