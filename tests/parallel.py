"""The suite on several pytest-xdist workers (`make test` runs ``-n auto --dist loadgroup``).

A pytest plugin (tests/conftest.py loads it). What the workers would otherwise share, and how
each is kept apart; a new test gets this from its markers, never from a list of files:

- The database: pytest-django gives each worker its own test database (``test_<name>_gw0``,
  ``_gw1``...; on SQLite each its own in-memory one). Scratch databases named after the test
  database (the benchmark runs') are per worker with it.
- Files: report files go under a directory of the worker's own (``REPORTS_ROOT``), since two
  test databases number their casinos alike and would write the same paths.
- A resource only one test may use at a time, across workers and across runs on the same
  machine: a test marked ``exclusive("<resource>")``, ``celery_worker`` (real Celery workers
  take any task on the broker's queue) or ``replica_routing`` (the read-replica tests pause
  the replica's replay). Under ``--dist loadgroup`` each resource's tests go to one worker as an
  xdist group, in turn; and each holds a lock file named after the resource (and its broker or
  replica URL) while it runs, so a plain ``-n N`` run, or a second run sharing the broker, waits
  instead of colliding.
- Ports: servers a test starts (live_server, gunicorn) take a free port from the system, never a
  fixed one. A Redis of a test's own (tests/own_redis.py) probes ``OWN_REDIS_PORTS`` for a free
  one; two workers probing at once could pick the same, so each worker gets its own slice.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
import threading
import uuid
from pathlib import Path

import pytest

#: Markers that mean "uses a resource one test at a time", and what names that resource: the
#: broker (two runs on different brokers do not collide), the replica server.
_RESOURCE_MARKERS = {
    "celery_worker": lambda: os.environ.get("CELERY_BROKER_URL", ""),
    "replica_routing": lambda: os.environ.get("DATABASE_REPLICA_URL", ""),
}


def _own_redis_ports() -> None:
    """Give this xdist worker its own slice of ``OWN_REDIS_PORTS`` (ten ports a worker when the
    range is too small to share)."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    index, count = int(os.environ["PYTEST_XDIST_WORKER"].removeprefix("gw")), int(os.environ["PYTEST_XDIST_WORKER_COUNT"])
    first, _, last = os.environ.get("OWN_REDIS_PORTS", "6390-6399").partition("-")
    first, last = int(first), int(last or first)
    size = (last - first + 1) // count
    if size < 1:
        first, size = first + 10 * index, 10
    else:
        first += size * index
    os.environ["OWN_REDIS_PORTS"] = f"{first}-{first + size - 1}"


def pytest_configure(config):
    _own_redis_ports()
    config.pluginmanager.register(_XdistGroupIds(), "casino-xdist-group-ids")
    if _controller(config) and getattr(config.option, "testrunuid", None) is None:
        # The run's id, known before the workers start: the template's stamp is named after it.
        config.option.testrunuid = uuid.uuid4().hex
    config.addinivalue_line(
        "markers",
        "exclusive(resource): the test uses a machine-wide resource one test at a time; under xdist "
        "such tests run in one group, each holding a lock named after the resource (tests/parallel.py)",
    )


def _resources(item) -> list[str]:
    names = [f"{marker}-{identity()}" if identity() else marker
             for marker, identity in _RESOURCE_MARKERS.items() if item.get_closest_marker(marker)]
    names += [str(mark.args[0] if mark.args else mark.kwargs["resource"]) for mark in item.iter_markers("exclusive")]
    return sorted(set(names))


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups into the test ids
def pytest_collection_modifyitems(config, items):
    for item in items:
        for marker in _RESOURCE_MARKERS:
            if item.get_closest_marker(marker):
                item.add_marker(pytest.mark.xdist_group(marker))
        for mark in item.iter_markers("exclusive"):
            item.add_marker(pytest.mark.xdist_group(str(mark.args[0] if mark.args else mark.kwargs["resource"])))


