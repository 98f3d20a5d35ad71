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


def _api_error(request, status: int, detail: str):
    return JsonResponse({"detail": detail}, status=status)


def not_found(request, exception=None):
    """JSON for the API (clients parse it), the HTML page for people."""
    if request.path.startswith("/api/"):
        return _api_error(request, 404, "Not found.")
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def server_error(request):
    if request.path.startswith("/api/"):
        return _api_error(request, 500, "Server error; it has been logged.")
    from django.views.defaults import server_error as html_server_error

    return html_server_error(request)
