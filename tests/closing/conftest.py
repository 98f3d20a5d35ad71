from __future__ import annotations

# Report runs in-process (the reopen's re-run too), except in a test marked celery_worker.
from tests.reports.conftest import _eager_celery  # noqa: F401
