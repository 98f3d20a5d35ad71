"""JSON errors with field-level messages, never a stack trace, never an HTML page under /api/.

DRF's views answer through :func:`exception_handler`; what fails before or outside them
(an unknown URL, a body Django itself refuses, a crash) reaches Django's handlers, which
answer JSON under ``/api/`` and the HTML pages elsewhere.
"""

from __future__ import annotations

import sys

from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse
from django.views import defaults
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino.api_input import as_api_exception, too_large
from casino.db_outage import connection_failure, database_unavailable
from casino.field_words import with_words
from tables.games.vocabulary.base import InvalidInput


def exception_handler(exc, context):
    if isinstance(exc, RequestDataTooBig):
        # Django's own refusal of a body over DATA_UPLOAD_MAX_MEMORY_SIZE, raised wherever the
        # body is first read (the CSRF check of a session reads it through ``request.POST``,
        # before the parser's own limit): the same JSON 413 as the parser's, on every
        # endpoint, whatever DEBUG says (a SuspiciousOperation that leaves DRF becomes
        # Django's HTML 400 page under DEBUG).
        exc = as_api_exception(too_large())
    if isinstance(exc, InvalidInput):  # a refused round: its paths as keys, and in people's words
        return Response(with_words(exc.as_dict(), _posted_round(context)), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        return Response(detail, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)


def _posted_round(context) -> dict | None:
    request = context.get("request") if context else None
    data = getattr(request, "data", None)
    return data.get("round") if isinstance(data, dict) else None


def _api(request) -> bool:
    return request.path.startswith("/api/")


def bad_request(request, exception=None):
    if not _api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return JsonResponse({"detail": too_large().detail}, status=413)
    return JsonResponse({"detail": "Bad request."}, status=400)


def permission_denied(request, exception=None):
    if not _api(request):
        return defaults.permission_denied(request, exception)
    return JsonResponse({"detail": str(exception or "") or "You do not have permission."}, status=403)


def not_found(request, exception=None):
    """JSON for the API (clients parse it), the HTML page for people."""
    if not _api(request):
        return defaults.page_not_found(request, exception)
    return JsonResponse({"detail": "Not found."}, status=404)


def server_error(request):
    failure = sys.exc_info()[1]  # handler500 is called while the uncaught exception is handled
    if connection_failure(failure):  # a database restarting: 503 and Retry-After, not a 500
        return database_unavailable(request, failure)
    if not _api(request):
        return defaults.server_error(request)
    return JsonResponse({"detail": "Server error; it has been logged."}, status=500)
