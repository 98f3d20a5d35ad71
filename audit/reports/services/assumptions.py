"""Gaming managers' theoretical assumptions (edge and variance of wagers with player decisions)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from ..models import TheoreticalAssumption


def assumption_check(assumption: TheoreticalAssumption) -> None:
    """The service's own rules beyond the model's (the admin form runs them too)."""
    if assumption.house_edge is not None and not -1 < assumption.house_edge < 1:
        raise ValidationError(
            {"house_edge": ["must be a fraction between -1 and 1, e.g. 0.015 for 1.5%"]}
        )


@transaction.atomic
def assumption_save(
    *, assumption: TheoreticalAssumption, author, reason: str
) -> TheoreticalAssumption:
    """Create or change an assumption; the reason and author go into its history."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(
            {"reason": ["Every change needs a reason; it is kept with your name"]}
        )
    assumption_check(assumption)
    assumption.full_clean()
    assumption._history_user, assumption._change_reason = author, reason
    assumption.save()
    return assumption
