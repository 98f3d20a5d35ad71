from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from casino.roles import ALL_ROLES
from tests.factories import TableFactory, user_with_role


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _one_real_worker_test_at_a_time(request):
    """Tests that start real Celery workers share the broker's queue: under xdist, two at once
    would take each other's tasks (against the other test database). Serialize them."""
    if not request.node.get_closest_marker("celery_worker"):
        yield
        return
    broker = os.environ.get("CELERY_BROKER_URL", "")
    name = f"casino-celery-worker-tests-{hashlib.sha256(broker.encode()).hexdigest()[:12]}.lock"
    with (Path(tempfile.gettempdir()) / name).open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """The API throttles count in the cache: each test starts with none spent."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def role_users(db):
    """One user per role, plus a user without a role and a superuser."""
    users = {role: user_with_role(role) for role in ALL_ROLES}
    users[None] = user_with_role(None)
    users["superuser"] = user_with_role("superuser")
    return users


@pytest.fixture
def manager(db):
    return user_with_role("gaming_manager")


@pytest.fixture
def api_client():
    return APIClient()


def api_as(user) -> APIClient:
    """An API client logged in through the session (works for pages and the API alike)."""
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def table(db):
    return TableFactory()
