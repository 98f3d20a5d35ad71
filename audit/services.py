"""Surveillance's review of findings: every decision with a note, kept in history."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from audit import chain
from audit.models import Finding
from casino.audit_guard import allow_audit_write

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
    finding = Finding.objects.select_for_update().get(pk=finding.pk)
    if finding.status == Finding.SUPERSEDED:
        raise ValidationError({"finding": ["This finding belongs to a superseded revision; review the current one"]})
    if finding.status in (Finding.CONFIRMED, Finding.DISMISSED):
        raise ValidationError({"finding": [f"This finding was already {finding.get_status_display()}"]})
    finding.status = DECISIONS[decision]
    finding.review_note = note
    finding.reviewed_by = author
    finding.reviewed_at = at or timezone.now()
    finding._history_user = author
    finding._change_reason = f"{decision}: {note}"
    finding.save(update_fields=["status", "review_note", "reviewed_by", "reviewed_at"])
    if finding.status != Finding.ESCALATED:
        _refresh_open_count(finding)
    # Last: the table's lock comes after the round's, as in a correction.
    chain.chain_finding_changes([finding], using=finding._state.db)
    return finding


def _refresh_open_count(finding: Finding) -> None:
    rnd = finding.round
    rnd.open_findings = Finding.objects.filter(round=rnd, status=Finding.OPEN).count()
    rnd.save(update_fields=["open_findings"])
