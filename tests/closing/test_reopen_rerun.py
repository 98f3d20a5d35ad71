"""Reopen and re-run: a gaming manager reopens a closed day with a reason; the pit boss's
correction goes through; the final report's re-run records what changed (a figure checked by
hand) and closes the day again; the report page and the API show the history."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tables.closed_days import closed_day_message
from tables.closing.models import DayClose
from tables.closing.services.check import day_close_current
from tables.services.rounds import round_correct
from tests.closing.helpers import DAY, final_report, played_day
from tests.conftest import api_as
from tests.factories import user_with_role
from tests.tables.rounds_data import ROUNDS

pytestmark = pytest.mark.django_db(transaction=True)

CORRECT = ROUNDS["ante_up_21"]["correct"][0]


def _closed_day():
    d = played_day()
    d.sign()
    report = final_report(d.f.casino)
    close = day_close_current(d.f.casino.pk, DAY)
    assert close is not None
    return d, report, close


def test_reopen_correct_rerun_and_the_history_shows_what_changed():
    d, report, close = _closed_day()
    casino, boss, manager = d.f.casino, d.f.pit_boss, d.f.manager
    with pytest.raises(ValidationError) as refused:
        round_correct(round=d.round, revision=1, data=CORRECT, reason="paid 10 on the 21", author=boss)
    assert refused.value.message_dict == {"gaming_day": [closed_day_message(DAY)]}

    url = reverse("dayclose-reopen", args=[close.pk])
    assert api_as(boss).post(url, {"reason": "x"}, format="json").status_code == 403
    assert api_as(d.f.finance).post(url, {"reason": "x"}, format="json").status_code == 403
    for body in ({}, {"reason": "   "}):
        response = api_as(manager).post(url, body, format="json")
        assert response.status_code == 400 and "reason" in response.json(), response.json()
    assert day_close_current(casino.pk, DAY) == close  # nothing stored

    response = api_as(manager).post(url, {"reason": "the 21 bet of round 1 was paid 10, keyed 5"}, format="json")
    assert response.status_code == 201, response.json()
    reopen = response.json()["reopen"]
    assert reopen["reason"] == "the 21 bet of round 1 was paid 10, keyed 5" and reopen["reopened_by"] == "gm"
    assert reopen["rerun"] is None
    again = api_as(manager).post(url, {"reason": "twice"}, format="json")
    assert again.status_code == 400 and again.json()["gaming_day"] == [f"gaming day {DAY} is not closed"]

    status = api_as(d.f.finance).get(reverse("dayclose-status"), {"casino": casino.pk, "gaming_day": str(DAY)}).json()
    assert status["closed"] is False and "re-run" in status["waiting"][0]

    # The correction: the underpaid 21 bet (10 to win, keyed 5) paid in full.
    corrected = api_as(boss).post(reverse("round-corrections", args=[d.round.pk]),
                                  {"revision": 1, "reason": "paid 10 on the 21", "round": CORRECT}, format="json")
    assert corrected.status_code == 200, corrected.json()
    assert day_close_current(casino.pk, DAY) is None  # open until the re-run

    final_report(casino)
    second = day_close_current(casino.pk, DAY)
    assert second is not None and second.pk != close.pk and DayClose.objects.count() == 2

    # By hand: the seat won 10 + 10 + 10 (21 bet, ante, bet); recorded before as 5 + 10 + 10.
    # House win -25.00 -> -30.00, paid 25.00 -> 30.00, the dealer error (recorded - expected) -5.00 -> 0.00.
    history = api_as(d.f.finance).get(reverse("dayclose-detail", args=[close.pk])).json()
    changes = {c["line"]: c for c in history["reopen"]["rerun"]["changes"]}
    table = changes[f"table:{d.f.table.pk}"]
    assert table["change"] == "changed" and table["label"] == f"{d.f.table.pit.name} / BJ-1"
    assert table["columns"]["win"] == ["-25.00", "-30.00"]
    assert table["columns"]["paid"] == ["25.00", "30.00"]
    assert table["columns"]["error_cost"] == ["-5.00", "0.00"]
    assert "handle" not in table["columns"]  # unchanged columns are not listed
    assert changes["floor:floor"]["columns"]["win"] == ["-25.00", "-30.00"]

    page = api_as(d.f.finance).get(reverse("reports-day", args=[report.pk]))
    html = page.content.decode()
    assert "the 21 bet of round 1 was paid 10, keyed 5" in html and "gm" in html
    assert "-25.00" in html and "-30.00" in html and 'class="day-closed"' in html


def test_a_run_requested_before_the_reopen_is_not_its_rerun():
    from tables.closing.services.close import final_run_record
    from tables.closing.services.reopen import day_reopen

    d, report, close = _closed_day()
    reopen = day_reopen(casino=d.f.casino, gaming_day=DAY, reason="recount BJ-1", author=d.f.manager)
    final_run_record(casino_id=d.f.casino.pk, gaming_day=DAY, report_id=report.pk,
                     run_id="00000000-0000-0000-0000-00000000000a", requested_at=close.closed_at,
                     finished_at=reopen.reopened_at, lines={})
    assert day_close_current(d.f.casino.pk, DAY) is None
    reopen.refresh_from_db()
    assert not hasattr(reopen, "rerun")


def test_only_a_gaming_manager_of_the_casino_reopens_on_the_page(client):
    d, report, close = _closed_day()
    url = reverse("closing-reopen", args=[close.pk])
    client.force_login(d.f.finance)
    assert client.get(url).status_code == 403
    other = user_with_role("gaming_manager", username="gm-elsewhere", casinos=())
    client.force_login(other)
    assert client.get(url).status_code == 404
    client.force_login(d.f.manager)
    page = client.get(url)
    assert page.status_code == 200 and b"confirm-reopen" in page.content
    refused = client.post(url, {"confirm": "yes", "reason": ""}, follow=True)
    assert b"say why the day is reopened" in refused.content and day_close_current(d.f.casino.pk, DAY) == close
    done = client.post(url, {"confirm": "yes", "reason": "fill F-000001 keyed at the wrong table"}, follow=True)
    assert done.status_code == 200 and day_close_current(d.f.casino.pk, DAY) is None
    html = done.content.decode()
    assert "fill F-000001 keyed at the wrong table" in html and "rerun-after-reopen" in html
