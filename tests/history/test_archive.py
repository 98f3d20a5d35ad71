"""Retention: a closed month is detached to the archive schema (out of every page and report,
its chain links counted as archived), attached back for an investigation with its chain
verifying, and dropped only past the retention period; each step needs a reason and is
logged (PostgreSQL)."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from audit.reports.selectors import day_rounds
from audit.selectors import dealer_table
from tables.closing.models import DayClose, FinalRun
from tables.history.partitions import ensure_months
from tables.models import Finding, HistoryArchiveEvent, Round, RoundRevision, Wager
from tests.audit.test_hash_chain import verify_output
from tests.conftest import api_as
from tests.factories import user_with_role
from tests.history.helpers import months_ago, postgres_only, rounds_on

pytestmark = [pytest.mark.django_db, postgres_only]


def close_directly(casino, day) -> DayClose:
    """The day marked closed (the close rule's own tests play it through; here it is given)."""
    now = timezone.now()
    run = FinalRun.objects.create(casino=casino, gaming_day=day, report_id=0, run_id=uuid.uuid4(), requested_at=now,
                                  finished_at=now, recorded_at=now, lines={})
    return DayClose.objects.create(casino=casino, gaming_day=day, closed_at=now, final_run=run, counts=[])


def closed_month(month: date, days=(2, 20)):
    """Rounds on two days of ``month``, both days closed; the audited rounds."""
    ensure_months(month, month)
    audited = rounds_on([month + timedelta(days=d) for d in days])
    casino = audited[0].round.table.pit.casino
    for day in {a.round.gaming_day for a in audited}:
        close_directly(casino, day)
    return audited


def archive(*args, **kwargs) -> str:
    from io import StringIO

    out = StringIO()
    call_command("history_archive", *args, stdout=out, **kwargs)
    return out.getvalue()


def test_a_detached_month_leaves_the_pages_and_comes_back_with_its_chain():
    month = months_ago(3)
    audited = closed_month(month)
    kept = rounds_on([months_ago(0)])[0].round  # another month stays
    ids = [a.round.pk for a in audited]
    counts = (Round.objects.filter(pk__in=ids).count(), RoundRevision.objects.filter(round_id__in=ids).count(),
              Wager.objects.filter(round_id__in=ids).count(), Finding.objects.filter(round_id__in=ids).count())
    assert counts[3] > 0
    superuser = user_with_role("superuser")
    client = api_as(superuser)
    assert client.get(reverse("round-detail", args=[ids[0]])).status_code == 200
    casino, day = audited[0].round.table.pit.casino, audited[0].round.gaming_day

    def reported() -> tuple[int, int]:
        """The daily report's rounds of the day, and the dealer report's rounds over the month."""
        dealers = dealer_table(since=month, until=month + timedelta(days=27), casinos=[casino.pk])
        return day_rounds(casino, day).count(), sum(row["rounds"] for row in dealers)

    assert reported() == (1, 2)

    out = archive(detach=f"{month:%Y-%m}", reason="quarterly archive to cold storage")
    assert f"{month:%Y-%m} detach" in out, out
    assert not Round.objects.filter(pk__in=ids).exists()
    assert not Wager.objects.filter(round_id__in=ids).exists() and not Finding.objects.filter(round_id__in=ids)
    assert Round.objects.filter(pk=kept.pk).exists()
    assert client.get(reverse("round-detail", args=[ids[0]])).status_code == 404
    assert client.get(reverse("tablet-round", args=[ids[0]])).status_code == 404
    assert reported() == (0, 0)
    listed = client.get(reverse("round-list")).json()["results"]
    assert not {r["id"] for r in listed} & set(ids)
    verified = verify_output()
    assert "every chain verifies" in verified and "archive schema: not checked" in verified, verified
    # Archived rows keep their guard.
    name = f"archive.tables_wager_y{month:%Y}m{month:%m}"
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"UPDATE {name} SET stake = 0")  # noqa: S608

    archive(attach=f"{month:%Y-%m}", reason="investigation 2026-117: dealer's payouts in that month")
    assert (Round.objects.filter(pk__in=ids).count(), RoundRevision.objects.filter(round_id__in=ids).count(),
            Wager.objects.filter(round_id__in=ids).count(), Finding.objects.filter(round_id__in=ids).count()) == counts
    assert client.get(reverse("round-detail", args=[ids[0]])).status_code == 200
    assert reported() == (1, 2)
    verified = verify_output()
    assert "every chain verifies" in verified and "archive schema" not in verified, verified
    with pytest.raises(DatabaseError, match="never deleted"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM tables_round WHERE id = %s", [ids[0]])
    events = list(HistoryArchiveEvent.objects.values_list("action", "month", "reason"))
    assert events == [("detach", month, "quarterly archive to cold storage"),
                      ("attach", month, "investigation 2026-117: dealer's payouts in that month")]
    assert HistoryArchiveEvent.objects.first().partitions[f"tables_round_y{month:%Y}m{month:%m}"] == 2
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        HistoryArchiveEvent.objects.update(reason="rewritten")


def test_a_month_not_closed_the_current_month_and_no_reason_are_refused():
    month = months_ago(2)
    ensure_months(month, month)
    audited = rounds_on([month + timedelta(days=4)])
    with pytest.raises(CommandError, match="is not closed: 1 gaming day"):
        archive(detach=f"{month:%Y-%m}", reason="too early")
    close_directly(audited[0].round.table.pit.casino, audited[0].round.gaming_day)
    with pytest.raises(CommandError, match="reason"):
        archive(detach=f"{month:%Y-%m}")
    with pytest.raises(CommandError, match="current month or later"):
        archive(detach=f"{months_ago(0):%Y-%m}", reason="no")
    with pytest.raises(CommandError, match="not a month"):
        archive(detach="2026-13x", reason="no")
    with pytest.raises(CommandError, match="no archived partition"):
        archive(attach=f"{month:%Y-%m}", reason="not archived")
    assert not HistoryArchiveEvent.objects.exists()
    assert Round.objects.filter(pk=audited[0].round.pk).exists()


def test_only_an_archived_month_past_retention_is_dropped(settings):
    settings.HISTORY_RETENTION_YEARS = 7
    young, old = months_ago(3), date(2015, 3, 1)
    closed_month(young)
    old_rounds = [a.round.pk for a in closed_month(old)]
    archive(detach=f"{young:%Y-%m}", reason="archive")
    with pytest.raises(CommandError, match="younger than the retention period of 7 years"):
        archive(drop=f"{young:%Y-%m}", reason="too soon")
    with pytest.raises(CommandError, match="not archived"):
        archive(drop=f"{old:%Y-%m}", reason="still attached")
    listing = archive(list=True)
    assert f"{old:%Y-%m}           2 rounds  attached  closed  past retention" in listing, listing
    assert f"{young:%Y-%m}           2 rounds  archived" in listing, listing
    archive(detach=f"{old:%Y-%m}", reason="archive")
    archive(drop=f"{old:%Y-%m}", reason="retention period over; dump kept in vault 7")
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_class WHERE relname LIKE 'tables_%%_y2015m03'")
        assert cursor.fetchone()[0] == 0
    assert not Round.objects.filter(pk__in=old_rounds).exists()
    assert list(HistoryArchiveEvent.objects.values_list("action", flat=True)) == ["detach", "detach", "drop"]


def _month_keys(month: date, schema: str) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.conname FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid "
                       "JOIN pg_namespace n ON n.oid = r.relnamespace WHERE n.nspname = %s AND c.contype = 'f' "
                       "AND r.relname LIKE %s AND c.conname LIKE '%%_day_fk'", [schema, f"%_y{month:%Y}m{month:%m}"])
        return {name for (name,) in cursor.fetchall()}


def test_a_months_keys_go_with_it_and_an_archive_without_them_gets_them_back():
    month = months_ago(4)
    closed_month(month)
    keys = _month_keys(month, "public")
    assert len(keys) == 5, keys  # revisions to rounds, wagers and findings to both
    archive(detach=f"{month:%Y-%m}", reason="archive")
    assert _month_keys(month, "archive") == keys  # they tie the month's partitions to each other only
    # A month detached before the keys were made by month lost them on the way out.
    with connection.cursor() as cursor:
        for name in keys:
            table = name.split(f"_y{month:%Y}m{month:%m}_")[0] + f"_y{month:%Y}m{month:%m}"
            cursor.execute(f"ALTER TABLE archive.{table} DROP CONSTRAINT {name}")
    assert not _month_keys(month, "archive")
    archive(attach=f"{month:%Y-%m}", reason="investigation")
    assert _month_keys(month, "public") == keys
