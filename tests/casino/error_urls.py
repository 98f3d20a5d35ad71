"""The app's URLconf plus views that fail, for the 500 pages (tests/casino/test_error_pages.py)."""

from django.core.exceptions import PermissionDenied
from django.urls import path

from casino.urls import handler400, handler403, handler404, handler500, urlpatterns  # noqa: F401


def _crash(request):
    raise RuntimeError("a bug")


def _denied(request):
    raise PermissionDenied("Your role does not allow this.")


urlpatterns = [path("crash/", _crash), path("api/v1/crash/", _crash), path("api/v1/denied/", _denied), *urlpatterns]
