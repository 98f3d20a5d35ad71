"""What a correction or a void of a round does to the findings recorded with it: written by the
round's own actions (``tables.services.rounds``), in their transaction and under the round's lock.
Surveillance's decisions on findings are ``audit.services``."""

from __future__ import annotations

from simple_history.utils import bulk_update_with_history

from tables import chain
from tables.models import Finding, Round


def findings_round_changed(*, round, change: str, reason: str, author, at) -> None:  # noqa: A002
    """What a correction or a void of ``round`` does to its findings (call under the round's lock).

    Open findings are superseded (a correction's new revision is audited afresh). Reviewed
    findings (confirmed, escalated) are never superseded: they keep their status, stay counted
    against the dealer, and are sent back to surveillance (``reopened_at``) for a new decision.
    ``change`` says what happened ("corrected to revision 3", "voided"); ``reason`` is the author's.
    """
    findings = list(Finding.objects.select_for_update().filter(round=round).order_by("pk"))
    voided = round.status == Round.VOIDED  # a void saves the round's status before calling here
    superseded = [f for f in findings if f.status == Finding.OPEN]
    for finding in superseded:
        finding.status = Finding.SUPERSEDED
    if superseded:
        what = "round voided" if voided else "superseded by a correction"
        bulk_update_with_history(superseded, Finding, ["status"], default_user=author,
                                 default_change_reason=f"{what}: {reason}")
    reopened = [f for f in findings if f.status in Finding.REVIEWED]
    for finding in reopened:
        finding.reopened_at, finding.reopened_reason = at, f"{change} by {author}: {reason}"
    if reopened:
        # The author's reason is kept whole in ``reopened_reason`` (and its history row).
        bulk_update_with_history(reopened, Finding, ["reopened_at", "reopened_reason"], default_user=author,
                                 default_change_reason=f"sent back to surveillance: round {change}")
    # Last: the table's chain lock comes after the round's.
    chain.chain_finding_changes(superseded + reopened, using=round._state.db)
