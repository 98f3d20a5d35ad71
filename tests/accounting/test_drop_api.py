"""The API of buy-ins, drop boxes and counts: field-level 400s with nothing stored, two
counters, exports."""

from __future__ import annotations

from decimal import Decimal as D

from django.urls import reverse

from tables.accounting.models import BuyIn, SoftCount
from tests.accounting.drop_floor import drop_floor
from tests.conftest import api_as
from tests.factories import TableFactory


def test_buy_in_then_drop_count_and_sign_over_the_api(db):
    f = drop_floor()
    pit = api_as(f.pit_boss)
    r = pit.post(reverse("buyin-list"), {"table": f.table.pk, "seat": 3, "kind": "cash", "amount": "500.00",
                                         "player_identifier": "CARD-1"}, format="json")
    assert r.status_code == 201, r.json()
    day = r.json()["gaming_day"]
    assert pit.get(reverse("buyin-estimated-drop"), {"gaming_day": day}).json() == [
        {"table": f.table.pk, "cash": "500.00", "marker": "0.00", "chips": "0.00", "estimated_drop": "500.00"}]
    r = api_as(f.counter).post(reverse("dropbox-drop"), {"table": f.table.pk, "gaming_day": day}, format="json")
    assert r.status_code == 201, r.json()
    box = r.json()["id"]
    r = api_as(f.counter).post(reverse("dropbox-counts", args=[box]), {
        "currency": [{"denomination": "100", "count": 5}], "chips": [{"denomination": "25", "count": 2}],
        "markers": "0", "coupons": "10.00"}, format="json")
    assert r.status_code == 201, r.json()
    count = r.json()["id"]
    r = api_as(f.counter).post(reverse("softcount-sign", args=[count]), format="json")
    assert r.status_code == 400 and "signed_by" in r.json()
    r = api_as(f.second_counter).post(reverse("softcount-sign", args=[count]), format="json")
    assert r.status_code == 200 and r.json()["signed_by"] == str(f.second_counter)
    assert r.json()["drop"] == "550.00"
    csv = api_as(f.finance).get(reverse("softcount-export"), {"gaming_day": day, "file": "csv"})
    assert csv.status_code == 200 and "550.00" in csv.content.decode("utf-8-sig")
    xlsx = api_as(f.finance).get(reverse("buyin-export"), {"gaming_day": day, "file": "xlsx"})
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"


def test_bad_input_is_a_field_level_400_and_nothing_is_stored(db):
    f = drop_floor()
    pit = api_as(f.pit_boss)
    for body, field in (({"seat": 3, "kind": "cash", "amount": "-5"}, "amount"),
                        ({"seat": 3, "kind": "cash", "amount": "1e3"}, "amount"),
                        ({"seat": 3, "kind": "loan", "amount": "5"}, "kind"),
                        ({"seat": 0, "kind": "cash", "amount": "5"}, "seat")):
        r = pit.post(reverse("buyin-list"), {"table": f.table.pk, **body}, format="json")
        assert r.status_code == 400 and field in r.json(), (body, r.json())
    closed = TableFactory(label="BJ-2", pit=f.table.pit)
    r = pit.post(reverse("buyin-list"), {"table": closed.pk, "seat": 1, "kind": "cash", "amount": "5"}, format="json")
    assert r.status_code == 400 and "closed" in r.json()["table"][0]
    assert not BuyIn.objects.exists()
    b = pit.post(reverse("buyin-list"), {"table": f.table.pk, "seat": 1, "kind": "cash", "amount": "5"},
                 format="json").json()
    # The box was made by the buy-in but never dropped: no count.
    box = api_as(f.counter).get(reverse("dropbox-list")).json()["results"][0]["id"]
    r = api_as(f.counter).post(reverse("dropbox-counts", args=[box]), {"currency": [{"denomination": "5", "count": 1}]},
                               format="json")
    assert r.status_code == 400 and "never dropped" in r.json()["box"][0]
    api_as(f.counter).post(reverse("dropbox-drop"), {"table": f.table.pk, "gaming_day": b["gaming_day"]}, format="json")
    for body, where in (({"currency": [{"denomination": "3", "count": 1}]}, "currency[0].denomination"),
                        ({"chips": [{"denomination": "25", "count": 1.5}]}, "chips[0].count"),
                        ({"chips": [{"denomination": "25", "count": -2}]}, "chips[0].count"),
                        ({"markers": "-1"}, "markers")):
        r = api_as(f.counter).post(reverse("dropbox-counts", args=[box]), body, format="json")
        assert r.status_code == 400 and where in r.json(), (body, r.json())
    assert not SoftCount.objects.exists()
    r = api_as(f.pit_boss).post(reverse("buyin-void", args=[b["id"]]), {"reason": "wrong seat", "replacement": {
        "seat": 2, "kind": "cash", "amount": "5.00"}}, format="json")
    assert r.status_code == 200 and r.json()["voided"] is True
    assert BuyIn.objects.get(corrects_id=b["id"]).amount == D("5.00")
