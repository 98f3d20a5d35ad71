"""Settings come from the environment; production refuses insecure defaults."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOOD_KEY = "k" * 20 + "Zq8-x_" * 8


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items()
            if k not in {"DJANGO_ENV", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "DATABASE_URL", "DATABASE_REPLICA_URL",
                         "CELERY_BROKER_URL",
                         "CSRF_TRUSTED_ORIGINS", "CASINO_TIME_ZONE", "SECURE_HSTS_SECONDS",
                         "DJANGO_ALLOW_ASYNC_UNSAFE"}}  # the browser tests set it for Playwright
    base.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=base,
                          capture_output=True, text=True, timeout=120)


def _production(**extra: str) -> dict[str, str]:
    env = {"DJANGO_ENV": "production", "SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "tables.example.com",
           "CSRF_TRUSTED_ORIGINS": "https://tables.example.com"}
    env.update(extra)
    return env


def test_production_passes_check_deploy_without_warnings():
    result = _run(["check", "--deploy", "--fail-level", "WARNING"], **_production())
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize(
    ("env", "named"),
    [
        (_production(SECRET_KEY=""), "SECRET_KEY"),
        (_production(SECRET_KEY="django-insecure-" + "x" * 60), "SECRET_KEY"),
        (_production(DEBUG="true"), "DEBUG"),
        (_production(ALLOWED_HOSTS=""), "ALLOWED_HOSTS"),
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"DJANGO_ENV": "staging"}, "DJANGO_ENV"),
        ({"CASINO_TIME_ZONE": "Mars/Olympus_Mons"}, "CASINO_TIME_ZONE"),
        ({"CSRF_TRUSTED_ORIGINS": "tables.example.com"}, "CSRF_TRUSTED_ORIGINS"),
        ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS"),
        ({"DATABASE_URL": "nosuchdb://x"}, "DATABASE_URL"),
        ({"DATABASE_URL": "postgres://casino@db.example.com/casino", "DATABASE_PREPARED": "perhaps"},
         "DATABASE_PREPARED"),
        ({"DATABASE_REPLICA_URL": "postgres://casino@replica.example.com/casino"}, "DATABASE_REPLICA_URL"),
        ({"DATABASE_URL": "postgres://casino@db.example.com/casino", "DATABASE_REPLICA_URL": "sqlite:///copy.db"},
         "DATABASE_REPLICA_URL"),
        ({"DATABASE_URL": "postgres://casino@db.example.com/casino", "DATABASE_REPLICA_URL": "nosuchdb://x"},
         "DATABASE_REPLICA_URL"),
        ({"REPLICA_PIN_SECONDS": "a while"}, "REPLICA_PIN_SECONDS"),
    ],
)
def test_wrong_environment_stops_startup_naming_the_variable(env, named):
    result = _run(["check"], **env)
    assert result.returncode != 0
    assert named in result.stderr
    assert "Traceback" not in result.stderr.splitlines()[-1]


def test_development_defaults_work_without_any_environment():
    result = _run(["check"])
    assert result.returncode == 0, result.stderr


def test_no_broker_means_eager_tasks(settings):
    from django.conf import settings as live

    if os.environ.get("CELERY_BROKER_URL"):
        assert live.CELERY_TASK_ALWAYS_EAGER is False
    else:
        assert live.CELERY_TASK_ALWAYS_EAGER is True


@pytest.mark.parametrize(("extra", "options"), [
    ({}, "{'server_side_binding': True, 'prepare_threshold': 5, "
         "'cursor_factory': <class 'casino.prepared.PreparingCursor'>}"),
    ({"DATABASE_PREPARED": "false"}, "{}"),
])
def test_postgresql_prepares_statements_unless_told_not_to(extra, options):
    show = "from django.conf import settings; print(settings.DATABASES['default'].get('OPTIONS', {}))"
    result = _run(["shell", "-c", show], DATABASE_URL="postgres://casino@db.example.com/casino", **extra)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == options


def test_a_replica_url_adds_the_alias_the_router_and_the_pin():
    show = ("import json; from django.conf import settings as s; r = s.DATABASES.get('replica'); "
            "print(json.dumps([r and [r['HOST'], r['NAME'], r['TEST']['MIRROR'], r['OPTIONS']['connect_timeout'], "
            "r['OPTIONS']['prepare_threshold']], s.DATABASE_ROUTERS, "
            "[m for m in s.MIDDLEWARE if 'db_routing' in m or 'sessions' in m]]))")
    primary = {"DATABASE_URL": "postgres://casino@db.example.com/casino"}
    result = _run(["shell", "-c", show], **primary, DATABASE_REPLICA_URL="postgres://casino@replica.example.com/casino")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == [
        ["replica.example.com", "casino", "default", 2, 5],
        ["casino.db_routing.PrimaryReplicaRouter"],
        ["casino.db_routing.ReplicaPinMiddleware", "django.contrib.sessions.middleware.SessionMiddleware"],
    ]
    # Without one: no alias, no router, no middleware (as before the replica existed).
    result = _run(["shell", "-c", show], **primary)
    assert json.loads(result.stdout.strip().splitlines()[-1]) == [
        None, [], ["django.contrib.sessions.middleware.SessionMiddleware"]]
