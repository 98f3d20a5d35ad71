from __future__ import annotations

# Report runs in-process for the close tests, as in tests/closing.
from tests.reports.conftest import _eager_celery  # noqa: F401
