from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _eager_celery(request):
    """Report runs in-process (the reopen's re-run too), except in a test marked celery_worker."""
    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    from casino.celery import app

    old = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = old
