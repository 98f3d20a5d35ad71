"""A database that cannot be reached answers 503 with Retry-After, not an error 500.

A PostgreSQL restart (or failover) takes a few seconds: meanwhile every request's first query
fails to connect (OperationalError) or finds its connection closed (InterfaceError). That is
not a defect of the request: the API answers JSON 503 with ``Retry-After`` so that clients
retry, and the pages answer the app's own page, which reloads itself after that delay.
``casino.api_errors.server_error`` (Django's handler500, which every uncaught exception
reaches, in a view or a middleware) asks :func:`connection_failure` first.

Errors the database raises for a statement (a deadlock, a statement timeout, a constraint)
carry a SQLSTATE outside the connection classes and stay what they were.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template import loader

log = logging.getLogger(__name__)

#: Seconds a client waits before retrying: about what a PostgreSQL restart takes.
RETRY_AFTER_SECONDS = 5
# SQLSTATE classes of a lost or refused connection: 08 (connection exception), 57P01-57P03
# (administrator or crash shutdown, "the database system is starting up / shutting down").
_CONNECTION_STATES = ("08", "57P01", "57P02", "57P03")


def connection_failure(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be reached (as opposed to refusing a statement)."""
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    # psycopg's errors for a failed or lost connection have no SQLSTATE (the server never
    # answered) or one of the connection classes; SQLite's have none at all.
    sqlstate = getattr(exc.__cause__, "sqlstate", None)
    return sqlstate is None or sqlstate.startswith(_CONNECTION_STATES)


def database_unavailable(request, exc: BaseException) -> HttpResponse:
    log.warning("database unavailable (%s: %s): %s %s answered 503", type(exc).__name__, exc,
                request.method, request.path)
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": f"The database is unavailable for a moment (restarting or unreachable); "
                                       f"retry in {RETRY_AFTER_SECONDS} s. A round sent with an Idempotency-Key "
                                       "may be sent again as it was.",
                             "retry_after": RETRY_AFTER_SECONDS}, status=503, headers=headers)
    # Rendered without the request: the context processors would ask the database for the user.
    page = loader.render_to_string("503.html", {"retry_after": RETRY_AFTER_SECONDS})
    return HttpResponse(page, status=503, headers=headers)
