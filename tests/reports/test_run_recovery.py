"""A run's heartbeat, retrying a stale run at once, slices and plans delivered twice, and the
gaming days a report may be asked for (the casino's life). The real worker killed mid-run is
in test_worker_crash.py."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from io import StringIO

import pytest
from django.conf import settings as live_settings
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from audit.reports.models import DailyReport, ReportChunk, ReportLine
from audit.reports.services import runs
from audit.reports.services.runs import report_request
from tests.conftest import api_as
from tests.factories import CasinoFactory, user_with_role
from tests.reports.helpers import independent_totals, simulated_day

pytestmark = pytest.mark.django_db(transaction=True)

DAY = date(2026, 6, 11)


@pytest.fixture
def sim(settings):
    settings.REPORTS_CHUNK_ROUNDS = 9
    return simulated_day(day=DAY, rounds_per_table=6, seed=31)


def _running(casino, *, started: timedelta, heartbeat: timedelta | None) -> DailyReport:
    now = timezone.now()
    return DailyReport.objects.create(
        casino=casino,
        gaming_day=DAY,
        status=DailyReport.RUNNING,
        runs=1,
        chunks_total=180,
        chunks_done=179,
        queued_at=now - started,
        started_at=now - started,
        heartbeat_at=None if heartbeat is None else now - heartbeat,
    )


# --- the heartbeat and staleness -----------------------------------------------------------


def test_a_run_that_made_progress_recently_is_not_stale_however_old(sim, settings):
    settings.REPORTS_STALE_SECONDS = 300
    _running(sim["casino"], started=timedelta(hours=2), heartbeat=timedelta(seconds=20))
    with pytest.raises(ValidationError, match="already running") as refused:
        report_request(casino=sim["casino"], gaming_day=DAY, via="api")
    assert "gaming_day" in refused.value.message_dict


def test_a_silent_run_is_retried_at_once_not_half_an_hour_after_its_start(sim, settings):
    settings.REPORTS_STALE_SECONDS = 300
    report = _running(sim["casino"], started=timedelta(minutes=7), heartbeat=timedelta(minutes=6))
    assert runs.run_is_stale(report)
    retried = report_request(casino=sim["casino"], gaming_day=DAY, via="api")
    retried.refresh_from_db()
    assert retried.status == DailyReport.DONE and retried.runs == 2, retried.error


def test_every_step_of_a_run_beats(sim, monkeypatch):
    beats: list[str] = []
    real = runs.run_heartbeat

    def spy(report_id, run_id, step="?"):
        beats.append(step)
        return real(report_id, run_id, step)

    monkeypatch.setattr(runs, "run_heartbeat", spy)
    report = report_request(casino=sim["casino"], gaming_day=DAY, via="command")
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    assert beats[0] == "plan" and beats[-1] == "combine"
    assert beats.count("slice") == 2 * report.chunks_total  # when a slice starts and when it ends
    assert report.heartbeat_at is not None and report.heartbeat_at >= report.started_at


def test_page_api_and_command_offer_the_retry_of_a_stale_run(sim, settings):
    settings.REPORTS_STALE_SECONDS = 300
    report = _running(sim["casino"], started=timedelta(minutes=9), heartbeat=timedelta(minutes=8))
    finance = api_as(user_with_role("finance"))
    body = finance.get(reverse("dailyreport-detail", args=[report.pk])).json()
    assert body["stale"] is True and body["heartbeat_at"]
    page = finance.get(reverse("reports-day", args=[report.pk])).content.decode()
    assert "no progress since" in page and ">Retry<" in page
    again = finance.post(reverse("dailyreport-rerun", args=[report.pk]), {}, format="json")
    assert again.status_code == 202, again.json()
    # A live run: no retry button, and the API says why it refuses.
    DailyReport.objects.filter(pk=report.pk).update(
        status=DailyReport.RUNNING, heartbeat_at=timezone.now()
    )
    page = finance.get(reverse("reports-day", args=[report.pk])).content.decode()
    assert ">Retry<" not in page
    refused = finance.post(reverse("dailyreport-rerun", args=[report.pk]), {}, format="json")
    assert refused.status_code == 400 and "already running" in refused.json()["gaming_day"][0]
    with pytest.raises(CommandError, match="already running"):
        call_command("reconcile", "--gaming-day", str(DAY), "--casino", str(report.casino_id))
    DailyReport.objects.filter(pk=report.pk).update(
        heartbeat_at=timezone.now() - timedelta(minutes=6)
    )
    out = StringIO()
    call_command("reconcile", "--gaming-day", str(DAY), "--casino", str(report.casino_id), stdout=out)
    assert "done" in out.getvalue()


# --- delivered twice: nothing counted twice -------------------------------------------------


def test_a_slice_run_twice_and_a_plan_delivered_twice_count_once(sim):
    report = report_request(casino=sim["casino"], gaming_day=DAY, via="command")
    report.refresh_from_db()
    assert report.status == DailyReport.DONE, report.error
    run_id = str(report.run_id)
    chunk_ids = sorted(ReportChunk.objects.filter(report=report).values_list("pk", flat=True))
    # Redelivered after its worker died: the plan gives the slices not done, plans nothing new,
    # and leaves a finished report finished.
    assert runs.report_plan(report_id=report.pk, run_id=run_id) == []
    assert DailyReport.objects.get(pk=report.pk).status == DailyReport.DONE
    DailyReport.objects.filter(pk=report.pk).update(status=DailyReport.RUNNING)
    ReportChunk.objects.filter(pk=chunk_ids[0]).update(done=False)
    DailyReport.objects.filter(pk=report.pk).update(chunks_done=len(chunk_ids) - 1)
    assert runs.report_plan(report_id=report.pk, run_id=run_id) == [chunk_ids[0]]
    assert sorted(ReportChunk.objects.filter(report=report).values_list("pk", flat=True)) == chunk_ids
    for _ in range(2):  # the slice, then its duplicate
        assert runs.report_chunk_run(chunk_id=chunk_ids[0]) is True
    report.refresh_from_db()
    assert report.chunks_done == report.chunks_total == len(chunk_ids)
    assert report.status == DailyReport.DONE, report.error
    floor = ReportLine.objects.get(report=report, level="floor")
    assert floor.handle == independent_totals(sim["casino"], DAY)["floor"]["handle"]


def test_a_slice_that_keeps_killing_its_worker_fails_the_run_with_the_reason(sim, settings):
    settings.REPORTS_SLICE_ATTEMPTS = 3
    report = report_request(casino=sim["casino"], gaming_day=DAY, via="command")
    report.refresh_from_db()
    DailyReport.objects.filter(pk=report.pk).update(status=DailyReport.RUNNING)
    chunk = ReportChunk.objects.filter(report=report).first()
    ReportChunk.objects.filter(pk=chunk.pk).update(done=False, attempts=3)
    assert runs.report_chunk_run(chunk_id=chunk.pk) is False
    report.refresh_from_db()
    assert report.status == DailyReport.FAILED
    assert f"slice {chunk.index}" in report.error and "4 times" in report.error


# --- the Celery settings that bring a lost slice back ---------------------------------------


def test_celery_brings_a_lost_task_back_within_minutes():
    assert live_settings.CELERY_TASK_ACKS_LATE is True
    assert live_settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True
    visibility = live_settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert visibility <= 15 * 60, "a lost slice comes back within minutes, not an hour"
    # soft < hard < visibility is refused at start-up by settings.py itself.
    assert visibility < live_settings.REPORTS_STALE_SECONDS


# --- the casino's life ----------------------------------------------------------------------


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "2999-01-01", "2026-06-09"])
def test_days_outside_the_casinos_life_are_refused_with_a_field_error(sim, day):
    client = api_as(user_with_role("finance"))
    response = client.post(
        reverse("dailyreport-list"),
        {"casino": sim["casino"].pk, "gaming_day": day},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert list(response.json()) == ["gaming_day"], response.json()
    assert not DailyReport.objects.filter(casino=sim["casino"]).exists(), "nothing is queued"
    page = client.post(
        reverse("reports"), {"casino": sim["casino"].pk, "gaming_day": day}, format="multipart"
    )
    assert page.status_code == 400
    html = page.content.decode()
    assert 'id="gaming-day-error"' in html and 'aria-invalid="true"' in html
    assert f'value="{day}"' in html, "the day entered is kept"
    assert "Gaming day: " in html and ("has not ended yet" in html or "first gaming day" in html)
    with pytest.raises(CommandError, match="--gaming-day"):
        call_command("reconcile", "--gaming-day", day, "--casino", str(sim["casino"].pk))
    assert not DailyReport.objects.filter(casino=sim["casino"]).exists()


def test_the_first_recorded_day_and_the_last_ended_day_are_accepted(sim):
    first = report_request(casino=sim["casino"], gaming_day=DAY, via="command")
    assert first.gaming_day == DAY
    today = runs.current_gaming_day(sim["casino"])
    yesterday = today - timedelta(days=1)
    assert report_request(casino=sim["casino"], gaming_day=yesterday, via="command")
    with pytest.raises(ValidationError, match="has not ended yet"):
        report_request(casino=sim["casino"], gaming_day=today, via="command")


def test_a_new_casino_reports_from_the_day_it_was_created(db):
    casino = CasinoFactory(name="Opened Today", time_zone="UTC", gaming_day_start_hour=0)
    created = casino.history.earliest("history_date").history_date.date()
    with pytest.raises(ValidationError, match="first gaming day") as refused:
        report_request(
            casino=casino,
            gaming_day=created - timedelta(days=1),
            via="command",
            now=datetime.combine(created + timedelta(days=2), datetime.min.time(), tzinfo=UTC),
        )
    assert str(created) in refused.value.message_dict["gaming_day"][0]


def test_the_command_for_every_casino_skips_one_that_did_not_exist_yet(sim):
    """Without --casino, a casino younger than the day is named and skipped; the others are
    still reconciled (before: the whole command stopped at the first refusal)."""
    from tests.reports.helpers import casino_since

    young = casino_since(DAY + timedelta(days=3), name="Young Casino")
    out, err = StringIO(), StringIO()
    call_command("reconcile", "--gaming-day", str(DAY), stdout=out, stderr=err)
    assert DailyReport.objects.filter(casino=sim["casino"], gaming_day=DAY).exists()
    assert not DailyReport.objects.filter(casino=young).exists()
    assert "skipped Young Casino: --gaming-day:" in err.getvalue()
    with pytest.raises(CommandError, match="Young Casino: --gaming-day"):
        call_command("reconcile", "--gaming-day", str(DAY), "--casino", str(young.pk))
