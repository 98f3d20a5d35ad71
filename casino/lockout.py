"""What a locked-out login answers: a page for people, JSON for programs (429 either way)."""

from __future__ import annotations

from axes.helpers import get_cool_off
from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render


def lockout_response(request, original_response=None, credentials=None):
    cool_off = get_cool_off(request)
    minutes = int(cool_off.total_seconds() // 60) if cool_off else None
    detail = (f"This login is locked after {settings.AXES_FAILURE_LIMIT} wrong passwords. "
              f"Try again in {minutes} minutes, or ask a gaming manager to unlock it.")
    accept = request.headers.get("Accept", "")
    if "application/json" in accept or request.headers.get("X-Requested-With") == "XMLHttpRequest":
        return JsonResponse({"detail": detail, "retry_after_minutes": minutes}, status=429)
    return render(request, "registration/locked_out.html", {"detail": detail}, status=429)
