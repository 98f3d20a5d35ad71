"""What a locked-out login answers: a page for people, JSON for programs (429 either way).

Both say when the login opens again by itself, in the casino's own zone, and that a gaming
manager may unlock it sooner (the admin's access attempts: deleting the attempt unlocks).
"""

from __future__ import annotations

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone

from casino.local_time import local_time_text
from casino.models import CasinoMembership


def _zone_for(username: str | None) -> str:
    """The zone of the login's own (first) casino; a name that is no member of a casino gets
    the installation's default zone, so the answer says nothing about which names exist."""
    membership = CasinoMembership
    zone = (membership.objects.filter(user__username=username).order_by("casino_id")
            .values_list("casino__time_zone", flat=True).first()) if username else None
    return zone or settings.CASINO_TIME_ZONE


def unlock_time(request, username: str | None):
    """When the lock on ``username`` from this client's address lapses: the cool-off (always
    set here) counted from the last failure recorded for that pair. The lock is keyed on both,
    so another address's failures never move it."""
    last = (AccessAttempt.objects.filter(username=username, ip_address=getattr(request, "axes_ip_address", None))
            .aggregate(last=Max("attempt_time"))["last"])
    return (last or timezone.now()) + get_cool_off(request)


def lockout_response(request, original_response=None, credentials=None):
    username = get_client_username(request, credentials)
    unlocks_at = unlock_time(request, username)
    minutes = int(get_cool_off(request).total_seconds() // 60)
    when = local_time_text(unlocks_at, _zone_for(username))
    detail = (f"This login is locked from this address after {settings.AXES_FAILURE_LIMIT} wrong passwords. "
              f"It unlocks at {when} ({minutes} minutes after the last try; another try before then "
              f"starts the wait again), or a gaming manager can unlock it now.")
    accept = request.headers.get("Accept", "")
    if "application/json" in accept or request.headers.get("X-Requested-With") == "XMLHttpRequest":
        return JsonResponse({"detail": detail, "unlocks_at": unlocks_at.isoformat(),
                             "unlocks_at_local": when, "retry_after_minutes": minutes,
                             "unlocked_by": "gaming_manager"}, status=429,
                            headers=_retry_after(unlocks_at))
    page = render(request, "registration/locked_out.html", {"detail": detail, "unlocks_at_local": when}, status=429)
    page["Retry-After"] = _retry_after(unlocks_at)["Retry-After"]
    return page


def _retry_after(unlocks_at) -> dict:
    return {"Retry-After": str(max(0, int((unlocks_at - timezone.now()).total_seconds()) + 1))}
