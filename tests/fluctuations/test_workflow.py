"""An investigation's life: owner, conclusion, sign-off by a gaming manager who did not write it;
each refusal is a 403 or a field error and stores nothing. PostgreSQL refuses what the services
would never do (casino/audit_guard.py RULES["fluctuations_investigation"])."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal as D

import pytest
from django.db import DatabaseError, transaction
from django.utils import timezone

from audit.fluctuations.models import Investigation
from casino.audit_guard import allow_audit_write
from tests.conftest import api_as
from tests.factories import CasinoFactory, PitFactory, TableFactory, user_with_role

pytestmark = pytest.mark.django_db


def make_investigation(casino=None, **extra) -> Investigation:
    table = TableFactory(pit=PitFactory(casino=casino)) if casino else TableFactory()
    values = {"casino": table.pit.casino, "level": "table", "key": str(table.pk), "label": table.label,
              "period": "day", "period_start": date(2026, 3, 10), "period_end": date(2026, 3, 10), "rule": "band",
              "drop_hold_pct": D("31.0000"), "bound_low": D("10"), "bound_high": D("25"),
              "figures": {"stat_win": "3100.00", "drop": "10000.00", "why": "hold 31.00% is outside the band"},
              "explanation": "The recorded play won 3,000.00.", "opened_at": timezone.now(), **extra}
    return Investigation.objects.create(**values)


@pytest.fixture
def people():
    return {"finance": user_with_role("finance", "fin"), "manager": user_with_role("gaming_manager", "gm1"),
            "manager2": user_with_role("gaming_manager", "gm2"), "surveillance": user_with_role("surveillance")}


def _url(inv, action=""):
    return f"/api/v1/investigations/{inv.pk}/" + (f"{action}/" if action else "")


def _unchanged(inv, status="open", history=1):
    inv.refresh_from_db()
    assert inv.status == status and inv.history.count() == history


def test_the_whole_way_to_sign_off(people):
    inv = make_investigation()
    fin, gm2 = api_as(people["finance"]), api_as(people["manager2"])
    assert fin.post(_url(inv, "assign"), {"owner": people["finance"].pk}, format="json").status_code == 200
    done = fin.post(_url(inv, "conclude"), {"conclusion": "A lucky player; video reviewed."}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "in_review"
    signed = gm2.post(_url(inv, "sign-off"), {"note": "agreed"}, format="json")
    assert signed.status_code == 200, signed.json()
    assert (signed.json()["status"], signed.json()["signed_off_by"], signed.json()["concluded_by"]) == (
        "signed_off", "gm2", "fin")
    steps = [(h.status, h.history_user.username if h.history_user else None, h.history_change_reason)
             for h in inv.history.order_by("history_date")]
    assert steps[1:] == [("open", "fin", "assigned to fin"), ("in_review", "fin", "conclusion written"),
                         ("signed_off", "gm2", "signed off")]
    from casino.local_time import local_time_text

    inv.refresh_from_db()
    shown = local_time_text(inv.signed_off_at, inv.casino)  # the casino's time with its zone
    assert shown in fin.get(f"/investigations/{inv.pk}.csv").content.decode("utf-8-sig")
    assert shown in fin.get(f"/investigations/{inv.pk}/").content.decode()


def test_refusals_store_nothing(people):
    inv = make_investigation()
    fin, gm = api_as(people["finance"]), api_as(people["manager"])
    # Not the owner: the conclusion is the owner's.
    refused = fin.post(_url(inv, "conclude"), {"conclusion": "x"}, format="json")
    assert refused.status_code == 400 and "owner" in refused.json()
    _unchanged(inv)
    # Surveillance reads, never owns; a pit boss does not even see it.
    assert api_as(people["surveillance"]).post(_url(inv, "assign"), {"owner": people["finance"].pk},
                                               format="json").status_code == 403
    assert api_as(people["surveillance"]).get(_url(inv)).status_code == 200
    assert api_as(user_with_role("pit_boss")).get(_url(inv)).status_code == 403
    # A pit boss cannot be made the owner.
    refused = gm.post(_url(inv, "assign"), {"owner": user_with_role("pit_boss").pk}, format="json")
    assert refused.status_code == 400 and "owner" in refused.json()
    _unchanged(inv)
    gm.post(_url(inv, "assign"), {"owner": people["manager"].pk}, format="json")
    # The conclusion missing.
    refused = gm.post(_url(inv, "conclude"), {"conclusion": "  "}, format="json")
    assert refused.status_code == 400 and "conclusion" in refused.json()
    _unchanged(inv, history=2)
    # Signing off what is not in review.
    refused = api_as(people["manager2"]).post(_url(inv, "sign-off"), {}, format="json")
    assert refused.status_code == 400 and "status" in refused.json()
    assert gm.post(_url(inv, "conclude"), {"conclusion": "miscount: recount found 500"},
                   format="json").status_code == 200
    # The owner who wrote it cannot sign it off; finance never signs off.
    refused = gm.post(_url(inv, "sign-off"), {}, format="json")
    assert refused.status_code == 400 and "reviewer" in refused.json()
    assert fin.post(_url(inv, "sign-off"), {}, format="json").status_code == 403
    _unchanged(inv, status="in_review", history=3)


def test_another_casino_sees_nothing(people):
    inv = make_investigation()
    stranger = user_with_role("gaming_manager", "gm-other", casinos=[CasinoFactory(name="Other")])
    client = api_as(stranger)
    assert client.get(_url(inv)).status_code == 404
    assert client.post(_url(inv, "assign"), {"owner": stranger.pk}, format="json").status_code == 404
    assert client.get("/api/v1/investigations/?gaming_day=2026-03-10").json()["count"] == 0
    assert client.get(f"/investigations/{inv.pk}/").status_code == 404
    # Nor can its own people be named owner of this casino's investigation.
    refused = api_as(people["manager"]).post(_url(inv, "assign"), {"owner": stranger.pk}, format="json")
    assert refused.status_code == 400 and "owner" in refused.json()
    _unchanged(inv)


def test_sent_back_then_concluded_again(people):
    inv = make_investigation()
    gm, gm2 = api_as(people["manager"]), api_as(people["manager2"])
    gm.post(_url(inv, "assign"), {"owner": people["manager"].pk}, format="json")
    gm.post(_url(inv, "conclude"), {"conclusion": "luck"}, format="json")
    refused = gm2.post(_url(inv, "send-back"), {"note": ""}, format="json")
    assert refused.status_code == 400 and "note" in refused.json()
    back = gm2.post(_url(inv, "send-back"), {"note": "attach the recount"}, format="json")
    assert back.json()["status"] == "open" and back.json()["review_note"] == "attach the recount"
    again = gm.post(_url(inv, "conclude"), {"conclusion": "luck; recount attached"}, format="json")
    assert again.json()["status"] == "in_review"


def test_the_pages_work_the_same_way(people):
    inv = make_investigation()
    fin = api_as(people["finance"])
    assert fin.get(f"/investigations/{inv.pk}/").status_code == 200
    act = f"/investigations/{inv.pk}/act/"
    assert fin.post(act, {"action": "assign", "owner": people["finance"].pk}, format="multipart").status_code == 302
    refused = fin.post(act, {"action": "conclude", "conclusion": ""}, format="multipart")
    assert refused.status_code == 400 and "Write the conclusion" in refused.content.decode()
    assert fin.post(act, {"action": "conclude", "conclusion": "video reviewed"}, format="multipart").status_code == 302
    assert fin.post(act, {"action": "sign_off"}, format="multipart").status_code == 403
    page = api_as(people["manager"]).post(act, {"action": "sign_off", "note": "ok"}, format="multipart")
    assert page.status_code == 302
    inv.refresh_from_db()
    assert inv.status == "signed_off" and inv.signed_off_by == people["manager"]
    listing = api_as(people["surveillance"]).get("/investigations/?status=signed_off&from=2026-03-01&to=2026-03-31").content.decode()
    assert f'href="/investigations/{inv.pk}/"' in listing
    assert f'href="/investigations/{inv.pk}/"' not in api_as(people["surveillance"]).get(
        "/investigations/?status=open&from=2026-03-01&to=2026-03-31").content.decode()
    for who in ("pit_boss", "cage", "count"):
        assert api_as(user_with_role(who)).get("/investigations/").status_code == 403


def test_the_list_page_defaults_to_the_last_30_days_shown_in_its_form(people):
    """Issue #20: the page (and its files) read one period, the last 30 gaming days by default;
    an investigation is in it when its own period (a day, a month) shares a day with it."""
    from casino.periods import today_of

    today = today_of(people["finance"])
    recent = make_investigation(period_start=today, period_end=today)
    old = make_investigation(period="month", period_start=today - timedelta(days=70),
                             period_end=today - timedelta(days=41))
    fin = api_as(people["finance"])
    page = fin.get("/investigations/").content.decode()
    first = (today - timedelta(days=29)).isoformat()
    assert f'href="/investigations/{recent.pk}/"' in page and f'href="/investigations/{old.pk}/"' not in page
    assert f'name="from" value="{first}"' in page and f'name="to" value="{today.isoformat()}"' in page
    assert old.label not in fin.get("/investigations.csv").content.decode("utf-8-sig")
    # Any day of the old month's period finds it; a reversed period shows the default one.
    some_day = (today - timedelta(days=50)).isoformat()
    page = fin.get(f"/investigations/?from={some_day}&to={some_day}").content.decode()
    assert f'href="/investigations/{old.pk}/"' in page and f'href="/investigations/{recent.pk}/"' not in page
    page = fin.get(f"/investigations/?from={today.isoformat()}&to={some_day}").content.decode()
    assert f'href="/investigations/{recent.pk}/"' in page and f'name="from" value="{first}"' in page
    api = fin.get("/api/v1/investigations/", {"gaming_day": some_day}).json()
    assert [row["id"] for row in api["results"]] == [old.pk]
    assert fin.get("/api/v1/investigations/").json()["count"] == 1


def test_the_files(people):
    inv = make_investigation(conclusion="")
    fin = api_as(people["finance"])
    listing = fin.get("/investigations.csv?from=2026-03-01&to=2026-03-31").content.decode("utf-8-sig")
    assert "hold 31.00% is outside" not in listing and "31.0000" in listing and inv.label in listing
    for url in ("/investigations.pdf?from=2026-03-01&to=2026-03-31", f"/investigations/{inv.pk}.pdf"):
        response = fin.get(url)
        assert response.status_code == 200 and response.content.startswith(b"%PDF"), url
    one = fin.get(f"/investigations/{inv.pk}.csv").content.decode("utf-8-sig")
    assert "The recorded play won 3,000.00." in one
    assert fin.get(f"/investigations/{inv.pk}.exe").status_code == 404


def _refused(sql, params):
    from django.db import connection

    with pytest.raises(DatabaseError), transaction.atomic():
        allow_audit_write()
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def test_postgresql_refuses_an_illegal_move():
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the guards are PostgreSQL triggers")
    inv = make_investigation()
    table = "fluctuations_investigation"
    _refused(f"UPDATE {table} SET status = 'signed_off' WHERE id = %s", [inv.pk])  # open > signed off
    _refused(f"UPDATE {table} SET drop_hold_pct = 1 WHERE id = %s", [inv.pk])  # the figures never change
    _refused(f"UPDATE {table} SET explanation = 'x' WHERE id = %s", [inv.pk])
    _refused(f"DELETE FROM {table} WHERE id = %s", [inv.pk])
    _refused("DELETE FROM fluctuations_historicalinvestigation WHERE id = %s", [inv.pk])
    with transaction.atomic():  # the legal move passes
        allow_audit_write()
        Investigation.objects.filter(pk=inv.pk).update(status="in_review", conclusion="c")
    someone = user_with_role("finance", "later-owner")
    _refused(f"UPDATE {table} SET owner_id = %s WHERE id = %s", [someone.pk, inv.pk])  # owner changes only while open
    _refused(f"UPDATE {table} SET status = 'open', conclusion = 'z', drop_hold_pct = 2 WHERE id = %s", [inv.pk])
    inv.refresh_from_db()
    assert (inv.status, inv.drop_hold_pct) == ("in_review", D("31.0000"))


def test_the_days_report_links_to_its_investigations(people):
    from audit.reports.models import DailyReport

    inv = make_investigation()
    report = DailyReport.objects.create(casino=inv.casino, gaming_day=date(2026, 3, 10), status=DailyReport.DONE)
    page = api_as(people["surveillance"]).get(f"/reports/{report.pk}/").content.decode()
    assert 'href="/investigations/?day=2026-03-10"' in page
    listing = api_as(people["surveillance"]).get("/investigations/?day=2026-03-10").content.decode()
    assert f'href="/investigations/{inv.pk}/"' in listing
    assert f'href="/investigations/{inv.pk}/"' not in api_as(people["surveillance"]).get(
        "/investigations/?day=2026-03-11").content.decode()
