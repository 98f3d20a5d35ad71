"""Issue #14 part 3: a finding surveillance reviewed (confirmed or escalated) cannot disappear.

A correction or a void of its round keeps it counted against the dealer and sends it back to
surveillance for a new decision; confirming again keeps it, dismissing with a note releases it.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from audit.selectors import QueueFilters, dealer_stats, dealer_table, finding_queue, floor_average
from audit.services import finding_review
from tables.models import Finding
from tables.services.rounds import round_correct, round_record
from tables.services.sessions import table_session_open
from tests.conftest import api_as
from tests.factories import DealerFactory, PitFactory, RulesetFactory, TableFactory, user_with_role
from tests.pages.test_desk import CORRECT, OVERPAY, UNDERPAY, with_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def pitboss(db):
    return user_with_role("pit_boss")


@pytest.fixture
def surveillance(db):
    return user_with_role("surveillance")


@pytest.fixture
def floor(pitboss):
    """Table A1 with dealer Ann on duty."""
    pit = PitFactory(name="Pit A")
    table = TableFactory(pit=pit, label="A1", ruleset=RulesetFactory(casino=pit.casino))
    ann = DealerFactory(casino=pit.casino, name="Ann")
    table_session_open(table=table, dealer=ann, author=pitboss)
    return {"a": table, "ann": ann}


def _confirmed_overpay(floor, pitboss, surveillance):
    rnd = round_record(table=floor["a"], data=OVERPAY, author=pitboss).round
    finding = rnd.findings.get()
    finding_review(finding=finding, decision="confirm", note="Seen on camera: ante paid 20", author=surveillance)
    return rnd, finding


def _ann(**kw):
    stats = dealer_stats(kw.pop("dealer"))
    return stats["rounds"], stats["error_rounds"], stats["overpaid"], stats["findings"]


def test_a_correction_keeps_a_confirmed_error_counted_and_sends_it_back(floor, pitboss, surveillance):
    rnd, finding = _confirmed_overpay(floor, pitboss, surveillance)
    assert _ann(dealer=floor["ann"]) == (1, 1, Decimal("10.00"), 1)

    response = api_as(pitboss).post(
        reverse("round-corrections", args=[rnd.pk]),
        {"revision": 1, "reason": "ante was paid 10, slip was wrong", "round": CORRECT},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["findings"] == []  # revision 2 is clean

    # Still the dealer's error everywhere: dealer page, dealer table, the floor.
    assert _ann(dealer=floor["ann"]) == (1, 1, Decimal("10.00"), 1)
    row = next(r for r in dealer_table() if r["dealer"] == floor["ann"])
    assert (row["error_rounds"], row["overpaid"]) == (1, Decimal("10.00"))
    assert floor_average()["overpaid"] == Decimal("10.00")

    finding.refresh_from_db()
    assert finding.status == Finding.CONFIRMED  # the standing decision, never superseded
    assert finding.reopened_at is not None
    assert "revision 2" in finding.reopened_reason and "ante was paid 10" in finding.reopened_reason
    last = finding.history.order_by("-history_date").first()
    assert last.reopened_at is not None and "sent back to surveillance" in last.history_change_reason

    # Back in surveillance's queue (the default view and its own filter).
    assert finding in finding_queue(QueueFilters())
    assert list(finding_queue(QueueFilters(status="reopened"))) == [finding]

    # Surveillance decides again: confirming keeps it, and it leaves the queue.
    finding_review(finding=finding, decision="confirm", note="camera: 20 paid, correction wrong",
                   author=surveillance)
    finding.refresh_from_db()
    assert (finding.status, finding.reopened_at) == (Finding.CONFIRMED, None)
    assert finding not in finding_queue(QueueFilters())
    assert _ann(dealer=floor["ann"]) == (1, 1, Decimal("10.00"), 1)


def test_dismissing_a_reopened_finding_with_a_note_releases_it(floor, pitboss, surveillance):
    rnd, finding = _confirmed_overpay(floor, pitboss, surveillance)
    round_correct(round=rnd, revision=1, data=CORRECT, reason="slip was wrong", author=pitboss)
    with pytest.raises(Exception, match="note"):
        finding_review(finding=finding, decision="dismiss", note=" ", author=surveillance)
    finding_review(finding=finding, decision="dismiss", note="second camera: 10 paid", author=surveillance)
    finding.refresh_from_db()
    assert (finding.status, finding.reopened_at) == (Finding.DISMISSED, None)
    assert _ann(dealer=floor["ann"]) == (1, 0, Decimal("0.00"), 0)
    # Not a request for another correction: the round was corrected already.
    from tables.pages.selectors import corrections_requested

    assert not corrections_requested(today=rnd.gaming_day).exists()
    reasons = list(finding.history.order_by("history_date").values_list("history_change_reason", flat=True))
    assert reasons[-1] == "dismiss: second camera: 10 paid"
    assert any("sent back to surveillance" in (r or "") for r in reasons)


def test_a_correction_that_keeps_the_same_finding_counts_it_once(floor, pitboss, surveillance):
    rnd, finding = _confirmed_overpay(floor, pitboss, surveillance)
    round_correct(round=rnd, revision=1, data=with_player(OVERPAY, "P-9"), reason="player card", author=pitboss)
    assert rnd.findings.count() == 2  # revision 2 found the same overpay again
    assert _ann(dealer=floor["ann"]) == (1, 1, Decimal("10.00"), 1)
    assert floor_average()["findings"] == 1
    # If surveillance releases the reviewed one, revision 2's own finding speaks for the wager.
    finding_review(finding=finding, decision="dismiss", note="see revision 2", author=surveillance)
    assert _ann(dealer=floor["ann"]) == (1, 1, Decimal("10.00"), 1)


def test_an_escalated_finding_also_stands_through_a_correction(floor, pitboss, surveillance):
    rnd = round_record(table=floor["a"], data=UNDERPAY, author=pitboss).round
    finding = rnd.findings.get()
    finding_review(finding=finding, decision="escalate", note="ask the shift manager", author=surveillance)
    round_correct(round=rnd, revision=1, data=CORRECT, reason="paid in full", author=pitboss)
    finding.refresh_from_db()
    assert finding.status == Finding.ESCALATED and finding.reopened_at is not None
    assert dealer_stats(floor["ann"])["underpaid"] == Decimal("5.00")


def test_an_open_finding_is_still_superseded_by_a_correction(floor, pitboss, surveillance):
    rnd = round_record(table=floor["a"], data=OVERPAY, author=pitboss).round
    round_correct(round=rnd, revision=1, data=CORRECT, reason="slip was wrong", author=pitboss)
    finding = rnd.findings.get()
    assert (finding.status, finding.reopened_at) == (Finding.SUPERSEDED, None)
    assert _ann(dealer=floor["ann"]) == (1, 0, Decimal("0.00"), 0)


def test_a_void_keeps_a_confirmed_error_counted_and_sends_it_back(floor, pitboss, surveillance):
    rnd, finding = _confirmed_overpay(floor, pitboss, surveillance)
    response = api_as(pitboss).post(reverse("round-void", args=[rnd.pk]), {"reason": "misdeal"}, format="json")
    assert response.status_code == 200, response.content
    finding.refresh_from_db()
    assert finding.status == Finding.CONFIRMED
    assert finding.reopened_at is not None and "voided" in finding.reopened_reason
    # A voided round counts for nothing, except the error surveillance confirmed on it.
    assert _ann(dealer=floor["ann"]) == (1, 1, Decimal("10.00"), 1)
    assert finding in finding_queue(QueueFilters())
    finding_review(finding=finding, decision="dismiss", note="misdeal on camera", author=surveillance)
    assert _ann(dealer=floor["ann"]) == (0, 0, Decimal("0.00"), 0)


def test_api_revisions_and_findings_show_both_revisions(floor, pitboss, surveillance):
    rnd, finding = _confirmed_overpay(floor, pitboss, surveillance)
    round_correct(round=rnd, revision=1, data=CORRECT, reason="slip was wrong", author=pitboss)
    revisions = api_as(surveillance).get(reverse("round-revisions", args=[rnd.pk])).json()
    if isinstance(revisions, dict):  # paginated (issue #14 part 6) or not
        revisions = revisions["results"]
    assert [r["number"] for r in revisions] == [1, 2]
    first = revisions[0]["findings"][0]
    assert first["status"] == "confirmed" and first["reopened_at"] and "slip was wrong" in first["reopened_reason"]
    assert revisions[1]["findings"] == [] and revisions[1]["reason"] == "slip was wrong"
    queue = api_as(surveillance).get(reverse("finding-list"), {"reopened": "true"}).json()
    assert [f["id"] for f in queue["results"]] == [finding.pk]
    review = api_as(surveillance).post(
        reverse("finding-review", args=[finding.pk]), {"decision": "confirm", "note": "camera"}, format="json"
    )
    assert review.status_code == 200 and review.json()["reopened_at"] is None
    assert api_as(surveillance).get(reverse("finding-list"), {"reopened": "true"}).json()["results"] == []


def test_desk_round_page_shows_both_revisions_and_asks_for_a_new_decision(client, floor, pitboss, surveillance):
    rnd, finding = _confirmed_overpay(floor, pitboss, surveillance)
    round_correct(round=rnd, revision=1, data=CORRECT, reason="slip was wrong", author=pitboss)
    client.force_login(surveillance)
    page = client.get(reverse("desk-round", args=[rnd.pk])).content.decode()
    assert "Revision 1" in page and "Revision 2" in page and "slip was wrong" in page
    assert "needs a new decision" in page
    assert f'action="{reverse("desk-finding-review", args=[finding.pk])}"' in page
    queue = client.get(reverse("desk-queue")).content.decode()
    assert f'href="{reverse("desk-round", args=[rnd.pk])}' in queue and "needs a new decision" in queue
    client.post(reverse("desk-finding-review", args=[finding.pk]), {"decision": "confirm", "note": "camera"})
    finding.refresh_from_db()
    assert finding.reopened_at is None
    page = client.get(reverse("desk-round", args=[rnd.pk])).content.decode()
    assert "needs a new decision" not in page


def test_the_tablet_warns_before_correcting_a_reviewed_round(client, floor, pitboss, surveillance):
    rnd, _ = _confirmed_overpay(floor, pitboss, surveillance)
    client.force_login(pitboss)
    page = client.get(reverse("tablet-round-correct", args=[rnd.pk])).content.decode()
    assert "surveillance" in page and "stays counted" in page


def test_the_migration_sends_back_reviewed_findings_left_behind_before_the_fix(floor, pitboss, surveillance):
    import importlib

    from django.db import connection, transaction
    from django.db.migrations.executor import MigrationExecutor

    from casino.audit_guard import allow_audit_write

    rnd, finding = _confirmed_overpay(floor, pitboss, surveillance)
    kept, _ = _confirmed_overpay(floor, pitboss, surveillance)  # current revision: not touched
    round_correct(round=rnd, revision=1, data=CORRECT, reason="slip was wrong", author=pitboss)
    with transaction.atomic():  # the state a correction left before this fix
        allow_audit_write()
        Finding.objects.filter(pk=finding.pk).update(reopened_at=None, reopened_reason="")
    migration = importlib.import_module("audit.migrations.0004_finding_reopened")
    # The models as migrated by audit's last migration that still held them: the step's history
    # rows need the findings' gaming day (audit 0007), which the migrations after 0004 give the
    # rows it wrote; the findings moved to the floor app afterwards (tables 0016).
    loader = MigrationExecutor(connection).loader
    apps = loader.project_state(("audit", "0013_finding_day_largest")).apps
    class Editor:  # what the step uses of a schema editor (SQLite's cannot open inside a test)
        def __init__(self):
            self.connection = connection

        def execute(self, sql, params=None):
            with connection.cursor() as cursor:
                cursor.execute(sql, params)

    with transaction.atomic():
        migration._reopen_reviewed_findings(apps, Editor())
    finding.refresh_from_db()
    assert finding.status == Finding.CONFIRMED and finding.reopened_at is not None
    rows = list(finding.history.order_by("history_date").values_list("history_change_reason", flat=True))
    assert "migration audit 0004" in rows[-1]
    assert kept.findings.get().reopened_at is None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_review_waits_for_a_correction_in_progress(floor, pitboss, surveillance, monkeypatch):
    """A decision made while a correction runs would be overwritten by the correction's write
    (it read the findings first): the review takes the round's lock and waits, then sees the
    finding superseded and is refused with a field error."""
    import threading
    import time

    from django.core.exceptions import ValidationError
    from django.db import connection

    import tables.services.rounds as rounds_module

    if connection.vendor != "postgresql":
        pytest.skip("row locks are only meaningful on PostgreSQL")
    rnd = round_record(table=floor["a"], data=OVERPAY, author=pitboss).round
    finding = rnd.findings.get()
    auditing, events = threading.Event(), []
    real_audit = rounds_module.round_audit

    def slow_audit(**kwargs):
        auditing.set()
        time.sleep(1.0)
        events.append("correction audited")
        return real_audit(**kwargs)

    monkeypatch.setattr(rounds_module, "round_audit", slow_audit)

    def correct():
        from django.db import connections

        try:
            round_correct(round=rnd, revision=1, data=CORRECT, reason="slip was wrong", author=pitboss)
        finally:
            connections["default"].close()

    thread = threading.Thread(target=correct)
    thread.start()
    assert auditing.wait(10)
    with pytest.raises(ValidationError, match="superseded revision"):
        try:
            finding_review(finding=finding, decision="escalate", note="camera", author=surveillance)
        finally:
            events.append("review answered")
    thread.join()
    assert events == ["correction audited", "review answered"]
    finding.refresh_from_db()
    assert finding.status == Finding.SUPERSEDED


def test_an_escalated_finding_not_sent_back_is_not_escalated_again(client, floor, pitboss, surveillance):
    """An escalated finding waits for its decision, confirm or dismiss; escalating it again (a new
    note over the standing one) is refused with the field named, by the service, the API and the
    desk alike, as the findings' guard refuses it in PostgreSQL (never a 500)."""
    from django.core.exceptions import ValidationError

    rnd = round_record(table=floor["a"], data=UNDERPAY, author=pitboss).round
    finding = rnd.findings.get()
    finding_review(finding=finding, decision="escalate", note="ask the shift manager", author=surveillance)
    history = finding.history.count()
    with pytest.raises(ValidationError) as refused:
        finding_review(finding=finding, decision="escalate", note="still waiting", author=surveillance)
    assert "already escalated" in " ".join(refused.value.message_dict["decision"])
    answer = api_as(surveillance).post(reverse("finding-review", args=[finding.pk]),
                                       {"decision": "escalate", "note": "still waiting"}, format="json")
    assert answer.status_code == 400 and "already escalated" in " ".join(answer.json()["decision"])
    client.force_login(surveillance)
    page = client.post(reverse("desk-finding-review", args=[finding.pk]),
                       {"decision": "escalate", "note": "still waiting"}, follow=True).content.decode()
    assert "Decision: This finding is already escalated" in page
    finding.refresh_from_db()
    assert (finding.status, finding.review_note, finding.history.count()) == (
        Finding.ESCALATED, "ask the shift manager", history)
    # Its decision is still taken; sent back by a correction, it may be escalated again.
    round_correct(round=rnd, revision=1, data=CORRECT, reason="paid in full", author=pitboss)
    finding_review(finding=finding, decision="escalate", note="the correction needs a look", author=surveillance)
    finding_review(finding=finding, decision="confirm", note="seen on camera", author=surveillance)
    finding.refresh_from_db()
    assert finding.status == Finding.CONFIRMED
