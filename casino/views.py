from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache


@login_required
def home(request):
    return render(request, "home.html")


@never_cache
def healthz(request):
    """For load balancers and monitoring: 200 when the database answers, 503 when not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return JsonResponse({"status": "ok", "database": "ok"})
    except Exception as exc:  # noqa: BLE001 - any database failure means unhealthy
        return JsonResponse({"status": "error", "database": type(exc).__name__}, status=503)