class _XdistGroupIds:
    @pytest.hookimpl(trylast=True)  # after -k and --deselect have matched the plain ids
    def pytest_collection_modifyitems(self, config, items):
        _database_free_first(items)
        _xdist_group_ids(config, items)


def _uses_database(item) -> bool:
    """Whether the test reaches the database (pytest-django's own reading of a test)."""
    from django.test import TransactionTestCase

    cls = getattr(item, "cls", None)
    if cls is not None and issubclass(cls, TransactionTestCase):
        return True
    names = getattr(item, "fixturenames", ())
    return bool(item.get_closest_marker("django_db")) or any(
        name in names for name in ("db", "transactional_db", "live_server", "django_db_setup"))


def _database_free_first(items) -> None:
    """The tests that never touch the database first (pytest-django puts them last): a worker
    runs them while the run's template database is still being migrated (below), instead of
    waiting idle for it. The rest keep pytest-django's order."""
    items.sort(key=_uses_database)


def _xdist_group_ids(config, items):
    """``--dist loadgroup`` schedules by a ``@<group>`` suffix each worker adds to its tests' ids.
    pytest-xdist 3.8 writes it to ``item._nodeid``, which pytest 9 no longer reads (the id is
    ``item._id``), so no test was grouped and the groups' tests ran on every worker at once.
    Add the suffix the way xdist means it, where it did not."""
    if not getattr(config.option, "loadgroup", False):  # set on xdist's workers only
        return
    for item in items:
        groups = {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")}
        if not groups or "@" in item.nodeid:
            continue
        nodeid = f"{item.nodeid}@{'_'.join(sorted(groups))}"
        if hasattr(item, "_id"):
            item._id = type(item._id).parse(nodeid)
        else:
            item._nodeid = nodeid


@pytest.fixture(autouse=True)
def _exclusive_resources(request):
    """Hold the lock of each machine-wide resource the test uses, for the test's duration."""
    locks = []
    try:
        for name in _resources(request.node):
            digest = hashlib.sha256(name.encode()).hexdigest()[:12]
            lock = (Path(tempfile.gettempdir()) / f"casino-tests-{name.split('-')[0]}-{digest}.lock").open("w")
            fcntl.flock(lock, fcntl.LOCK_EX)
            locks.append(lock)
        yield
    finally:
        for lock in reversed(locks):
            lock.close()


def worker_id() -> str:
    """``gw0``, ``gw1``... under xdist; ``main`` in a run without workers."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


@pytest.fixture(scope="session", autouse=True)
def _reports_root_per_worker(tmp_path_factory):
    """Report files under the worker's own directory (a test's ``settings`` fixture still wins)."""
    from django.conf import settings

    before = settings.REPORTS_ROOT
    settings.REPORTS_ROOT = tmp_path_factory.mktemp(f"reports-{worker_id()}")
    yield
    settings.REPORTS_ROOT = before


# --- One migrated template database per run (PostgreSQL) ------------------------------------
# Migrating the schema (about 60 migrations, with triggers and partitions) is the costliest
# step of a worker's start. Under xdist on PostgreSQL the first worker migrates a template
# database once, and every worker copies it (CREATE DATABASE ... TEMPLATE, a file copy) instead
# of migrating its own. pytest-django then finds the worker's database there (keepdb) and only
# checks that nothing is left to apply. --reuse-db keeps pytest-django's own behaviour.


def _controller(config) -> bool:
    """This process is the controller of an xdist run (it starts the workers, runs no test)."""
    return not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", None))


def _stamp(template: str, run: str) -> Path:
    return Path(tempfile.gettempdir()) / f"casino-tests-template-{template}-{run}"


@pytest.hookimpl(tryfirst=True)  # before xdist's own sessionstart starts the workers
def pytest_sessionstart(session):
    """The controller migrates the template database while its workers start, collect and run
    the tests that need no database; they wait for it at the stamp's lock, taken here before
    any of them exists. A failure leaves no stamp: the first worker then migrates, and says why."""
    config = session.config
    if not _controller(config) or config.getvalue("reuse_db"):
        return
    from django.conf import settings as django_settings
    from django.db import connections
    from pytest_django.plugin import blocking_manager_key

    connection = connections["default"]
    if connection.vendor != "postgresql":
        return
    template = _template_name(connection.creation._get_test_db_name())
    stamp = _stamp(template, config.option.testrunuid)
    lock = open(f"{stamp}.lock", "w")  # noqa: SIM115 - released by the thread when it is done
    fcntl.flock(lock, fcntl.LOCK_EX)
    blocker = config.stash[blocking_manager_key]

    def migrate() -> None:
        try:
            with blocker.unblock():
                _template_migrate(connections["default"], django_settings, template)
            stamp.touch()
        except Exception as exc:  # noqa: BLE001 - the first worker migrates again and fails with it
            print(f"\nthe template database was not migrated ahead: {exc!r}")
        finally:
            connections.close_all()
            lock.close()

    config._template_thread = threading.Thread(target=migrate, name="template-migration", daemon=True)
    config._template_thread.start()


def _template_wanted(config) -> bool:
    from django.db import connections

    return (hasattr(config, "workerinput") and not config.getvalue("reuse_db")
            and connections["default"].vendor == "postgresql")


def _template_name(test_name: str) -> str:
    return f"{test_name}_template"[:63]


@pytest.fixture(scope="session")
def django_db_keepdb(request) -> bool:
    """Take the worker's copied database as it is (see above); else pytest-django's --reuse-db."""
    return bool(request.config.getvalue("reuse_db")) or _template_wanted(request.config)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, request, django_db_blocker):
    if not _template_wanted(request.config):
        yield
        return
    from django.conf import settings as django_settings
    from django.db import connections

    connection = connections["default"]
    worker = request.config.workerinput["workerid"]
    test_name = connection.creation._get_test_db_name()  # test_<name>_gwN (pytest-django's suffix)
    template = _template_name(test_name.removesuffix(f"_{worker}"))
    stamp = _stamp(template, request.config.workerinput["testrunuid"])
    with django_db_blocker.unblock(), open(f"{stamp}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the controller (or the first worker) migrates; the others wait
        if not stamp.exists():
            _template_migrate(connection, django_settings, template)
            stamp.touch()
        with connection.creation._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{test_name}"')
            cursor.execute(f'CREATE DATABASE "{test_name}" TEMPLATE "{template}"')
    yield
    with django_db_blocker.unblock():
        connections.close_all()
        with connection.creation._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{test_name}"')


def template_database() -> str | None:
    """The run's migrated template database, when this worker's database was copied from one
    (a benchmark's smoke test copies it instead of migrating a scratch database: half a minute)."""
    from django.db import connection

    worker = worker_id()
    if worker == "main" or connection.vendor != "postgresql":
        return None
    template = _template_name(connection.settings_dict["NAME"].removesuffix(f"_{worker}"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template])
        return template if cursor.fetchone() else None


def _template_migrate(connection, django_settings, template: str) -> None:
    """Create and migrate ``template`` as Django creates a test database, then put the
    connection's settings back (create_test_db points them at the database it made)."""
    name, test = connection.settings_dict["NAME"], dict(connection.settings_dict["TEST"])
    connection.settings_dict["TEST"]["NAME"] = template
    try:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    finally:
        connection.close()
        connection.settings_dict["NAME"] = django_settings.DATABASES["default"]["NAME"] = name
        connection.settings_dict["TEST"] = test


def pytest_sessionfinish(session):
    """The controller of an xdist run drops the run's template database."""
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    from django.db import connections

    connection = connections["default"]
    if connection.vendor != "postgresql" or config.getvalue("reuse_db"):
        return
    from pytest_django.plugin import blocking_manager_key

    if thread := getattr(config, "_template_thread", None):
        thread.join()

    template = _template_name(connection.creation._get_test_db_name())
    with config.stash[blocking_manager_key].unblock(), connection.creation._nodb_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{template}"')
    for stamp in Path(tempfile.gettempdir()).glob(f"casino-tests-template-{template}-*"):
        stamp.unlink(missing_ok=True)
