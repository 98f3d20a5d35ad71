"""The jackpot API and pages: meters, awards, adjustments, the liability report in JSON and CSV."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils.html import escape

from audit.jackpots.models import JackpotAdjustment, JackpotAward
from audit.jackpots.selectors import adjustment_balance
from tables.services.rounds import round_record
from tests.conftest import api_as
from tests.factories import user_with_role
from tests.jackpots.helpers import DAY_START, SIX_CARD_BUST, hit_round, linked_bank, simulated_day

pytestmark = pytest.mark.django_db


@pytest.fixture
def day():
    bank, tables, manager, pitboss = linked_bank(2)
    simulated_day(
        tables,
        pitboss,
        rounds=20,
        extra=[
            (5, tables[0], hit_round()),
            (9, tables[1], hit_round(dealer=SIX_CARD_BUST, player=("AD", "QD"))),
        ],
    )
    return bank, tables, manager, pitboss


def test_meter_api_now_and_as_of(day):
    bank, *_ = day
    reader = user_with_role("surveillance")
    body = api_as(reader).get(reverse("jackpot-meter-list")).json()
    lines = {ln["line"]: ln for ln in body[0]["lines"]}
    assert lines["bust5_unsuited"]["progressive"] and Decimal(
        lines["bust5_unsuited"]["meter"]
    ) >= Decimal("40")
    assert lines["bust5_unsuited"]["last_hit"]["table"]
    before = (
        api_as(reader)
        .get(reverse("jackpot-meter-list"), {"at": "2025-03-14T11:00:00+00:00"})
        .json()
    )
    assert before[0]["total_liability"] == "0.00"
    bad = api_as(reader).get(reverse("jackpot-meter-list"), {"at": "yesterday"})
    assert bad.status_code == 400 and "at" in bad.json()


def test_liability_report_json_and_csv_tie(day):
    finance = user_with_role("finance")
    params = {"from": "2025-03-14", "to": "2025-03-14"}
    body = api_as(finance).get(reverse("jackpot-liability-list"), params).json()
    total = next(r for r in body["rows"] if r["line"] == "total")
    summary = body["banks"][0]
    assert total["closing"] == summary["closing_liability"]
    assert Decimal(summary["closing_liability"]) == (
        Decimal(summary["opening_liability"])
        + Decimal(summary["contributions"])
        + Decimal(summary["house_funding"])
        - Decimal(summary["payments"])
        - Decimal(summary["approved_reductions"])
        + Decimal(summary["approved_increases"])
    )
    response = api_as(finance).get(reverse("jackpot-liability-csv"), params)
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    header = rows[1]
    total_csv = next(r for r in rows if len(r) > 1 and r[1] == "total")
    assert dict(zip(header, total_csv, strict=False))["closing"] == total["closing"]
    assert (
        api_as(finance)
        .get(reverse("jackpot-liability-list"), {"from": "2025-03-15", "to": "2025-03-14"})
        .status_code
        == 400
    )


def test_award_payment_over_the_api_needs_the_w2g_reference(day):
    bank, tables, manager, pitboss = day
    award = JackpotAward.objects.get(bank=bank, w2g_required=True)
    url = reverse("jackpot-award-pay", kwargs={"pk": award.pk})
    refused = api_as(pitboss).post(url, {}, format="json")
    assert refused.status_code == 400 and "w2g_reference" in refused.json()
    paid = api_as(pitboss).post(
        url, {"w2g_reference": "W2G-1", "winner_name": "C. Lucky"}, format="json"
    )
    assert paid.status_code == 200 and paid.json()["status"] == "paid"


def test_board_and_pay_pages(day):
    bank, tables, manager, pitboss = day
    page = api_as(pitboss).get(reverse("jackpots-board")).content.decode()
    assert "Taxpayer&#x27;s Fortune meters" in page or "Taxpayer's Fortune meters" in page
    assert "W-2G required" in page and "Fortune bank" in page
    award = JackpotAward.objects.get(bank=bank, w2g_required=True)
    url = reverse("jackpots-award-pay", kwargs={"pk": award.pk})
    page = api_as(pitboss).post(url, {"w2g_reference": ""}, format="multipart").content.decode()
    assert "w2g_reference" in page
    award.refresh_from_db()
    assert award.status == JackpotAward.PENDING
    response = api_as(pitboss).post(
        url, {"w2g_reference": "W2G-9", "winner_name": "D. Player"}, format="multipart"
    )
    assert response.status_code == 302
    award.refresh_from_db()
    assert award.status == JackpotAward.PAID and award.w2g_reference == "W2G-9"


def test_adjustment_pages_keep_four_eyes(day):
    bank, tables, manager, pitboss = day
    finance = user_with_role("finance")
    client = api_as(finance)
    response = client.post(
        reverse("jackpots-adjustments"),
        {
            "bank": bank.pk,
            "line": "bust5_unsuited",
            "target": "meter",
            "amount": "1.00",
            "reason": "malfunction_correction",
            "note": "test",
        },
        format="multipart",
    )
    assert response.status_code == 302
    adjustment = JackpotAdjustment.objects.get()
    page = api_as(manager).get(reverse("jackpots-adjustments")).content.decode()
    assert "Approve" in page
    decide = reverse("jackpots-adjustment-decide", kwargs={"pk": adjustment.pk})
    before = adjustment_balance(adjustment)
    words = escape(f"{bank} meter 'dealer busts with 5 cards, unsuited blackjack'")
    # One tap is not enough: the page and an unconfirmed POST say what will move, and post nothing.
    for response in (api_as(manager).get(decide, {"decision": "approve"}),
                     api_as(manager).post(decide, {"decision": "approve"}, format="multipart")):
        page = response.content.decode()
        assert response.status_code == 200, page
        assert f"<strong>{words}</strong> moves from <strong>{before:,.2f}</strong> to " \
               f"<strong>{before + 1:,.2f}</strong>" in page
        adjustment.refresh_from_db()
        assert adjustment.status == JackpotAdjustment.REQUESTED and adjustment.transaction is None
    done = api_as(manager).post(decide, {"decision": "approve", "confirm": "yes"}, format="multipart",
                                follow=True)
    adjustment.refresh_from_db()
    assert adjustment.status == JackpotAdjustment.APPROVED and adjustment.transaction is not None
    assert adjustment_balance(adjustment) == before + 1
    assert f"Adjustment #{adjustment.pk} approved: {words} {before:,.2f} → {before + 1:,.2f}." in \
        done.content.decode()
    # Recording keeps working after the adjustment, and the report page shows the check.
    round_record(
        table=tables[0],
        data=hit_round(dealer=("2H", "3C", "4D", "TS")),
        author=pitboss,
        at=DAY_START + timedelta(hours=2),
    )
    report = (
        api_as(finance).get(reverse("jackpots-report"), {"from": "2025-03-14"}).content.decode()
    )
    assert "matches the ledger to the cent" in report


def test_rejecting_an_adjustment_is_confirmed_and_says_nothing_moved(day):
    bank, tables, manager, pitboss = day
    request = api_as(user_with_role("finance")).post(reverse("jackpots-adjustments"), {
        "bank": bank.pk, "line": "bust6_suited", "target": "meter", "amount": "2.00",
        "reason": "malfunction_correction", "note": "test"}, format="multipart")
    assert request.status_code == 302
    adjustment = JackpotAdjustment.objects.get()
    decide = reverse("jackpots-adjustment-decide", kwargs={"pk": adjustment.pk})
    before = adjustment_balance(adjustment)
    page = api_as(manager).get(decide, {"decision": "reject"}).content.decode()
    assert "Rejecting posts nothing" in page and f"stays at <strong>{before:,.2f}</strong>" in page
    assert api_as(manager).get(decide).status_code == 302  # no decision named: back to the list
    done = api_as(manager).post(decide, {"decision": "reject", "confirm": "yes", "note": "no"},
                                format="multipart", follow=True)
    adjustment.refresh_from_db()
    assert adjustment.status == JackpotAdjustment.REJECTED and adjustment_balance(adjustment) == before
    assert escape(f"Adjustment #{adjustment.pk} rejected: nothing posted; {bank} meter "
                  f"'dealer busts with 6 cards, suited blackjack' stays {before:,.2f}.") in done.content.decode()


def test_w2g_winner_identity_is_for_finance_and_gaming_managers_only(day):
    bank, tables, manager, pitboss = day
    award = JackpotAward.objects.get(bank=bank, w2g_required=True)
    paid = api_as(pitboss).post(
        reverse("jackpot-award-pay", kwargs={"pk": award.pk}),
        {"w2g_reference": "W2G-1", "winner_name": "C. Lucky", "winner_id_reference": "DL 1234"},
        format="json",
    )
    assert paid.status_code == 200 and paid.json()["winner_name"] is None
    readers = {"finance": user_with_role("finance"), "gaming_manager": manager,
               "pit_boss": pitboss, "surveillance": user_with_role("surveillance")}
    for role, user in readers.items():
        client = api_as(user)
        detail = client.get(reverse("jackpot-award-detail", kwargs={"pk": award.pk})).json()
        listed = next(a for a in client.get(reverse("jackpot-award-list"),
                                              {"gaming_day": award.gaming_day.isoformat()}).json()["results"]
                      if a["id"] == award.pk)
        sees = role in ("finance", "gaming_manager")
        for body in (detail, listed):
            assert body["w2g_reference"] == "W2G-1"
            assert body["winner_name"] == ("C. Lucky" if sees else None), role
            assert body["winner_id_reference"] == ("DL 1234" if sees else None), role


def test_liability_default_day_is_the_callers_casinos_gaming_day():
    from django.utils import timezone

    from casino.gaming_day import gaming_day_of
    from tests.factories import CasinoFactory

    # The first casino is 25 hours ahead of the caller's: their gaming days always differ.
    CasinoFactory(name="Ahead Casino", time_zone="Pacific/Kiritimati", gaming_day_start_hour=0)
    mine = CasinoFactory(name="Behind Casino", time_zone="Pacific/Pago_Pago", gaming_day_start_hour=0)
    finance = user_with_role("finance", casinos=[mine])
    body = api_as(finance).get(reverse("jackpot-liability-list")).json()
    expected = gaming_day_of(timezone.now(), mine.time_zone, 0).isoformat()
    assert body["from"] == body["to"] == expected


def test_the_jackpot_demo_managers_reach_the_bank_admin():
    from django.test import Client

    from casino.demo.jackpots import jackpot_demo_day_load

    loaded = jackpot_demo_day_load()
    manager = next(u for u in loaded["users"] if u.username == "jp-manager")
    assert manager.is_staff
    client = Client()
    client.force_login(manager)
    assert client.get(reverse("admin:jackpots_jackpotbank_change", args=[loaded["bank"].pk])).status_code == 200
    others = [u for u in loaded["users"] if u.username in ("jp-pitboss", "jp-finance")]
    assert others and not any(u.is_staff for u in others)
