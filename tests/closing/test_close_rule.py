"""A gaming day closes exactly when its final report is done and every box of the day is
dropped and its count signed: in either order, and not before."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db import IntegrityError, connection, transaction

from audit.reports.models import DailyReport
from tables.accounting.services.buyins import buy_in_record
from tables.accounting.services.soft_count import soft_count_enter, soft_count_sign
from tables.closing.models import DayClose, FinalRun
from tables.closing.services.check import day_close_current
from tables.closing.services.close import close_waiting
from tests.closing.helpers import DAY, final_report, played_day

pytestmark = pytest.mark.django_db(transaction=True)


def _closed(casino):
    return day_close_current(casino.pk, DAY)


def test_count_signed_first_then_the_report_closes_the_day():
    d = played_day()
    casino = d.f.casino
    assert close_waiting(casino.pk, DAY) == ["the final report has not finished",
                                             "revision 1 of the count of BJ-1 is not signed"]
    d.sign()
    assert _closed(casino) is None
    report = final_report(casino)
    assert report.status == DailyReport.DONE, report.error
    close = _closed(casino)
    assert close is not None
    assert close.final_run.report_id == report.pk and str(close.final_run.run_id) == str(report.run_id)
    assert close.counts == [{"box": d.box.pk, "table": "BJ-1", "table_id": d.f.table.pk, "revision": 1,
                             "signature": d.count.signature.pk, "drop": "500.00"}]
    assert close.final_run.lines["floor:floor"]["rounds"] == 1


def test_report_first_then_the_last_signature_closes_the_day():
    d = played_day()
    casino = d.f.casino
    final_report(casino)
    assert _closed(casino) is None
    assert close_waiting(casino.pk, DAY) == ["revision 1 of the count of BJ-1 is not signed"]
    d.sign()
    assert _closed(casino) is not None
    assert DayClose.objects.count() == 1


def test_a_count_signed_after_the_report_closes_the_day_only_with_the_run_that_holds_it(monkeypatch):
    """The signature re-runs the finished report (audit/reports/services/runs.count_signed_rerun);
    the day waits for that run, not closing on figures that lack the count."""
    from audit.reports.services import runs

    d = played_day()
    casino = d.f.casino
    final_report(casino)
    monkeypatch.setattr(runs, "report_request", lambda **kw: None)  # the re-run is not started ...
    d.sign()
    assert _closed(casino) is None
    assert close_waiting(casino.pk, DAY) == [
        "the final report does not hold the signed count of BJ-1 yet (a signature re-runs a finished report)"]
    monkeypatch.undo()
    final_report(casino)  # ... until it is
    assert _closed(casino) is not None


def test_a_box_not_dropped_or_a_revision_not_signed_keeps_the_day_open(django_user_model):
    from datetime import timedelta

    from tables.accounting.services.drop_boxes import drop_box_drop
    from tables.services.sessions import table_session_close, table_session_open
    from tests.factories import DealerFactory, TableFactory

    d = played_day()
    casino = d.f.casino
    second = TableFactory(label="BJ-2", pit=d.f.table.pit)
    session = table_session_open(table=second, dealer=DealerFactory(casino=casino), author=d.f.pit_boss,
                                 at=d.session.opened_at)
    buy_in_record(table=second, seat=2, kind="cash", amount=D("100.00"), author=d.f.pit_boss,
                  at=d.session.opened_at + timedelta(minutes=5))
    table_session_close(session=session, author=d.f.pit_boss, at=d.session.opened_at + timedelta(minutes=10))
    d.sign()
    final_report(casino)
    assert _closed(casino) is None
    assert close_waiting(casino.pk, DAY) == ["the box of BJ-2 is not dropped"]
    box = drop_box_drop(table=second, gaming_day=DAY, author=d.f.counter, at=d.after)
    first = soft_count_enter(box=box, author=d.f.counter, currency={"100": 1}, at=d.after)
    soft_count_sign(count=first, author=d.f.second_counter, at=d.after)
    assert _closed(casino) is not None  # the last signature closed it
    assert [c["table"] for c in _closed(casino).counts] == ["BJ-1", "BJ-2"]


def test_a_provisional_report_does_not_close_a_day():
    from audit.reports.closing import report_finished_hook

    d = played_day()
    d.sign()
    report = DailyReport.objects.create(casino=d.f.casino, gaming_day=DAY, provisional=True,
                                        status=DailyReport.DONE)
    report_finished_hook(sender=DailyReport, report=report)
    assert not FinalRun.objects.exists() and _closed(d.f.casino) is None


@pytest.mark.postgres
def test_postgres_refuses_changing_or_deleting_a_close():
    d = played_day()
    d.sign()
    final_report(d.f.casino)
    close = _closed(d.f.casino)
    for sql in (f"UPDATE closing_dayclose SET closed_at = now() WHERE id = {close.pk}",
                f"DELETE FROM closing_dayclose WHERE id = {close.pk}",
                f"UPDATE closing_finalrun SET lines = '{{}}' WHERE id = {close.final_run_id}"):
        with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    assert DayClose.objects.filter(pk=close.pk).exists()
    with pytest.raises(IntegrityError), transaction.atomic():
        from tables.closing.models import DayReopen

        DayReopen.objects.create(close=close, casino=d.f.casino, gaming_day=DAY, reason="", reopened_by=d.f.manager,
                                 reopened_at=close.closed_at, before=close.final_run)


def test_a_finding_review_on_a_closed_day_is_allowed_and_the_close_stands():
    """A review is a decision about a record, not the record: surveillance is never blocked. The
    closed report keeps the figures it closed on until a reopen and re-run (README)."""
    from django.urls import reverse

    from tests.conftest import api_as
    from tests.factories import user_with_role

    d = played_day()
    d.sign()
    final_report(d.f.casino)
    close = _closed(d.f.casino)
    finding = d.round.findings.get()
    response = api_as(user_with_role("surveillance", username="eye")).post(
        reverse("finding-review", args=[finding.pk]), {"decision": "confirm", "note": "seen on camera"},
        format="json")
    assert response.status_code == 200, response.json()
    assert _closed(d.f.casino) == close
