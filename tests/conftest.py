from __future__ import annotations

import importlib
import os

import pytest
from django.conf import settings
from django.db import connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from casino.roles import ALL_ROLES
from tests.factories import TableFactory, user_with_role

# Running on several xdist workers: per-worker files, resources one test at a time (make test);
# the flush after a transactional test by DELETE on PostgreSQL (tests/flush.py).
pytest_plugins = ["tests.parallel", "tests.flush"]

# The properties judge the code, not how fast this machine draws examples: on a shared 2-core
# machine (CI runs two workers beside PostgreSQL) generation alone has taken over a second, and
# Hypothesis's too_slow health check then failed a property that held. A test's own settings win.
hypothesis_settings.register_profile("casino", suppress_health_check=[HealthCheck.too_slow])
# HYPOTHESIS_PROFILE=thorough: many more examples (a property's own count: tests/examples.py).
hypothesis_settings.register_profile("thorough", parent=hypothesis_settings.get_profile("casino"), max_examples=1000)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "casino"))


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """On SQLite, a copy of the migrated database is kept for the servers tests start.

    With a read replica (DATABASE_REPLICA_URL), its alias reads the replica's streamed copy
    of the test database. Its TEST MIRROR kept Django from creating a test database on the
    read-only replica, and pointed the alias at the primary: point it back at the replica."""
    from casino.db_routing import PRIMARY, REPLICA
    from tests.deployed import keep_migrated_sqlite
    from tests.replica import wait_for_replay

    with django_db_blocker.unblock():
        keep_migrated_sqlite()  # what a server a test starts is given on SQLite (tests/deployed.py)
    if REPLICA not in settings.DATABASES:
        return
    replica = settings.DATABASES[REPLICA]  # the same dict new threads' connections are made from
    replica["NAME"] = connections[PRIMARY].settings_dict["NAME"]
    connections[REPLICA].close()
    connections[REPLICA].settings_dict = replica
    with django_db_blocker.unblock():
        wait_for_replay(database_appears=True)


def _transactional(marker) -> bool:
    return bool(marker and (marker.kwargs.get("transaction") or (marker.args and marker.args[0])))


def pytest_collection_modifyitems(config, items):
    """With a read replica: a transactional test may read on it (a marked page or API list it
    requests), so its alias is allowed there as in the tests written for it."""
    from casino.db_routing import REPLICA

    if REPLICA not in settings.DATABASES:
        return
    for item in items:
        marker = item.get_closest_marker("django_db")
        if not _transactional(marker) or "databases" in marker.kwargs or len(marker.args) > 2:
            continue
        item.add_marker(pytest.mark.django_db(*marker.args, **{**marker.kwargs, "databases": "__all__"}),
                        append=False)


@pytest.fixture(autouse=True)
def _seeded_rows(request):
    """The rows the migrations seed (the W-2G thresholds of ACCOUNTING.md) are in every test's
    database: a transactional test ends by flushing every table, seeded rows included, and in a
    parallel run any test may come after one on its worker."""
    marker = request.node.get_closest_marker("django_db")
    databases = marker.kwargs.get("databases") if marker else None
    if marker is None or (databases not in (None, "__all__") and "default" not in databases):
        return
    request.getfixturevalue("_django_db_helper")  # the test's database access, as its marker asks
    seed_rows()


def seed_rows() -> None:
    """Put back the rows the migrations seed, where a flush took them."""
    from django.apps import apps

    w2g = importlib.import_module("audit.jackpots.migrations.0003_w2g_thresholds")
    w2g.add_default_rows(apps, None)


@pytest.fixture(autouse=True)
def _postgres_marker(request):
    """A test marked ``postgres`` (triggers, row locks, PostgreSQL's SQL) is skipped on SQLite, the
    quick start's database, with that reason, rather than failing there."""
    if request.node.get_closest_marker("postgres") and connections["default"].vendor != "postgresql":
        pytest.skip("marked postgres: needs PostgreSQL (its triggers, row locks or SQL), not the quick start's SQLite")


@pytest.fixture(autouse=True)
def _replica_caught_up(request, monkeypatch):
    """With a read replica, a transactional test's marked reads first wait for the replica to
    replay what the test committed: the test's own writes (factories) pin no browser, and the
    replica's lag, milliseconds here, would make its pages race them. The replica tests
    (marker ``replica_routing``) wait themselves, and pause the replay on purpose."""
    from casino import db_routing

    if (db_routing.REPLICA not in settings.DATABASES or request.node.get_closest_marker("replica_routing")
            or not _transactional(request.node.get_closest_marker("django_db"))):
        yield
        return
    from tests.replica import Replay, replica_missing

    if replica_missing():
        yield  # the router falls back to the primary
        return
    replay, usable = Replay(), db_routing.replica_usable

    def caught_up_then_usable() -> bool:
        return replay.wait() and usable()

    monkeypatch.setattr(db_routing, "replica_usable", caught_up_then_usable)
    yield
    replay.close()


#: The test users' password hasher: the real one takes a second a user.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """The API throttles count in the cache: each test starts with none spent."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def role_users(db):
    """One user per role, plus a user without a role and a superuser."""
    return make_role_users()


def make_role_users() -> dict:
    """:func:`role_users`' users, made in the caller's transaction."""
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


def token_as(user, name: str = "test") -> APIClient:
    """An API client that sends a real ``Authorization: Token <key>`` header, the key issued as
    production issues it (casino.tokens.api_token_issue), with no session at all."""
    from casino.tokens import api_token_issue

    key = api_token_issue(user=user, author=None, name=name)[1]
    return APIClient(HTTP_AUTHORIZATION=f"Token {key}")


#: The two ways a client proves who it is: a session (pages, the browser) and an API token
#: (tablets, jobs). Tests that check who may do what run through both.
AUTHS = ("session", "token")


def client_as(user, auth: str = "session") -> APIClient:
    """A client for ``user`` (``None``: anonymous) through a session or a token (see AUTHS)."""
    if user is None or auth == "session":
        return api_as(user)
    return token_as(user)


@pytest.fixture
def table(db):
    return TableFactory()
