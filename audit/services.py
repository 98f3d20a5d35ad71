"""Surveillance's review of findings: every decision with a note, kept in history; and what a
correction or a void of a round does to its findings."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from audit.rollups.writer import rounds_changing
from casino.audit_guard import allow_audit_write
from tables import chain
from tables.models import Finding, Round

DECISIONS = {
    "confirm": Finding.CONFIRMED,  # a dealer error
    "dismiss": Finding.DISMISSED,  # a recording mistake: the round needs a correction
    "escalate": Finding.ESCALATED,  # for a manager or investigator
}


@transaction.atomic
def finding_review(*, finding: Finding, decision: str, note: str, author, at=None) -> Finding:
    note = (note or "").strip()
    if decision not in DECISIONS:
        raise ValidationError({"decision": [f'"{decision}" is not one of {", ".join(DECISIONS)}']})
    if not note:
        raise ValidationError({"note": ["Every review decision needs a note; it is kept in the history"]})
    allow_audit_write()
    # The round's lock first, as corrections and voids take it: a decision never lands between
    # their read of the round's findings and their write (it would be overwritten), and the
    # two never wait for each other in opposite orders.
    list(Round.objects.select_for_update().filter(pk=finding.round_id).values_list("pk", flat=True))
    finding = Finding.objects.select_for_update().get(pk=finding.pk)
    if finding.status == Finding.SUPERSEDED:
        raise ValidationError({"finding": ["This finding belongs to a superseded revision; review the current one"]})
    if finding.reopened_at is None and finding.status in (Finding.CONFIRMED, Finding.DISMISSED):
        raise ValidationError({"finding": [f"This finding was already {finding.get_status_display()}"]})
    # An escalated finding waits for its decision (confirm or dismiss); escalating it again would
    # replace the standing note and reviewer, which only a finding sent back may (the findings'
    # guard, casino/audit_guard.py RULES "needs", refuses it in PostgreSQL).
    if finding.reopened_at is None and finding.status == Finding.ESCALATED and DECISIONS[decision] == Finding.ESCALATED:
        raise ValidationError({"decision": ["This finding is already escalated and waits for a decision: "
                                            "confirm or dismiss it"]})
    # A reopened finding takes any decision: confirm keeps it counted, dismiss releases it.
    finding.status = DECISIONS[decision]
    finding.review_note = note
    finding.reviewed_by = author
    finding.reviewed_at = at or timezone.now()
    finding.reopened_at = None
    finding._history_user = author
    finding._change_reason = f"{decision}: {note}"
    with rounds_changing([finding.round_id]):
        finding.save(update_fields=["status", "review_note", "reviewed_by", "reviewed_at", "reopened_at"])
    if finding.status != Finding.ESCALATED:
        _refresh_open_count(finding)
    # Last: the table's lock comes after the round's, as in a correction.
    chain.chain_finding_changes([finding], using=finding._state.db)
    return finding


def _refresh_open_count(finding: Finding) -> None:
    rnd = finding.round
    rnd.open_findings = Finding.objects.filter(round=rnd, status=Finding.OPEN).count()
    rnd.save(update_fields=["open_findings"])
